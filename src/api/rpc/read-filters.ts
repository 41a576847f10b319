import { hasOwn, isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';

/**
 * The places of a call's arguments where a read filter sits, for the passes that rewrite filters there
 * (hoist-filters.ts, empty-conditions.ts): the `where` of the call itself, of every nested read (`include`/`select`
 * at any depth) and of each relation count (`_count: { select: { posts: { where } } }`). Copied along the changed
 * paths only: unchanged parts are shared with the caller's arguments.
 */

type Data = Record<string, unknown>;

/** Rewrites the filter `where` of `model` (an object), returning it unchanged when there is nothing to do. */
export type FilterPass = (model: ModelDef, where: Data) => unknown;

/** `obj` with `key` set to `value` (or removed, for `undefined`): a copy made on the first change (`copy.out`). */
export function put(copy: { out?: Data }, obj: Data, key: string, value: unknown): void {
    if (value === obj[key]) return;
    copy.out ??= { ...obj };
    if (value === undefined) delete copy.out[key];
    else copy.out[key] = value;
}

/** `_count: { select: { rel: { where } } }` of `model`, its filters passed through `pass`. */
function counts(registry: ModelRegistry, model: ModelDef, count: Data, pass: FilterPass): Data {
    if (!isObject(count.select)) return count;
    const select = count.select;
    const copy: { out?: Data } = {};
    for (const key in select) {
        const value = select[key];
        const rel = hasOwn(select, key) ? model.relations.get(key) : undefined;
        const target = rel && registry.models.get(rel.targetKey);
        if (!target || !isObject(value) || !isObject(value.where)) continue;
        const where = pass(target, value.where);
        if (where !== value.where) put(copy, select, key, { ...value, where });
    }
    return copy.out ? { ...count, select: copy.out } : count;
}

/** An `include`/`select` of `model`: each nested read's filter and shape, and its relation counts. */
function shape(registry: ModelRegistry, model: ModelDef, value: Data, pass: FilterPass): Data {
    const copy: { out?: Data } = {};
    for (const key in value) {
        const item = value[key];
        if (!hasOwn(value, key) || !isObject(item)) continue;
        if (key === '_count') {
            put(copy, value, key, counts(registry, model, item, pass));
            continue;
        }
        const rel = model.relations.get(key);
        const target = rel && registry.models.get(rel.targetKey);
        if (target) put(copy, value, key, mapReadFilters(registry, target, item, pass));
    }
    return copy.out ?? value;
}

/**
 * `args` (of a call on `model`, or of a nested read) with every read filter passed through `pass`; `withWhere` false
 * leaves the call's own `where` out (that of a single-record write, which is no read filter).
 */
export function mapReadFilters(registry: ModelRegistry, model: ModelDef, args: Data, pass: FilterPass, withWhere = true): Data {
    const copy: { out?: Data } = {};
    if (withWhere && isObject(args.where)) put(copy, args, 'where', pass(model, args.where));
    for (const key of ['include', 'select']) if (isObject(args[key])) put(copy, args, key, shape(registry, model, args[key] as Data, pass));
    return copy.out ?? args;
}
