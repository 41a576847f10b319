import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef } from '../common/model-registry';
import { checkDecimals, checkIntegers, type DecimalBudget } from './arg-numbers';
import { fail, LOGICAL, objects } from './arg-walk';
import { isPlainObject } from '../common/guards';
import { checkFieldRefs } from './field-refs';
import type { Args } from './input';

/** Checks of the aggregate arguments: `having` of groupBy, and the field selections of `_count`/`_avg`/`_sum`/`_min`/`_max`. */

/** Fails at the first empty object in `value` (a condition without any operator). */
function noEmptyConditions(value: unknown, at: string): void {
    if (!isPlainObject(value)) return;
    const entries = Object.entries(value);
    if (entries.length === 0) fail(at, 'a condition with at least one operator');
    for (const [op, operand] of entries) noEmptyConditions(operand, `${at}.${op}`);
}

/**
 * `having` of a groupBy: conditions on a field's value or aggregates. Prisma's query compiler panics on
 * an empty one (`having: {}`, `{ title: {} }`, `{ title: { not: {} } }`, `{ views: { _sum: {} } }`): a
 * panic disconnects the client, and enough of them corrupt its WebAssembly memory for good (every later
 * query of the process fails), so they are refused. Conditions of an Int field hold Ints, except
 * `_avg`; `_count` conditions hold Ints whatever the field.
 */
export function checkHaving(model: ModelDef, having: unknown, path: string, decimals?: DecimalBudget): void {
    if (!isObject(having)) return;
    if (path === 'having' && Object.keys(having).length === 0) fail(path, 'a condition with at least one field');
    for (const [key, value] of Object.entries(having)) {
        const at = `${path}.${key}`;
        if (LOGICAL.has(key)) {
            if (Array.isArray(value) || isObject(value)) objects(value, at, (item, p) => checkHaving(model, item, p, decimals));
            continue;
        }
        noEmptyConditions(value, at);
        checkFieldRefs(model, value, at);
        const field = model.scalars.get(key);
        if (!field || !isObject(value)) {
            if (field?.kind === 'Int') checkIntegers(value, at);
            else if (field?.kind === 'Decimal') checkDecimals(value, at, decimals);
            continue;
        }
        for (const [op, operand] of Object.entries(value)) {
            if (op === '_count' || (field.kind === 'Int' && op !== '_avg')) checkIntegers(operand, `${at}.${op}`);
            else if (field.kind === 'Decimal') checkDecimals(operand, `${at}.${op}`, decimals);
        }
    }
}

const AGGREGATES = ['_count', '_avg', '_sum', '_min', '_max'];

/**
 * The field selections of aggregates (`_min: { views: true }`): an object (`_count` also takes `true` or `false`)
 * whose values are each `true` or `false` (ZenStack crashed on a null, and Prisma's serializer on a list holding
 * one, `_count: [null]`: a 500). `_min`/`_max` of a Bytes field pass Prisma's validation, but its query
 * compiler cannot read the result back (an internal error): refused up front.
 */
export function checkAggregates(model: ModelDef, args: Args): void {
    for (const agg of AGGREGATES) {
        const fields = args[agg];
        if (fields === undefined || (agg === '_count' && typeof fields === 'boolean')) continue;
        if (!isObject(fields)) fail(agg, agg === '_count' ? 'an object of fields, or true' : 'an object of fields');
        for (const [name, on] of Object.entries(fields)) {
            if (typeof on !== 'boolean') fail(`${agg}.${name}`, 'true or false');
            if (on && (agg === '_min' || agg === '_max') && model.scalars.get(name)?.kind === 'Bytes') {
                throw new BadRequestError(`invalid arguments: "${agg}.${name}": the data layer cannot compute ${agg} of a Bytes field`);
            }
        }
    }
}
