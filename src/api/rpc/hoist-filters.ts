import { hoistConjunctions, hoistNegations, relationFilterForms } from '../common/filter-guard';
import { hasOwn, isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { SINGLE_RECORD_WRITES } from './write-filters';

/**
 * `AND` members and negated to-many relation filters moved to where ZenStack guards them (`common/filter-guard.ts`),
 * at every place it guards a filter: the top of a read's `where` (and of `updateMany`/`deleteMany`), each relation
 * filter reached from there, the `where` of every nested read (`include`/`select` at any depth) and of each
 * relation count (`_count: { select: { posts: { where } } }`). The same filter each time, so
 * `posts: { where: { AND: [{ author: { email } }] } }` runs as `posts: { where: { author: { email } } }`, guarded,
 * instead of being refused under `AND`. Not the `where` of a single-record write, which ZenStack guards nowhere.
 * Rewritten along the changed paths only: unchanged parts are shared with the caller's arguments.
 */

type Data = Record<string, unknown>;

/** `obj` with `key` set to `value`: a copy made on the first change (`copy.out`). */
function put(copy: { out?: Data }, obj: Data, key: string, value: unknown): void {
    if (value === obj[key]) return;
    copy.out ??= { ...obj };
    copy.out[key] = value;
}

/** A filter of `model` with the moves above made here and in every relation filter reached from it. */
export function hoistFilter(registry: ModelRegistry, model: ModelDef, where: unknown): unknown {
    if (!isObject(where)) return where;
    const top = hoistNegations(hoistConjunctions(where), (key) => model.relations.get(key)?.isArray === true);
    const copy: { out?: Data } = {};
    for (const [key, value] of Object.entries(top)) {
        const rel = model.relations.get(key);
        const target = rel && registry.models.get(rel.targetKey);
        if (!target || !isObject(value)) continue;
        const { ops } = relationFilterForms(rel, target, value);
        if (ops.length === 0) {
            // a to-one relation's own conditions (`author: { email }`)
            put(copy, top, key, rel.isArray ? value : hoistFilter(registry, target, value));
            continue;
        }
        const inner: { out?: Data } = {};
        for (const op of ops) put(inner, value, op, hoistFilter(registry, target, value[op]));
        if (inner.out) put(copy, top, key, inner.out);
    }
    return copy.out ?? top;
}

/** `_count: { select: { rel: { where } } }` of `model`, its filters hoisted. */
function hoistCounts(registry: ModelRegistry, model: ModelDef, count: Data): Data {
    if (!isObject(count.select)) return count;
    const select = count.select;
    const copy: { out?: Data } = {};
    for (const [key, value] of Object.entries(select)) {
        const rel = model.relations.get(key);
        const target = rel && registry.models.get(rel.targetKey);
        if (!target || !isObject(value) || !hasOwn(value, 'where')) continue;
        const where = hoistFilter(registry, target, value.where);
        if (where !== value.where) put(copy, select, key, { ...value, where });
    }
    return copy.out ? { ...count, select: copy.out } : count;
}

/** An `include`/`select` of `model`: each nested read's filter and shape, and its relation counts. */
function hoistShape(registry: ModelRegistry, model: ModelDef, shape: unknown): unknown {
    if (!isObject(shape)) return shape;
    const copy: { out?: Data } = {};
    for (const [key, value] of Object.entries(shape)) {
        if (!isObject(value)) continue;
        if (key === '_count') {
            put(copy, shape, key, hoistCounts(registry, model, value));
            continue;
        }
        const rel = model.relations.get(key);
        const target = rel && registry.models.get(rel.targetKey);
        if (target) put(copy, shape, key, hoistRead(registry, target, value, true));
    }
    return copy.out ?? shape;
}

function hoistRead(registry: ModelRegistry, model: ModelDef, args: Data, withWhere: boolean): Data {
    const copy: { out?: Data } = {};
    if (withWhere && hasOwn(args, 'where')) put(copy, args, 'where', hoistFilter(registry, model, args.where));
    for (const key of ['include', 'select']) if (hasOwn(args, key)) put(copy, args, key, hoistShape(registry, model, args[key]));
    return copy.out ?? args;
}

/** One call's arguments with the filters above moved (the same object when nothing moves). */
export function hoistGuardedFilters(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): Args {
    return hoistRead(registry, model, args, !SINGLE_RECORD_WRITES.has(opName)) as Args;
}
