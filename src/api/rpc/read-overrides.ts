import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import { keepModelReadRule } from '../common/read-override';
import type { Args } from './input';

/**
 * Filters made only of fields with a read override, which ZenStack matches on rows the model's read rule hides
 * (`common/read-override.ts`), where the answer would show those rows:
 * - a nested read (`include: { emps: { where: { salary: { gt: 0 } } } }`): ZenStack returned the hidden
 *   related records whole; a top-level read drops them itself;
 * - a `count`, `aggregate` or `groupBy` that answers more than numbers of rows: a group key,
 *   `_min`/`_max`/`_sum`/`_avg`, `_count` of a field. A number of rows alone is left as ZenStack answers it:
 *   the rows whose overridden fields the user may read, which a read selecting only them lists too.
 * Those filters keep the model's read rule.
 */

const VALUE_AGGREGATES = ['_min', '_max', '_sum', '_avg'];

/** Whether the call answers anything beyond numbers of rows (`_count: true`, `_count: { _all: true }`). */
function readsValues(opName: string, args: Args): boolean {
    if (opName === 'groupBy') return true;
    const counts = opName === 'count' ? args.select : args._count;
    if (isObject(counts) && Object.entries(counts).some(([name, on]) => on && name !== '_all')) return true;
    return opName === 'aggregate' && VALUE_AGGREGATES.some((agg) => isObject(args[agg]));
}

/** The `include`/`select` of `model` with each nested read's filter kept to the model's read rule; `shape` itself when nothing changes. */
function keepNested(registry: ModelRegistry, model: ModelDef, shape: unknown): unknown {
    if (!isObject(shape)) return shape;
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(shape)) {
        const rel = model.relations.get(key);
        const target = rel && registry.models.get(rel.targetKey);
        if (!target || !isObject(value)) continue;
        const next = keepReads(registry, target, value);
        if (next !== value) (out ??= { ...shape })[key] = next;
    }
    return out ?? shape;
}

function keepReads(registry: ModelRegistry, model: ModelDef, args: Record<string, unknown>): Record<string, unknown> {
    const where = keepModelReadRule(model, args.where);
    const include = keepNested(registry, model, args.include);
    const select = keepNested(registry, model, args.select);
    if (where === args.where && include === args.include && select === args.select) return args;
    const out = { ...args, include, select, where };
    for (const key of ['include', 'select', 'where'] as const) if (args[key] === undefined) delete out[key];
    return out;
}

/** `args` with the filters above kept to the model's read rule; `args` itself when nothing changes. */
export function keepHiddenRowsOut(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): Args {
    // most schemas have no read override: nothing to walk
    if (!registry.hasReadOverrides) return args;
    let out = args;
    const include = keepNested(registry, model, args.include);
    const select = keepNested(registry, model, args.select);
    if (include !== args.include || select !== args.select) {
        out = { ...args };
        if (include !== undefined) out.include = include;
        if (select !== undefined) out.select = select;
    }
    if (model.hasReadOverrides && ['count', 'aggregate', 'groupBy'].includes(opName) && readsValues(opName, args)) {
        const where = keepModelReadRule(model, args.where);
        if (where !== args.where) out = { ...out, where };
    }
    return out;
}
