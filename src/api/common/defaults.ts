import type { ModelMeta, ZodSchemas } from '@zenstackhq/runtime';

/**
 * ZenStack's generated output (`node_modules/.zenstack`), loaded once on first use.
 * Only consulted when a request context carries no `modelMeta`/`zodSchemas`.
 */
let defaultModelMeta: ModelMeta | null | undefined;
let defaultZodSchemas: ZodSchemas | null | undefined;
let defaultZodModels: Record<string, unknown> | null | undefined;

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

function loadGeneratedZodModels(): Record<string, unknown> | null {
    try {
        const models = require('@zenstackhq/runtime/zod/models');
        return models && typeof models === 'object' ? (models as Record<string, unknown>) : null;
    } catch {
        return null;
    }
}

/**
 * The generated schemas as `@zenstackhq/runtime/zod` exports them (`models`, `input`, `objects`), with `input` and
 * `objects` loaded on first use. Those two are most of the generated output and require each other along every
 * relation (measured on generated schemas: 4 s and 435 MiB of heap for 50 models, 20 s and 1.4 GiB for 150, where
 * the model schemas took 0.1 s and 0.7 s); the REST handler never reads them, and a serverless cold start of a
 * REST API would load them for nothing. Each part is what `@zenstackhq/runtime/zod` would hold (undefined when it
 * does not load), read once.
 */
function loadGeneratedZodSchemas(): ZodSchemas | null {
    const models = getDefaultZodModels();
    if (!models) return null;
    const schemas = { models } as unknown as ZodSchemas;
    const lazy = (name: 'input' | 'objects', load: () => unknown) =>
        Object.defineProperty(schemas, name, {
            enumerable: true,
            configurable: true,
            get() {
                const value = load();
                Object.defineProperty(schemas, name, { value, enumerable: true, writable: false, configurable: false });
                return value;
            },
        });
    lazy('input', () => require('@zenstackhq/runtime/zod/input'));
    lazy('objects', () => require('@zenstackhq/runtime/zod/objects'));
    return schemas;
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

/**
 * The generated model schemas alone (`@zenstackhq/runtime/zod/models`): what the REST handler reads enum values
 * from when a request carries no zod schemas, without loading the input and object schemas.
 */
export function getDefaultZodModels(): Record<string, unknown> | undefined {
    if (defaultZodModels === undefined) {
        defaultZodModels = loadGeneratedZodModels();
    }
    return defaultZodModels ?? undefined;
}

/** The model metadata for a request, or an error explaining how to provide it. */
export function resolveModelMeta(fromContext: ModelMeta | undefined): ModelMeta {
    const meta = fromContext ?? getDefaultModelMeta();
    if (!meta) {
        throw new Error('Model metadata not found: run `zenstack generate` or pass `modelMeta` in the request context');
    }
    return meta;
}
