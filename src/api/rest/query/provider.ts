import { clientEnumValues } from '../../common/client-enums';
import { getDefaultModelMeta, getDefaultZodModels } from '../../common/defaults';
import type { ModelRegistry } from '../../common/model-registry';
import type { RestRequest } from '../request';

export { providerOf } from '../../common/isolation';

/** The preview features a client was generated with. */
export function previewFeaturesOf(prisma: unknown): readonly string[] {
    const f = (prisma as { _previewFeatures?: unknown } | null)?._previewFeatures;
    return Array.isArray(f) ? (f as string[]) : [];
}

type ZodLike = { options?: unknown; shape?: Record<string, unknown>; _def?: { innerType?: unknown; schema?: unknown } };

function stringOptions(schema: unknown): readonly string[] | undefined {
    const options = (schema as ZodLike | undefined)?.options;
    return Array.isArray(options) && options.every((o) => typeof o === 'string') ? (options as string[]) : undefined;
}

/** The enum inside `.default()`, `.optional()`, `.nullable()` or a refinement of a field's schema. */
function unwrapEnum(schema: unknown): readonly string[] | undefined {
    let current = schema as ZodLike | undefined;
    for (let i = 0; i < 8 && current; i++) {
        const options = stringOptions(current);
        if (options) return options;
        current = (current._def?.innerType ?? current._def?.schema) as ZodLike | undefined;
    }
    return undefined;
}

/** An object schema's shape, through a refinement (`@@validate` wraps model schemas in one). */
function shapeOf(schema: unknown): Record<string, unknown> | undefined {
    let current = schema as ZodLike | undefined;
    for (let i = 0; i < 4 && current; i++) {
        if (current.shape && typeof current.shape === 'object') return current.shape;
        current = current._def?.schema as ZodLike | undefined;
    }
    return undefined;
}

/** `{ models }` of the default generated output, one object for the enum cache; loaded without its input and object schemas. */
let defaultSchemas: { models: Record<string, unknown> } | undefined;
function defaultModelSchemas(): object | undefined {
    const models = getDefaultZodModels();
    if (!models) return undefined;
    if (defaultSchemas?.models !== models) defaultSchemas = { models };
    return defaultSchemas;
}

const enumCache = new WeakMap<object, Map<string, readonly string[] | undefined>>();

/**
 * An enum's values from a set of zod schemas: its own schema (`enums.RoleSchema`, in the generated output),
 * else the schema of a model field of that enum (`@zenstackhq/runtime/zod`, which the adapters' `zodSchemas:
 * true` and the defaults load, exports the model schemas only). Cached per schema set.
 */
function enumValuesIn(zod: object, registry: ModelRegistry, enumName: string): readonly string[] | undefined {
    let cache = enumCache.get(zod);
    if (!cache) enumCache.set(zod, (cache = new Map()));
    if (cache.has(enumName)) return cache.get(enumName);
    const { enums, models } = zod as { enums?: Record<string, unknown>; models?: Record<string, unknown> };
    let values = stringOptions(enums?.[`${enumName}Schema`]);
    for (const model of values || !models ? [] : registry.models.values()) {
        const field = [...model.scalars.values()].find((f) => f.kind === 'Enum' && f.type === enumName);
        if (!field) continue;
        for (const name of [`${model.name}ScalarSchema`, `${model.name}Schema`]) {
            values = unwrapEnum(shapeOf(models?.[name])?.[field.name]);
            if (values) break;
        }
        if (values) break;
    }
    cache.set(enumName, values);
    return values;
}

/**
 * The values of an enum, from the zod schemas of the request (or the default generated model schemas when
 * the request also uses the default model metadata), else from the schema the Prisma client was
 * generated from (`client-enums.ts`); undefined when unknown.
 */
export function enumValuesFor(req: RestRequest, enumName: string): readonly string[] | undefined {
    const zod = req.zodSchemas ?? (req.schema.modelMeta === getDefaultModelMeta() ? defaultModelSchemas() : undefined);
    const fromZod = zod && typeof zod === 'object' ? enumValuesIn(zod, req.schema.registry, enumName) : undefined;
    return fromZod ?? clientEnumValues(req.prisma, enumName);
}
