import { isObject } from '../common/guards';
import { uniqueConstraint, type ModelDef, type ModelRegistry, type RelationField, type ScalarField, type ScalarKind } from '../common/model-registry';
import { checkAggregates, checkHaving } from './arg-aggregates';
import { checkBigInts, checkDecimals, checkDivisor, checkFinite, checkIntegers, checkPaging, MAX_DECIMAL_EXPANSION, type DecimalBudget } from './arg-numbers';
import { fail, LOGICAL, objects } from './arg-walk';
import { isPlainObject } from '../common/guards';
import { notStorableAsJson } from '../common/json-storable';
import type { Args, JsonNullSlot } from './input';
import { JsonNullIndex } from './json-null-index';
import { isToOneLongForm } from './write-walk';
import { discriminatorsOf } from '../common/delegate-writes';
import { checkFieldRefs } from './field-refs';

/**
 * The object structure Prisma requires of filters and writes, checked against the model before the
 * client runs, for the requests zod does not validate (no `zodSchemas`). ZenStack's policy layer
 * dereferences these values before Prisma validates them: a malformed one either crashes it (a 500,
 * e.g. `where: { author: 5 }` or `data: [null]`) or, worse, is dropped, so that `deleteMany` with
 * `where: 5` deletes every row the user may delete. Values of scalar fields are left to Prisma, except
 * the numbers it would silently change (arg-numbers.ts).
 */

/** `nulls`: the places of the arguments' Json null markers (still their names, `"DbNull"` …, during the walk). */
type Ctx = { registry: ModelRegistry; decimals: DecimalBudget; nulls: JsonNullIndex };

const NO_NULLS = new JsonNullIndex([]);

/**
 * A Json null marker stands for a whole Json value (a field's, or a filter's operand); one inside a value was
 * written by Prisma as its name, so that `{ a: <DbNull> }` stored `{ "a": "DbNull" }` and matched rows holding it.
 */
function noMarkerInside(c: Ctx, at: string): void {
    const inside = c.nulls.under(at).find((slot) => slot.path !== at);
    if (inside) fail(inside.path, 'no Json null marker (DbNull, JsonNull, AnyNull): one stands for a whole Json value, not a value inside one');
}

/** Arguments walked with the model below (filters and writes, where Json values may hold empty keys). */
const MODEL_WALKED = new Set(['where', 'data', 'create', 'update']);
const TO_ONE_FILTERS = ['is', 'isNot'];
const TO_MANY_FILTERS = ['some', 'every', 'none'];

/**
 * Prisma's validator crashes on an empty key in an argument object ("unexpected empty path", a 500), in
 * filters, shapes, orderings and writes alike; only Json values may hold one. Walks `value` (iteratively:
 * its depth is the client's) and refuses any; with `skipWhere`, nested `where`s are left to checkWhere.
 */
function noEmptyKeys(value: unknown, path: string, skipWhere = false): void {
    const stack: Array<[unknown, string]> = [[value, path]];
    while (stack.length > 0) {
        const [v, at] = stack.pop()!;
        if (Array.isArray(v)) {
            // only what can hold keys: an `in` list of 500,000 values costs nothing per value
            for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) stack.push([v[i], `${at}.${i}`]);
        } else if (isPlainObject(v)) {
            // typed values (Date, Decimal, Buffer …) have no keys of their own to check
            for (const [key, item] of Object.entries(v)) {
                if (key === '') fail(at, 'free of empty keys');
                if (!(skipWhere && key === 'where')) stack.push([item, `${at}.${key}`]);
            }
        }
    }
}

const JSON_COMPARISONS = ['lt', 'lte', 'gt', 'gte'];

/**
 * A Json filter's operands are values, left alone, except those of comparisons: on PostgreSQL Prisma's
 * query compiler panics on any but a string or a number, which disconnects the whole client (every
 * request's open transaction fails).
 */
function checkJsonFilter(c: Ctx, value: Record<string, unknown>, at: string): void {
    for (const key of Object.keys(value)) {
        if (key === '') fail(at, 'free of empty keys');
        noMarkerInside(c, `${at}.${key}`);
    }
    for (const op of JSON_COMPARISONS) {
        const operand = value[op];
        if (operand !== undefined && typeof operand !== 'string' && !(typeof operand === 'number' && Number.isFinite(operand))) {
            fail(`${at}.${op}`, 'a string or a number (JSON values compare only as those)');
        }
    }
}

