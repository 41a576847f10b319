import type { DbClientContract, ModelMeta, ZodSchemas } from '@zenstackhq/runtime';
import path from 'node:path';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import type { LoadOptions, TestSchema } from './schema';

/** The generated Prisma client class, enhancer, metadata and zod schemas in a folder `generate.ts` made. */
export function requireGenerated(dir: string) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PrismaClient } = require(path.join(dir, 'prisma-client'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { enhance } = require(path.join(dir, 'zenstack', 'enhance.js'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const modelMeta = require(path.join(dir, 'zenstack', 'model-meta.js')).default as ModelMeta;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const zodSchemas = require(path.join(dir, 'zenstack', 'zod', 'index.js')) as ZodSchemas;
    return {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        PrismaClient: PrismaClient as new (options: Record<string, unknown>) => any,
        enhance: enhance as (client: unknown, context: unknown) => DbClientContract,
        modelMeta,
        zodSchemas,
    };
}

/**
 * The clients of a PostgreSQL database that `loadSchema` made in another process, from the generated folder
 * `dir` of its schema (`TestSchema.generatedDir`): for a second server process on the same database. Imports
 * nothing of the generator, so that it also runs bundled. `cleanup` only disconnects.
 */
export async function connectSchema(dir: string, databaseUrl: string, options: Pick<LoadOptions, 'transactionOptions'> = {}): Promise<TestSchema> {
    const { PrismaClient, enhance, modelMeta, zodSchemas } = requireGenerated(dir);
    const { PrismaPg } = await import('@prisma/adapter-pg');
    const clientOptions = options.transactionOptions ? { transactionOptions: options.transactionOptions } : {};
    const prisma = new PrismaClient({ ...clientOptions, adapter: withTransactionCleanup(new PrismaPg({ connectionString: databaseUrl })) });
    return {
        provider: 'postgresql',
        prisma,
        generatedDir: dir,
        enhance: (user) => enhance(prisma, user ? { user } : {}),
        modelMeta,
        zodSchemas,
        databaseUrl,
        createClient: (adapter, clientOptions = {}) => new PrismaClient({ ...clientOptions, adapter }),
        enhanceClient: (client, user) => enhance(client, user ? { user } : {}),
        cleanup: () => prisma.$disconnect(),
    };
}
