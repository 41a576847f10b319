import { isObject, isPlainObject } from '../common/guards';
import { uniqueConstraint, type ModelDef, type ModelRegistry } from '../common/model-registry';
import { keepModelReadRule } from '../common/read-override';
import type { Args } from './input';

/**
 * Reads that ZenStack answers from rows the model's read rule hides because of fields with a read override
 * (`salary Int @allow('read', true, true)`), where the answer would show what the user may not read:
 * - a filter made only of overridden fields (`common/read-override.ts`):
 *   - in a nested read (`include: { emps: { where: { salary: { gt: 0 } } } }`), ZenStack returned the hidden
 *     related records whole; a top-level read drops them itself;
 *   - in a `count`, `aggregate` or `groupBy` that answers more than numbers of rows: a group key,
 *     `_min`/`_max`/`_sum`/`_avg`, `_count` of a field. A number of rows alone is left as ZenStack answers it:
 *     the rows whose overridden fields the user may read, which a read selecting only them lists too;
 * - a read (or `count`) selecting only overridden fields, which ZenStack runs on every row where they are readable,
 *   and whose filter, order, cursor or `distinct` uses other fields, or which selects relations beside them:
 *   `emp.findMany({ where: { name: 'alice' }, select: { salary: true } })` told a hidden employee's name, ordering
 *   by it with a cursor spelled it out letter by letter, and `select: { salary: true, dept: { select: { id: true } } }`
 *   listed hidden employees' departments. Ids are left out of this (they name the records the override shows: `findUnique` by id
 *   selecting an overridden field reads it on any row, as ZenStack means it).
 * Those reads keep the model's read rule: the filter gets an empty `AND` beside its conditions, and the selection
 * one field without an override, taken out of the result again (`dropAddedFields`).
 */

const VALUE_AGGREGATES = ['_min', '_max', '_sum', '_avg'];
/**
 * Writes by filter, whose `where` ZenStack combines with the write's rule as with a read's: `(rule && fields' read
 * rules) || their overrides`. A filter made only of overridden fields then let the overrides stand in for the
 * update or delete rule: `emp.updateMany({ where: { salary: { gt: 0 } } })` renamed, and `deleteMany` deleted, every
 * employee, whatever `@@allow('update,delete', auth().id == id)` says (2.22.3 the same). The empty `AND` keeps the
 * rule. (Nested `updateMany`/`deleteMany` filters take no field with a read rule at all: filter-guard.ts.)
 */
const FILTERED_WRITES: ReadonlySet<string> = new Set(['updateMany', 'updateManyAndReturn', 'deleteMany']);
const FINDS: ReadonlySet<string> = new Set(['findMany', 'findFirst', 'findFirstOrThrow', 'findUnique', 'findUniqueOrThrow', 'count']);

/** A field added to the selection of the read at `path` (relation names from the top), to be left out of the result. */
export interface AddedField {
    path: readonly string[];
    field: string;
}

const NONE_ADDED: readonly AddedField[] = [];

/** Whether the call answers anything beyond numbers of rows (`_count: true`, `_count: { _all: true }`). */
function readsValues(opName: string, args: Args): boolean {
    if (opName === 'groupBy') return true;
    const counts = opName === 'count' ? args.select : args._count;
    if (isObject(counts) && Object.entries(counts).some(([name, on]) => on && name !== '_all')) return true;
    return opName === 'aggregate' && VALUE_AGGREGATES.some((agg) => isObject(args[agg]));
}

/** ZenStack's test: every field the read selects (`true` in `select`; else every scalar and the relations included) has a read override. */
function selectsOnlyOverridden(model: ModelDef, select: unknown, include: unknown): boolean {
    let names: string[];
    if (isObject(select)) {
        names = Object.keys(select).filter((k) => select[k] === true && model.fields.has(k));
    } else {
        names = [...model.scalars.keys()];
        if (isObject(include)) names.push(...Object.keys(include).filter((k) => include[k] && model.relations.has(k)));
    }
    return names.length > 0 && names.every((n) => model.scalars.get(n)?.readOverride === true);
}

/**
 * A field whose values on hidden rows tell nothing the override does not show: an id field, or one overridden itself.
 * For a read selecting only overridden fields (`selected`), which ZenStack runs on the rows where all of theirs hold,
 * another overridden field is open only if its own override holds on every row: `where: { bonus: 500 }, select:
 * { salary: true }` compared a bonus its override hides from the user on rows the salary's override shows.
 */
function openField(model: ModelDef, name: string, selected?: ReadonlySet<string>): boolean {
    const field = model.scalars.get(name);
    if (!field) return false;
    if (field.isId || field.readOverrideForAll) return true;
    return field.readOverride && (selected === undefined || selected.has(name));
}

/** Whether a filter or cursor names a field that is not open (a relation, a compound key of one, …). */
function filtersByClosed(model: ModelDef, where: unknown, selected?: ReadonlySet<string>): boolean {
    if (!isObject(where)) return false;
    for (const [key, value] of Object.entries(where)) {
        if (key === 'AND' || key === 'OR' || key === 'NOT') {
            if ((Array.isArray(value) ? value : [value]).some((item) => filtersByClosed(model, item, selected))) return true;
            continue;
        }
        const fields = model.scalars.has(key) ? [key] : (uniqueConstraint(model, key)?.fields ?? [key]);
        if (!fields.every((f) => openField(model, f, selected))) return true;
    }
    return false;
}

