import type { ModelMeta, ZodSchemas } from '@zenstackhq/runtime';

/**
 * ZenStack's generated output (`node_modules/.zenstack`), loaded once on first use.
 * Only consulted when a request context carries no `modelMeta`/`zodSchemas`.
 */
let defaultModelMeta: ModelMeta | null | undefined;
let defaultZodSchemas: ZodSchemas | null | undefined;

function tryRequire(id: string): unknown {
    try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mod = require(id);
        return mod?.default ?? mod;
    } catch {
        return null;
    }
}

export function getDefaultModelMeta(): ModelMeta | undefined {
    if (defaultModelMeta === undefined) {
        defaultModelMeta = (tryRequire('.zenstack/model-meta') as ModelMeta | null) ?? null;
    }
    return defaultModelMeta ?? undefined;
}

export function getDefaultZodSchemas(): ZodSchemas | undefined {
    if (defaultZodSchemas === undefined) {
        defaultZodSchemas = (tryRequire('.zenstack/zod') as ZodSchemas | null) ?? null;
    }
    return defaultZodSchemas ?? undefined;
}

/** The model metadata for a request, or an error explaining how to provide it. */
export function resolveModelMeta(fromContext: ModelMeta | undefined): ModelMeta {
    const meta = fromContext ?? getDefaultModelMeta();
    if (!meta) {
        throw new Error('Model metadata not found: run `zenstack generate` or pass `modelMeta` in the request context');
    }
    return meta;
}
