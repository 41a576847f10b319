import { hasOwn, isObject } from './guards';
import type { ModelDef } from './model-registry';

/**
 * Field-level read overrides (`salary Int @allow('read', condition, true)`) make a field readable on rows the
 * model's read rule hides. ZenStack 2.x applies them to a filter too: when every condition of a `where` is on
 * such fields, the row matches when those fields are readable, whatever the model's read rule says. A
 * `findMany` then checks each row it reads and drops the hidden ones, but `count`, `aggregate` and `groupBy`
 * answer from the rows matched: `groupBy({ by: ['name'], where: { salary: { gt: 0 } } })` listed the name of
 * every employee, `_max` of any field read it from rows the user may not read, and the JSON:API `meta.total`
 * counted records its pages never show.
 *
 * An empty `AND` (always true) beside the conditions keeps the model's rule: ZenStack finds no override for it,
 * so the filter no longer consists of overridden fields only. A filter that has an `AND` already needs none.
 */
export function keepModelReadRule(model: ModelDef, where: unknown): unknown {
    if (!model.hasReadOverrides || !isObject(where) || hasOwn(where, 'AND')) return where;
    return { ...where, AND: [] };
}