/** A scalar field's filter or update operation. */
function checkScalarArg(c: Ctx, field: ScalarField, value: unknown, at: string): void {
    if (field.kind === 'Int') checkIntegers(value, at);
    else if (field.kind === 'BigInt') checkBigInts(value, at);
    else if (field.kind === 'Float') checkFinite(value, at);
    else if (field.kind === 'Decimal') checkDecimals(value, at, c.decimals);
    if (!isPlainObject(value)) return;
    if (field.kind !== 'Json') return noEmptyKeys(value, at);
    checkJsonFilter(c, value, at);
}

function targetOf(c: Ctx, rel: RelationField): ModelDef | undefined {
    return c.registry.models.get(rel.targetKey);
}

function checkWhere(c: Ctx, model: ModelDef, where: unknown, path: string): void {
    if (!isObject(where)) fail(path, 'an object');
    for (const [key, value] of Object.entries(where)) {
        const at = `${path}.${key}`;
        if (key === '') fail(path, 'free of empty keys');
        if (LOGICAL.has(key)) {
            objects(value, at, (item, p) => checkWhere(c, model, item, p));
            continue;
        }
        const rel = model.relations.get(key);
        const target = rel && targetOf(c, rel);
        if (!rel || !target) {
            const scalar = model.scalars.get(key);
            if (scalar) {
                checkScalarArg(c, scalar, value, at);
                checkFieldRefs(model, value, at);
                continue;
            }
            const compound = uniqueConstraint(model, key);
            // ZenStack looks a write filter's keys up on plain objects: `constructor` there crashed it (a 500)
            if (!compound && key in Object.prototype) fail(at, `absent: ${model.name} has no field "${key}"`);
            noEmptyKeys(value, at); // compound unique keys (`a_b: { a, b }`), or unknown: Prisma reports those
            if (compound && isObject(value)) {
                for (const name of compound.fields) {
                    const field = model.scalars.get(name);
                    if (field) checkScalarArg(c, field, value[name], `${at}.${name}`);
                    checkFieldRefs(model, value[name], `${at}.${name}`);
                }
            }
            continue;
        }
        if (value === undefined) continue;
        if (value === null && !rel.isArray) continue; // `author: null`: has no author
        if (!isObject(value)) fail(at, 'a relation filter object');
        const filters = rel.isArray ? TO_MANY_FILTERS : TO_ONE_FILTERS;
        const used = filters.filter((f) => value[f] !== undefined);
        if (used.length === 0 && !rel.isArray) {
            checkWhere(c, target, value, at); // the shorthand of `is`
            continue;
        }
        for (const f of used) {
            if (value[f] === null && !rel.isArray) continue;
            checkWhere(c, target, value[f], `${at}.${f}`);
        }
    }
}

/**
 * `_count` in `select`/`include`: `true`, `false` or `{ select: { <to-many relation>: true | { where } } }`.
 * ZenStack crashed (a 500) on a `_count` without `select` or naming other fields, and on any `_count`
 * (even `false`) of a model without a to-many relation.
 */
function checkCountSelection(model: ModelDef, count: unknown, at: string): void {
    if (!model.hasToMany) fail(at, `absent: ${model.name} has no to-many relation to count`);
    if (typeof count === 'boolean') return;
    if (!isObject(count)) fail(at, 'true, false or { select }');
    for (const key of Object.keys(count)) if (key !== 'select') fail(`${at}.${key}`, 'absent: "_count" takes only "select"');
    const select = count.select;
    if (!isObject(select)) fail(`${at}.select`, 'an object naming to-many relations');
    for (const [name, on] of Object.entries(select)) {
        if (!model.relations.get(name)?.isArray) fail(`${at}.select.${name}`, `a to-many relation of ${model.name}`);
        if (typeof on === 'boolean') continue;
        if (!isObject(on) || Object.keys(on).some((k) => k !== 'where')) fail(`${at}.select.${name}`, 'true, false or { where }');
    }
}

/**
 * `distinct` and `by` name fields of the model: a list of more names than it has scalar fields repeats one. Prisma
 * compares every row on every name listed: a 1 MiB `distinct` of one name repeated 116,000 times made it hold 1.2 GB.
 */