/** Whether a selection reads relations or counts of them (`dept: { select }`, `_count`), which ZenStack's test leaves out. */
function selectsRelations(model: ModelDef, select: Record<string, unknown>): boolean {
    return Object.entries(select).some(([key, value]) => (key === '_count' && !!value) || (model.relations.has(key) && isObject(value)));
}

/** Whether the read's filter, cursor, order or `distinct` uses a field that is not open. */
function usesClosedFields(model: ModelDef, args: Record<string, unknown>, selected?: ReadonlySet<string>): boolean {
    if (filtersByClosed(model, args.where, selected) || filtersByClosed(model, args.cursor, selected)) return true;
    const orders = Array.isArray(args.orderBy) ? args.orderBy : [args.orderBy];
    if (orders.some((o) => isObject(o) && Object.keys(o).some((k) => !openField(model, k, selected)))) return true;
    const distinct = Array.isArray(args.distinct) ? args.distinct : args.distinct === undefined ? [] : [args.distinct];
    return distinct.some((d) => typeof d !== 'string' || !openField(model, d, selected));
}

/**
 * A read (top-level or nested, at `path`) that selects only overridden fields (as ZenStack counts them) and filters,
 * orders or pages by closed ones, or also selects relations (`{ salary: true, dept: { select } }`, `_count`, whose
 * values on hidden rows the override does not open): the same read under the model's read rule (see above); `args`
 * itself otherwise.
 */
function keepRuleOfSelection(model: ModelDef, args: Record<string, unknown>, path: readonly string[], added: AddedField[]): Record<string, unknown> {
    if (!model.hasReadOverrides || !isObject(args.select) || !selectsOnlyOverridden(model, args.select, args.include)) return args;
    const select = args.select;
    const selected = new Set(Object.keys(select).filter((k) => select[k] === true));
    if (!usesClosedFields(model, args, selected) && !selectsRelations(model, select)) return args;
    const extra = model.idFields.find((f) => !f.readOverride) ?? [...model.scalars.values()].find((f) => !f.readOverride && !f.omitted);
    if (!extra) return args;
    added.push({ path, field: extra.name });
    const out: Record<string, unknown> = { ...args, select: { ...args.select, [extra.name]: true } };
    if (args.where !== undefined) out.where = keepModelReadRule(model, args.where);
    return out;
}

/** The `include`/`select` of `model` with each nested read kept to the model's read rule as above; `shape` itself when nothing changes. */
function keepNested(registry: ModelRegistry, model: ModelDef, shape: unknown, path: readonly string[], added: AddedField[]): unknown {
    if (!isObject(shape)) return shape;
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(shape)) {
        const rel = model.relations.get(key);
        const target = rel && registry.models.get(rel.targetKey);
        if (!target || !isObject(value)) continue;
        const next = keepReads(registry, target, value, [...path, key], added);
        if (next !== value) (out ??= { ...shape })[key] = next;
    }
    return out ?? shape;
}

function keepReads(registry: ModelRegistry, model: ModelDef, args: Record<string, unknown>, path: readonly string[], added: AddedField[]): Record<string, unknown> {
    const kept = keepRuleOfSelection(model, args, path, added);
    const where = keepModelReadRule(model, kept.where);
    const include = keepNested(registry, model, kept.include, path, added);
    const select = keepNested(registry, model, kept.select, path, added);
    if (where === kept.where && include === kept.include && select === kept.select) return kept;
    const out = { ...kept, include, select, where };
    for (const key of ['include', 'select', 'where'] as const) if (kept[key] === undefined) delete out[key];
    return out;
}

/** `args` with the reads above kept to the model's read rule (`args` itself when nothing changes), and the fields added to selections. */
export function keepHiddenRowsOut(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): { args: Args; added: readonly AddedField[] } {
    // most schemas have no read override: nothing to walk
    if (!registry.hasReadOverrides) return { args, added: NONE_ADDED };
    const added: AddedField[] = [];
    let out = FINDS.has(opName) ? (keepRuleOfSelection(model, args, [], added) as Args) : args;
    const include = keepNested(registry, model, out.include, [], added);
    const select = keepNested(registry, model, out.select, [], added);
    if (include !== out.include || select !== out.select) {
        out = { ...out };
        if (include !== undefined) out.include = include;
        if (select !== undefined) out.select = select;
    }
    const keepsRule = (['count', 'aggregate', 'groupBy'].includes(opName) && (readsValues(opName, args) || usesClosedFields(model, args))) || FILTERED_WRITES.has(opName);
    if (model.hasReadOverrides && keepsRule) {
        const where = keepModelReadRule(model, out.where);
        if (where !== out.where) out = { ...out, where };
    }
    return { args: out, added };
}

/** Takes the fields `keepHiddenRowsOut` added to selections out of a read's result. */
export function dropAddedFields(result: unknown, added: readonly AddedField[]): void {
    for (const { path, field } of added) dropAt(result, path, field);
}

function dropAt(value: unknown, path: readonly string[], field: string): void {
    for (const record of Array.isArray(value) ? value : [value]) {
        if (!isPlainObject(record)) continue;
        if (path.length === 0) delete record[field];
        else dropAt(record[path[0]], path.slice(1), field);
    }
}
