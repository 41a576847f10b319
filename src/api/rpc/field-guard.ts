import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import { uniqueConstraint, type ModelDef, type ModelRegistry, type ScalarField } from '../common/model-registry';
import { checkWhere, each, LOGICAL, reject, target, type Walk } from '../common/filter-guard';
import type { Args } from './input';
import { guardWriteFilters, SINGLE_RECORD_WRITES } from './write-filters';

/**
 * Keeps RPC arguments from revealing fields the user may not read. ZenStack guards some filters on fields
 * with field-level read rules and through relations (`common/filter-guard.ts` says which), but not ordering,
 * cursors, `distinct`, aggregates or grouping by them, nor filters on `@omit` fields: each of those would
 * disclose values (an order, a sum, a group key, a yes/no answer) of rows whose field the user cannot read.
 * Such arguments are rejected with a 400. The filters of single-record and nested writes, which ZenStack does
 * not guard at all, are checked by `write-filters.ts`.
 */

const AGGREGATES = ['_sum', '_avg', '_min', '_max', '_count'];

/** Ordering by a protected field (directly or through to-one relations) reveals its order. */
function checkOrderBy(w: Walk, orderBy: unknown): void {
    each(orderBy, (entry) => {
        if (!isObject(entry)) return;
        for (const [key, value] of Object.entries(entry)) {
            if (key === '_relevance' && isObject(value)) {
                each(value.fields, (f) => typeof f === 'string' && checkScalar(w, f, 'ordering'));
                continue;
            }
            if (AGGREGATES.includes(key)) {
                // groupBy: `{ _max: { field: 'desc' } }` orders the groups by the aggregate of a field
                checkFieldSet(w, value, 'ordering');
                continue;
            }
            const field = w.model.fields.get(key);
            if (!field) continue;
            if ('targetKey' in field) {
                if (field.readProtected) reject(w.model, key, 'ordering');
                const next = target(w, field);
                if (next && field.isArray) checkCountOrder(w.model, key, next.model);
                if (next && !field.isArray) checkOrderBy(next, value);
            } else if ((field as ScalarField).readProtected) {
                reject(w.model, key, 'ordering');
            }
        }
    });
}

/**
 * Ordering by a to-many relation (`{ posts: { _count: 'desc' } }`) counts every related row: ZenStack
 * filters a `_count` selection by the policy, but not this order, which would rank records by how many
 * rows they have that the user may not read. Allowed only when everyone may read every row of the target.
 */
function checkCountOrder(model: ModelDef, relation: string, targetModel: ModelDef): void {
    if (!targetModel.readableByAll) {
        throw new BadRequestError(
            `ordering by the count of "${relation}" of ${model.name} is not supported: it would count ${targetModel.name} rows the user may not read`,
        );
    }
}

function checkScalar(w: Walk, name: string, use: string): void {
    const field = w.model.scalars.get(name);
    if (field?.readProtected) reject(w.model, name, use);
}

function checkFieldSet(w: Walk, value: unknown, use: string): void {
    if (isObject(value)) {
        for (const [name, on] of Object.entries(value)) if (on) checkScalar(w, name, use);
    }
}

/**
 * `_count` of relations: ZenStack counts the related rows the user may read, but ignores a field-level read
 * rule on the relation itself, which `include` honours; a count through such a relation is refused like
 * any aggregate of a protected field (`_count: true` counts every to-many relation).
 */
function checkRelationCounts(w: Walk, value: unknown): void {
    if (value === true) {
        const hidden = [...w.model.relations.values()].find((r) => r.isArray && r.readProtected);
        if (hidden) reject(w.model, hidden.name, 'counting');
        return;
    }
    if (!isObject(value) || !isObject(value.select)) return;
    for (const [relName, relArgs] of Object.entries(value.select)) {
        const rel = w.model.relations.get(relName);
        if (!rel || !relArgs) continue;
        if (rel.readProtected) reject(w.model, relName, 'counting');
        const next = target(w, rel);
        if (next && isObject(relArgs)) checkWhere(next, relArgs.where);
    }
}

/** Nested reads in `include`/`select` carry their own where/orderBy/cursor/distinct. */
function checkNested(w: Walk, shape: unknown): void {
    if (!isObject(shape)) return;
    for (const [key, value] of Object.entries(shape)) {
        if (key === '_count') {
            checkRelationCounts(w, value);
            continue;
        }
        const rel = w.model.relations.get(key);
        const next = rel && target(w, rel);
        if (next && isObject(value)) checkReadArgs(next, value);
    }
}

/**
 * A cursor names a record by a unique key, which ZenStack does not guard: whether the page starts (a cursor
 * that matches nothing gives an empty page) would tell whether a guess of a protected value is right, for a
 * protected field and for a compound key (`name_salary`) with one.
 */
function checkCursor(w: Walk, cursor: unknown): void {
    if (!isObject(cursor)) return;
    for (const key of Object.keys(cursor)) {
        const constraint = uniqueConstraint(w.model, key);
        const fields = constraint && constraint.fields.length > 1 ? constraint.fields : [key];
        fields.forEach((name) => checkScalar(w, name, 'a cursor'));
    }
}

function checkReadArgs(w: Walk, args: Record<string, unknown>, where = true): void {
    if (where) checkWhere(w, args.where);
    checkOrderBy(w, args.orderBy);
    checkCursor(w, args.cursor);
    each(args.distinct, (d) => typeof d === 'string' && checkScalar(w, d, 'distinct'));
    checkNested(w, args.include);
    checkNested(w, args.select);
}

/** `having` conditions on a protected field (at any depth of AND/OR/NOT) reveal its aggregates. */
function checkHaving(w: Walk, having: unknown): void {
    if (!isObject(having)) return;
    for (const [key, value] of Object.entries(having)) {
        if (LOGICAL.has(key)) each(value, (item) => checkHaving(w, item));
        else checkScalar(w, key, 'grouping conditions');
    }
}

/**
 * Whether any field of the schema is read-protected or omitted, or a relation leads to rows not everyone
 * reads (cached per registry): without one, no argument can be refused.
 */
const guardedRegistries = new WeakMap<ModelRegistry, boolean>();

function anythingToGuard(registry: ModelRegistry): boolean {
    let found = guardedRegistries.get(registry);
    if (found === undefined) {
        found = false;
        for (const model of registry.models.values()) {
            for (const field of model.fields.values()) {
                if (field.readProtected || ('omitted' in field && field.omitted)) found = true;
                // a relation to rows not everyone reads: filtering through it under AND/OR/NOT or in a write's
                // filter is refused, and so is ordering by its count (to-many)
                if ('targetKey' in field && !registry.models.get(field.targetKey)?.readableByAll) found = true;
            }
        }
        guardedRegistries.set(registry, found);
    }
    return found;
}

/** Checks one call's arguments against the model's protected fields; throws a BadRequestError. */
export function guardProtectedFields(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): void {
    if (!anythingToGuard(registry)) return;
    const w: Walk = { registry, model };
    // a single-record write's `where` is a write's filter (write-filters.ts), which ZenStack does not guard at all
    checkReadArgs(w, args, !SINGLE_RECORD_WRITES.has(opName));
    for (const agg of AGGREGATES) {
        checkFieldSet(w, args[agg], 'aggregation');
    }
    if (opName === 'count' && isObject(args.select)) {
        checkFieldSet(w, args.select, 'counting');
    }
    if (opName === 'groupBy') {
        each(args.by, (b) => typeof b === 'string' && checkScalar(w, b, 'grouping'));
        checkHaving(w, args.having);
    }
    guardWriteFilters(w, opName, args);
}