function checkFieldList(model: ModelDef, list: unknown, path: string): void {
    if (Array.isArray(list) && list.length > model.scalars.size) fail(path, `a list of at most ${model.scalars.size} field names (the scalar fields of ${model.name}, each once)`);
}

/** `where` of nested reads in `select`/`include` (and of `_count: { select: { rel: { where } } }`). */
function checkNestedReads(c: Ctx, model: ModelDef, shape: unknown, path: string): void {
    if (!isObject(shape)) return; // the shape itself is checked by checkSelectShape
    for (const [key, value] of Object.entries(shape)) {
        if (key === '_count' && value !== undefined) {
            checkCountSelection(model, value, `${path}._count`);
            if (isObject(value)) checkNestedReads(c, model, value.select, `${path}._count.select`);
            continue;
        }
        if (!isObject(value)) continue;
        const rel = model.relations.get(key);
        const target = rel && targetOf(c, rel);
        if (!target) continue;
        if (value.where !== undefined) checkWhere(c, target, value.where, `${path}.${key}.where`);
        if (value.cursor !== undefined) checkWhere(c, target, value.cursor, `${path}.${key}.cursor`);
        checkPaging(value, `${path}.${key}`);
        checkFieldList(target, value.distinct, `${path}.${key}.distinct`);
        checkNestedReads(c, target, value.select, `${path}.${key}.select`);
        checkNestedReads(c, target, value.include, `${path}.${key}.include`);
    }
}

/** The nested writes of one relation field in `data`. */
function checkRelationWrite(c: Ctx, rel: RelationField, target: ModelDef, ops: unknown, path: string): void {
    if (!isObject(ops)) fail(path, 'an object of nested writes');
    const many = rel.isArray;
    for (const [op, value] of Object.entries(ops)) {
        if (value === undefined) continue;
        const at = `${path}.${op}`;
        const where = (v: unknown, p: string) => checkWhere(c, target, v, p);
        switch (op) {
            case 'create':
                objects(value, at, (item, p) => checkData(c, target, item, p));
                break;
            case 'createMany':
                if (!isObject(value)) fail(at, 'an object');
                objects(value.data, `${at}.data`, (item, p) => checkManyRow(c, target, item, p));
                break;
            case 'connect':
            case 'set':
            case 'deleteMany':
                objects(value, at, where);
                break;
            case 'disconnect':
            case 'delete':
                if (!many && typeof value === 'boolean') break;
                objects(value, at, where);
                break;
            case 'connectOrCreate':
                objects(value, at, (item, p) => {
                    where(item.where, `${p}.where`);
                    checkData(c, target, item.create, `${p}.create`);
                });
                break;
            case 'update':
                objects(value, at, (item, p) => {
                    // to-many: `{ where, data }`; to-one: that form, or the data itself
                    if (many || isToOneLongForm(target, item)) {
                        if (many || item.where !== undefined) where(item.where, `${p}.where`);
                        checkData(c, target, item.data, `${p}.data`);
                    } else {
                        checkData(c, target, item, p);
                    }
                });
                break;
            case 'updateMany':
                objects(value, at, (item, p) => {
                    if (item.where !== undefined) where(item.where, `${p}.where`);
                    checkData(c, target, item.data, `${p}.data`);
                });
                break;
            case 'upsert':
                objects(value, at, (item, p) => {
                    if (many || item.where !== undefined) where(item.where, `${p}.where`);
                    checkData(c, target, item.create, `${p}.create`);
                    checkData(c, target, item.update, `${p}.update`);
                });
                break;
            default:
                if (op === '') fail(path, 'free of empty keys');
                break; // unknown nested operations are Prisma's to reject
        }
    }
}

/**
 * A Json field's value in a write is data (empty keys and all), but only what a Json column stores as
 * sent: Prisma wrote NaN and ±Infinity (tagged, or a JSON number such as 1e400) as null and a Decimal as
 * a double, and answered with the changed value. A scalar list's `{ set }` or `{ push }` is walked alike.
 */
function checkJsonData(c: Ctx, value: unknown, at: string): void {
    noMarkerInside(c, at);
    const problem = notStorableAsJson(value);
    if (problem) fail(at, `a JSON value a Json column stores as sent, not one holding ${problem}`);
}

