import { CodecError, decodeBigInt, decodeBytes, decodeDate, decodeDecimal, DECIMAL_NUMBER, ISO_DATE, MAX_DECIMAL_EXPONENT } from '../../common/codec';
import { fitsIntField, type ScalarField } from '../../common/model-registry';
import { RestError } from '../errors';

/**
 * Typed filter values from their query-string text: numbers for Int/Float, bigint for BigInt,
 * a checked decimal string for Decimal, `true`/`false` for Boolean, a Date from ISO 8601 for
 * DateTime, a Buffer from Base64 for Bytes, a declared value for enums, strings as given.
 */

const INT = /^[+-]?\d+$/;

export type EnumLookup = (enumName: string) => readonly string[] | undefined;

type Parser = (text: string, field: ScalarField, enums: EnumLookup) => unknown;

const INVALID = Symbol('invalid');

const PARSERS: Record<string, Parser> = {
    String: (text) => text,
    Int: (text, field) => {
        const t = text.trim();
        const n = Number(t);
        return INT.test(t) && fitsIntField(field, n) ? n : INVALID;
    },
    Float: (text) => {
        const t = text.trim();
        const n = Number(t);
        return DECIMAL_NUMBER.test(t) && Number.isFinite(n) ? n : INVALID;
    },
    BigInt: (text) => decodeBigInt(text),
    // a checked string: Prisma takes decimal strings, and no foreign Decimal class crosses into the client
    Decimal: (text) => decodeDecimal(text).toString(),
    Boolean: (text) => (text === 'true' ? true : text === 'false' ? false : INVALID),
    DateTime: (text) => {
        const t = text.trim();
        return ISO_DATE.test(t) ? decodeDate(t) : INVALID;
    },
    Bytes: (text) => decodeBytes(text),
    Enum: (text, field, enums) => {
        const values = enums(field.type);
        return !values || values.includes(text) ? text : INVALID;
    },
};

function describeKind(field: ScalarField, enums: EnumLookup): string {
    if (field.kind === 'Enum') {
        const values = enums(field.type);
        return values ? `one of ${values.join(', ')}` : `a ${field.type} value`;
    }
    const hints: Record<string, string> = {
        Int: 'an integer',
        Float: 'a number',
        BigInt: 'a 64-bit integer',
        Decimal: `a decimal number whose exponent is within ±${MAX_DECIMAL_EXPONENT}`,
        Boolean: '"true" or "false"',
        DateTime: 'an ISO 8601 date-time',
        Bytes: 'a Base64 string',
    };
    return hints[field.kind] ?? `a ${field.type} value`;
}

/** Whether a field's type can be compared in a filter at all. */
export function isFilterable(field: ScalarField): boolean {
    return Object.prototype.hasOwnProperty.call(PARSERS, field.kind);
}

/** Parses one value for `field`; a bad one is 400 `invalid-value` naming the parameter. */
export function parseFilterValue(field: ScalarField, text: string, enums: EnumLookup, parameter: string): unknown {
    const parser = PARSERS[field.kind];
    let value: unknown = INVALID;
    try {
        value = parser ? parser(text, field, enums) : INVALID;
    } catch (err) {
        if (!(err instanceof CodecError)) throw err;
    }
    if (value === INVALID) {
        throw new RestError('invalid-value', `invalid value "${text}" for "${field.name}": expected ${describeKind(field, enums)}`, { source: { parameter } });
    }
    return value;
}

/** `true` / `false` for boolean operators ($isNull, $isEmpty). */
export function parseBooleanFlag(text: string, parameter: string): boolean {
    if (text === 'true') return true;
    if (text === 'false') return false;
    throw new RestError('invalid-value', `${parameter} takes "true" or "false", got "${text}"`, { source: { parameter } });
}
