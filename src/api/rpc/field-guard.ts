import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry, RelationField, ScalarField } from '../common/model-registry';
import type { Args } from './input';

/**
 * Keeps RPC arguments from revealing fields the user may not read. ZenStack guards filters on fields
 * with field-level read rules, but not ordering, cursors, `distinct`, aggregates or grouping by them,
 * nor filters on `@omit` fields: each of those would disclose values (an order, a sum, a group key, a
 * yes/no answer) of rows whose field the user cannot read. Such arguments are rejected with a 400.
 */

const AGGREGATES = ['_sum', '_avg', '_min', '_max', '_count'];
const LOGICAL = new Set(['AND', 'OR', 'NOT']);
const RELATION_FILTERS = new Set(['is', 'isNot', 'some', 'every', 'none']);

type Walk = { registry: ModelRegistry; model: ModelDef };

function reject(model: ModelDef, field: string, use: string): never {
    throw new BadRequestError(`field "${field}" of ${model.name} cannot be used for ${use}: reading it is restricted by the access policy`);
}

function target(w: Walk, rel: RelationField): Walk | undefined {
    const model = w.registry.models.get(rel.targetKey);
    return model ? { registry: w.registry, model } : undefined;
}


function each(v: unknown, fn: (item: unknown) => void): void {
    if (Array.isArray(v)) v.forEach(fn);
    else fn(v);
}

/** Filters: `@omit` fields are not guarded by ZenStack, so filtering by them is refused at any depth. */
function checkWhere(w: Walk, where: unknown): void {
    if (!isObject(where)) return;
    for (const [key, value] of Object.entries(where)) {
        if (LOGICAL.has(key)) {
            each(value, (item) => checkWhere(w, item));
            continue;
        }
        const field = w.model.fields.get(key);
        if (!field) continue;
        if ('targetKey' in field) {
            const next = target(w, field);
            if (!next || !isObject(value)) continue;
            const filterKeys = Object.keys(value).filter((k) => RELATION_FILTERS.has(k));
            if (filterKeys.length > 0) filterKeys.forEach((k) => checkWhere(next, value[k]));
            else checkWhere(next, value);
        } else if ((field as ScalarField).omitted) {
            reject(w.model, key, 'filtering');
        }
    }
}

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
                if (next && !field.isArray) checkOrderBy(next, value);
            } else if ((field as ScalarField).readProtected) {
                reject(w.model, key, 'ordering');
            }
        }
    });
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

/** Nested reads in `include`/`select` carry their own where/orderBy/cursor/distinct. */
function checkNested(w: Walk, shape: unknown): void {
    if (!isObject(shape)) return;
    for (const [key, value] of Object.entries(shape)) {
        if (key === '_count') {
            if (isObject(value) && isObject(value.select)) {
                for (const [relName, relArgs] of Object.entries(value.select)) {
                    const rel = w.model.relations.get(relName);
                    const next = rel && target(w, rel);
                    if (next && isObject(relArgs)) checkWhere(next, relArgs.where);
                }
            }
            continue;
        }
        const rel = w.model.relations.get(key);
        const next = rel && target(w, rel);
        if (next && isObject(value)) checkReadArgs(next, value);
    }
}

function checkReadArgs(w: Walk, args: Record<string, unknown>): void {
    checkWhere(w, args.where);
    checkOrderBy(w, args.orderBy);
    checkFieldSet(w, args.cursor, 'a cursor');
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

/** Whether any field of the schema is read-protected or omitted (cached per registry): without one, no argument can be refused. */
const guardedRegistries = new WeakMap<ModelRegistry, boolean>();

function hasProtectedFields(registry: ModelRegistry): boolean {
    let found = guardedRegistries.get(registry);
    if (found === undefined) {
        found = false;
        for (const model of registry.models.values()) {
            for (const field of model.fields.values()) {
                if (field.readProtected || ('omitted' in field && field.omitted)) found = true;
            }
        }
        guardedRegistries.set(registry, found);
    }
    return found;
}

/** Checks one call's arguments against the model's protected fields; throws a BadRequestError. */
export function guardProtectedFields(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): void {
    if (!hasProtectedFields(registry)) return;
    const w: Walk = { registry, model };
    checkReadArgs(w, args);
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
    // nested writes carry filters too (connect/update/delete … where)
    if (args.data !== undefined || args.create !== undefined || args.update !== undefined) {
        guardNestedWriteFilters(w, args.data);
        guardNestedWriteFilters(w, args.create);
        guardNestedWriteFilters(w, args.update);
    }
}

const NESTED_WRITE_WHERE = new Set(['connect', 'disconnect', 'delete', 'set', 'update', 'updateMany', 'deleteMany', 'upsert', 'connectOrCreate']);

function guardNestedWriteFilters(w: Walk, data: unknown): void {
    each(data, (item) => {
        if (!isObject(item)) return;
        for (const [key, value] of Object.entries(item)) {
            const rel = w.model.relations.get(key);
            const next = rel && target(w, rel);
            if (!next || !isObject(value)) continue;
            for (const [action, payload] of Object.entries(value)) {
                if (!NESTED_WRITE_WHERE.has(action)) continue;
                each(payload, (p) => {
                    if (!isObject(p)) return;
                    checkWhere(next, 'where' in p ? p.where : p);
                    guardNestedWriteFilters(next, p.data ?? p.create ?? p.update);
                });
            }
        }
    });
}
