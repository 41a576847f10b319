import { protoKeyPath } from '../../common/guards';
import type { ScalarField } from '../../common/model-registry';
import { RestError } from '../errors';
import type { FilterContext } from './filter';
import { parseBooleanFlag } from './filter-values';
import type { Where } from './operators';
import type { FilterParam } from './params';

/**
 * Filters on `Json` fields, whose values are JSON text in the query string. The whole text is one value
 * (commas belong to JSON, so they cannot separate values as they do elsewhere).
 */

/** Deepest nesting of a JSON value to compare with (the query string's length bounds its size). */
const MAX_JSON_DEPTH = 32;

function jsonDepth(value: unknown, depth = 0): number {
    if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return depth;
    let max = depth + 1;
    for (const item of Object.values(value)) max = Math.max(max, jsonDepth(item, depth + 1));
    return max;
}

function invalidValue(param: FilterParam, detail: string): RestError {
    return new RestError('invalid-value', detail, { source: { parameter: param.parameter } });
}

/** The JSON value of `text`, checked: valid JSON, not nested too deep, no `__proto__` key. */
function parseJson(field: ScalarField, param: FilterParam, text: string): unknown {
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch {
        throw invalidValue(param, `the value of "${field.name}" is not valid JSON`);
    }
    if (jsonDepth(value) > MAX_JSON_DEPTH) {
        throw invalidValue(param, `the JSON value of "${field.name}" nests deeper than ${MAX_JSON_DEPTH} levels`);
    }
    if (protoKeyPath(value)) {
        // ZenStack's copy of the filter would turn it into a prototype, and compare with another value
        throw invalidValue(param, `the JSON value of "${field.name}" must not contain a "__proto__" key`);
    }
    return value;
}

/**
 * `filter[json]=<JSON text>`: equality with a JSON value, as 2.x has it. The whole text is the value
 * (no comma-separated any-of: JSON has commas); `null` matches a JSON null and a database NULL.
 */
export function jsonCondition(field: ScalarField, param: FilterParam, ctx: FilterContext): Where {
    if (param.op !== undefined) {
        throw new RestError('invalid-filter', `"${field.name}" (${field.type}) is compared by equality only: filter[${field.name}]=<JSON value>`, {
            source: { parameter: param.parameter },
        });
    }
    const value = parseJson(field, param, param.value);
    return { [field.name]: { equals: value === null ? ctx.anyNull() : value } };
}

/**
 * A list of JSON values (`Json[]`, PostgreSQL): the list operators as 2.x has them. `$has` takes one JSON
 * value (the whole text); `$hasEvery` and `$hasSome` take JSON values separated by commas (`1,"a",{"b":2}`,
 * read as the items of one JSON array); `$isEmpty` `true`/`false`; without an operator the whole text is a
 * JSON array the list must equal.
 */
export function jsonListCondition(field: ScalarField, param: FilterParam): Where {
    const name = field.name;
    switch (param.op) {
        case undefined: {
            const value = parseJson(field, param, param.value);
            if (!Array.isArray(value)) throw invalidValue(param, `"${name}" is a list of JSON values: compare it with a JSON array`);
            return { [name]: { equals: value } };
        }
        case 'has':
            return { [name]: { has: parseJson(field, param, param.value) } };
        case 'hasEvery':
        case 'hasSome':
            return { [name]: { [param.op]: parseJson(field, param, `[${param.value}]`) } };
        case 'isEmpty':
            return { [name]: { isEmpty: parseBooleanFlag(param.value, param.parameter) } };
        default:
            throw new RestError('invalid-filter', `"${name}" (${field.type}[]) takes $has, $hasEvery, $hasSome or $isEmpty, or a JSON array to equal`, {
                source: { parameter: param.parameter },
            });
    }
}
