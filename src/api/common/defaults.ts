import type { ModelMeta, ZodSchemas } from '@zenstackhq/runtime';

/**
 * ZenStack's generated output (`node_modules/.zenstack`), loaded once on first use.
 * Only consulted when a request context carries no `modelMeta`/`zodSchemas`.
 */
let defaultModelMeta: ModelMeta | null | undefined;
let defaultZodSchemas: ZodSchemas | null | undefined;

/* eslint-disable @typescript-eslint/no-require-imports */
// Static module ids (not a variable), so that bundlers (Next.js, Vite) can follow them; ZenStack's
// runtime re-exports the generated output from these entry points.
function loadGeneratedModelMeta(): ModelMeta | null {
    try {
        const mod = require('@zenstackhq/runtime/model-meta');
        const meta = mod?.default ?? mod;
        return meta && typeof meta === 'object' && 'models' in meta ? (meta as ModelMeta) : null;
    } catch {
        return null;
    }
}

function loadGeneratedZodSchemas(): ZodSchemas | null {
    try {
        const mod = require('@zenstackhq/runtime/zod');
        return mod?.models ? (mod as ZodSchemas) : null;
    } catch {
        return null;
    }
}
/* eslint-enable @typescript-eslint/no-require-imports */

export function getDefaultModelMeta(): ModelMeta | undefined {
    if (defaultModelMeta === undefined) {
        defaultModelMeta = loadGeneratedModelMeta();
    }
    return defaultModelMeta ?? undefined;
}

export function getDefaultZodSchemas(): ZodSchemas | undefined {
    if (defaultZodSchemas === undefined) {
        defaultZodSchemas = loadGeneratedZodSchemas();
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
