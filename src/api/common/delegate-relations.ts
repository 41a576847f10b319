import { isObject } from './guards';
import { descendantsOf, type ModelDef, type ModelRegistry } from './model-registry';

/**
 * Relations ZenStack leaves in records of a `@@delegate` base model. To check a field-level read rule of a concrete
 * model that goes through a relation (`caption String @allow('read', auth() == post.author)` on `Video`), ZenStack 2.22
 * includes that relation in a base model's `findMany` and in nested reads of a relation to the base model, and never
 * takes it out: `asset/findMany` answered each video's `post` (a draft the user may not read, with its author) and
 * `folder` (of a model nobody may read), which the request never asked for (found by a review on 2026-12-01; 2.22.3
 * answers them too). Prisma answers only the relations a read includes or selects, so every other relation of such a
 * record (of the base model or of the concrete models) is removed, at every depth of the result.
 */

type Args = Record<string, unknown>;

/** Per schema: the models whose records can come with such relations (bases of concrete models with read-protected fields). */
const basesBySchema = new WeakMap<ModelRegistry, ReadonlySet<string>>();
/** Per base model: the relations its records can hold (its own and its concrete models'), name → target model key. */
const relationsByBase = new WeakMap<ModelDef, ReadonlyMap<string, string>>();

function basesOf(registry: ModelRegistry): ReadonlySet<string> {
    let bases = basesBySchema.get(registry);
    if (!bases) {
        const found = new Set<string>();
        for (const model of registry.models.values()) {
            if (descendantsOf(registry, model).some((sub) => [...sub.scalars.values()].some((f) => f.readProtected))) found.add(model.key);
        }
        bases = found;
        basesBySchema.set(registry, bases);
    }
    return bases;
}

function relationsOf(registry: ModelRegistry, base: ModelDef): ReadonlyMap<string, string> {
    let relations = relationsByBase.get(base);
    if (!relations) {
        const all = new Map<string, string>();
        for (const model of [base, ...descendantsOf(registry, base)]) for (const rel of model.relations.values()) all.set(rel.name, rel.targetKey);
        relations = all;
        relationsByBase.set(base, relations);
    }
    return relations;
}

/** What a read asks for below a record: its relations' nested arguments (`{}` for `true`), by name. */
function asked(args: unknown): Map<string, Args> {
    const out = new Map<string, Args>();
    if (!isObject(args)) return out;
    const shape = isObject(args.select) ? args.select : isObject(args.include) ? args.include : undefined;
    if (!shape) return out;
    for (const [name, value] of Object.entries(shape)) if (value) out.set(name, isObject(value) ? value : {});
    return out;
}

/** Removes the relations a read of `model` with `args` did not ask for from base-model records in `value` (in place). */
export function removeUnaskedRelations(registry: ModelRegistry, model: ModelDef, args: unknown, value: unknown): void {
    const bases = basesOf(registry);
    if (bases.size === 0) return;
    const stack: Array<[ModelDef, unknown, unknown]> = [[model, args, value]];
    while (stack.length > 0) {
        const [at, atArgs, v] = stack.pop()!;
        const records = Array.isArray(v) ? v : [v];
        const wanted = asked(atArgs);
        const relations = bases.has(at.key) ? relationsOf(registry, at) : undefined;
        for (const record of records) {
            if (!isObject(record)) continue;
            if (relations) for (const name of relations.keys()) if (!wanted.has(name) && name in record) delete record[name];
            for (const [name, nested] of wanted) {
                const targetKey = relations?.get(name) ?? at.relations.get(name)?.targetKey;
                const target = targetKey === undefined ? undefined : registry.models.get(targetKey);
                if (target && record[name] !== undefined && record[name] !== null) stack.push([target, nested, record[name]]);
            }
        }
    }
}
