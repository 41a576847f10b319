import { hoistConjunctions, hoistNegations, relationFilterForms } from '../common/filter-guard';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { mapReadFilters, put } from './read-filters';
import { SINGLE_RECORD_WRITES } from './write-filters';

/**
 * `AND` members and negated to-many relation filters moved to where ZenStack guards them (`common/filter-guard.ts`),
 * at every place it guards a filter: the top of a read's `where` (and of `updateMany`/`deleteMany`), each relation
 * filter reached from there, the `where` of every nested read (`include`/`select` at any depth) and of each
 * relation count (`_count: { select: { posts: { where } } }`). The same filter each time, so
 * `posts: { where: { AND: [{ author: { email } }] } }` runs as `posts: { where: { author: { email } } }`, guarded,
 * instead of being refused under `AND`. Not the `where` of a single-record write, which ZenStack guards nowhere.
 * Rewritten along the changed paths only (read-filters.ts).
 */

type Data = Record<string, unknown>;

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

/** One call's arguments with the filters above moved (the same object when nothing moves). */
export function hoistGuardedFilters(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): Args {
    return mapReadFilters(registry, model, args, (m, where) => hoistFilter(registry, m, where), !SINGLE_RECORD_WRITES.has(opName)) as Args;
}