/** Field types whose updates take `increment`, `decrement`, `multiply` and `divide`. */
const NUMBER_KINDS: ReadonlySet<ScalarKind> = new Set<ScalarKind>(['Int', 'Float', 'BigInt', 'Decimal']);

/** A create or update payload: an object whose relation fields hold nested writes. */
function checkData(c: Ctx, model: ModelDef, data: unknown, path: string): void {
    if (!isObject(data)) fail(path, 'an object');
    const discriminators = discriminatorsOf(c.registry, model);
    for (const [key, value] of Object.entries(data)) {
        if (key === '') fail(path, 'free of empty keys');
        if (discriminators.has(key) && value !== undefined) fail(`${path}.${key}`, `absent: it is the discriminator of ${model.name}'s @@delegate hierarchy, set by the model a record is created as`);
        const rel = model.relations.get(key);
        const target = rel && targetOf(c, rel);
        if (rel && target) {
            if (value !== undefined) checkRelationWrite(c, rel, target, value, `${path}.${key}`);
            continue;
        }
        const scalar = model.scalars.get(key);
        if (!scalar) noEmptyKeys(value, `${path}.${key}`);
        else if (scalar.kind === 'Json') checkJsonData(c, value, `${path}.${key}`);
        else {
            checkScalarArg(c, scalar, value, `${path}.${key}`);
            if (NUMBER_KINDS.has(scalar.kind)) checkDivisor(value, `${path}.${key}`);
        }
    }
}

/**
 * A row of a `createMany` (or `createManyAndReturn`, top level or nested): the model's fields alone, as Prisma's input
 * has them. ZenStack 2.22 wrote relations given in one through a client without the access policy (a `connect`
 * moved another user's post, a `create` made posts the rules refuse) and checked only the rows' own create rule.
 */
function checkManyRow(c: Ctx, model: ModelDef, row: unknown, path: string): void {
    if (isObject(row)) {
        for (const [key, value] of Object.entries(row)) {
            if (value !== undefined && model.relations.has(key)) {
                fail(`${path}.${key}`, `absent: createMany takes the fields of ${model.name}, not its relations (write those with create)`);
            }
        }
    }
    checkData(c, model, row, path);
}

/**
 * Throws a BadRequestError when `where`, nested read filters or write payloads are not shaped as Prisma requires.
 * `decimals` is what is left of the request's Decimal expansion (`checkDecimals`): shared by the operations of a
 * transaction; a fresh one for a single call.
 */
export function checkArgStructure(
    registry: ModelRegistry,
    model: ModelDef,
    opName: string,
    args: Args,
    decimals: DecimalBudget = { left: MAX_DECIMAL_EXPANSION },
    jsonNulls: JsonNullSlot[] = [],
): void {
    const c: Ctx = { registry, decimals, nulls: jsonNulls.length > 0 ? new JsonNullIndex(jsonNulls) : NO_NULLS };
    for (const [key, value] of Object.entries(args)) {
        // filters and writes are walked below, with the model (Json values may hold empty keys)
        if (!MODEL_WALKED.has(key)) noEmptyKeys(value, key, key === 'select' || key === 'include');
    }
    checkAggregates(model, args);
    checkPaging(args);
    checkFieldList(model, args.distinct, 'distinct');
    if (opName === 'groupBy') checkFieldList(model, args.by, 'by');
    if (args.where !== undefined) checkWhere(c, model, args.where, 'where');
    if (args.cursor !== undefined) checkWhere(c, model, args.cursor, 'cursor');
    if (args.having !== undefined) checkHaving(model, args.having, 'having', c.decimals);
    checkNestedReads(c, model, args.select, 'select');
    checkNestedReads(c, model, args.include, 'include');
    if (opName === 'upsert') {
        checkData(c, model, args.create, 'create');
        checkData(c, model, args.update, 'update');
    } else if (opName === 'createMany' || opName === 'createManyAndReturn') {
        objects(args.data, 'data', (item, p) => checkManyRow(c, model, item, p));
    } else if (args.data !== undefined || opName === 'create' || opName.startsWith('update')) {
        checkData(c, model, args.data, 'data');
    }
}
