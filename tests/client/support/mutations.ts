/**
 * The verb and read-back check ZenStack's hook generators (TanStack Query and SWR alike) give each mutation hook,
 * as their compiled generators write them.
 */
export const MUTATIONS: Record<string, { method: 'POST' | 'PUT' | 'DELETE'; checkReadBack: boolean }> = {
    create: { method: 'POST', checkReadBack: true },
    createMany: { method: 'POST', checkReadBack: false },
    update: { method: 'PUT', checkReadBack: true },
    updateMany: { method: 'PUT', checkReadBack: false },
    upsert: { method: 'POST', checkReadBack: true },
    delete: { method: 'DELETE', checkReadBack: true },
    deleteMany: { method: 'DELETE', checkReadBack: false },
};
