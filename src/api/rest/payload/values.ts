import { CodecError, decodeBigInt, decodeBytes, decodeDate, decodeDecimal, isBigInt64, isDecimal, ISO_DATE, jsonNullNameOf, MAX_DECIMAL_EXPONENT } from '../../common/codec';
import { describeValue, notStorableAsJson } from '../../common/json-storable';
import { fitsIntField, type ScalarField, type ScalarKind } from '../../common/model-registry';
import { payloadError, pointerTo } from './pointer';

/**
 * Attribute values of a request body → the values Prisma expects for the field's type.
 * A value arrives either as plain JSON (ISO string, decimal string, Base64 …) or already typed
 * by `meta.serialization` (Date, bigint, Decimal, Buffer); both give the same result. Anything
 * else is a 400 pointing at the attribute.
 */

type Converter = (value: unknown, field: ScalarField, pointer: string) => unknown;

/** The values of an enum by its name, when known (from the zod schemas); `undefined` skips the check. */
export type EnumLookup = (enumName: string) => readonly string[] | undefined;

/** The client runtime's `Prisma.DbNull` / `JsonNull` / `AnyNull` object, or `undefined` when it cannot be found. */
export type JsonNullLookup = (name: 'DbNull' | 'JsonNull' | 'AnyNull') => unknown;

/** What value conversion may consult besides the field. */
export interface ValueContext {
    enumValues?: EnumLookup;
    jsonNull?: JsonNullLookup;
}

function wrongType(field: ScalarField, pointer: string, expected: string, value: unknown): never {
    throw payloadError(pointer, `attribute "${field.name}" (${field.type}) expects ${expected}, got ${describeValue(value)}`);
}

/** Runs a strict codec decoder, turning its CodecError into a pointed 400. */
function decoded<T>(field: ScalarField, pointer: string, expected: string, decode: () => T): T {
    try {
        return decode();
    } catch (err) {
        if (err instanceof CodecError) {
            throw payloadError(pointer, `attribute "${field.name}" (${field.type}) expects ${expected}`);
        }
        throw err;
    }
}

const CONVERTERS: Record<ScalarKind, Converter> = {
    String: (v, f, p) => (typeof v === 'string' ? v : wrongType(f, p, 'a string', v)),
    Enum: (v, f, p) => (typeof v === 'string' ? v : wrongType(f, p, 'a string (enum value)', v)),
    Boolean: (v, f, p) => (typeof v === 'boolean' ? v : wrongType(f, p, 'a boolean', v)),
    Int: (v, f, p) => (fitsIntField(f, v) ? v : wrongType(f, p, f.isOid ? 'an integer number from 0 to 4294967295 (oid)' : 'a 32-bit integer number', v)),
    Float: (v, f, p) => (typeof v === 'number' && Number.isFinite(v) ? v : wrongType(f, p, 'a finite number', v)),
    DateTime: (v, f, p) => {
        if (v instanceof Date) {
            return Number.isNaN(v.getTime()) ? wrongType(f, p, 'a valid date', v) : v;
        }
        if (typeof v !== 'string' || !ISO_DATE.test(v)) {
            return wrongType(f, p, 'an ISO 8601 date, or date-time with its offset (Z, +02:00)', v);
        }
        return decoded(f, p, 'an ISO 8601 date-time string', () => decodeDate(v));
    },
    BigInt: (v, f, p) => {
        if (typeof v === 'bigint') return isBigInt64(v) ? v : wrongType(f, p, 'a 64-bit integer', v);
        if (typeof v !== 'string' && typeof v !== 'number') return wrongType(f, p, 'an integer string or number', v);
        return decoded(f, p, 'a 64-bit integer as a string or a safe integer number', () => decodeBigInt(v));
    },
    Decimal: (v, f, p) => {
        if (isDecimal(v)) return v;
        if (typeof v !== 'string' && typeof v !== 'number') return wrongType(f, p, 'a decimal string or number', v);
        return decoded(f, p, `a decimal string or number whose exponent is within ±${MAX_DECIMAL_EXPONENT}`, () => decodeDecimal(v));
    },
    Bytes: (v, f, p) => {
        if (v instanceof Uint8Array) return v;
        if (typeof v !== 'string') return wrongType(f, p, 'a Base64 string', v);
        return decoded(f, p, 'a Base64 string', () => decodeBytes(v));
    },
    Json: (v, f, p) => {
        // Prisma's own DbNull / JsonNull object, from a tagged null: a whole field's value, never AnyNull (a filter's)
        const marker = typeof v === 'object' && v !== null ? jsonNullNameOf(v) : undefined;
        if (marker === 'AnyNull' || (marker && f.isArray)) {
            const why = marker === 'AnyNull' ? 'it matches either null in filters' : 'a null marker stands for a whole Json field, not an item of a list';
            throw payloadError(p, `attribute "${f.name}" (Json) cannot be written ${marker}: ${why}`);
        }
        if (marker) return v;
        const problem = notStorableAsJson(v);
        if (problem) throw payloadError(p, `attribute "${f.name}" (Json) expects a JSON value, got ${problem} in it`);
        return v;
    },
    Unsupported: (_v, f, p) => {
        throw payloadError(p, `attribute "${f.name}" has an unsupported database type and cannot be written`);
    },
};

function checkEnum(field: ScalarField, value: unknown, pointer: string, enumValues: EnumLookup | undefined): void {
    const allowed = field.kind === 'Enum' && typeof value === 'string' ? enumValues?.(field.type) : undefined;
    if (allowed && !allowed.includes(value as string)) {
        throw payloadError(pointer, `attribute "${field.name}" expects one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
    }
}

/** Converts one attribute value to its field's type; `pointer` names it in errors. */
export function convertAttribute(field: ScalarField, value: unknown, pointer: string, context: ValueContext = {}): unknown {
    const { enumValues, jsonNull } = context;
    if (value === null && field.kind === 'Json' && !field.isArray) {
        // a Json column holds two nulls: plain null clears an optional field (database NULL) and is
        // JSON null in a required one; Prisma wants its own marker objects for both
        const marker = jsonNull?.(field.isOptional ? 'DbNull' : 'JsonNull');
        if (marker !== undefined) return marker;
    }
    if (value === null) {
        if (field.isOptional && !field.isArray) {
            return null;
        }
        throw payloadError(pointer, `attribute "${field.name}" is required and cannot be null`);
    }
    if (value === undefined) {
        throw payloadError(pointer, `attribute "${field.name}" has no value`);
    }
    const convert = CONVERTERS[field.kind];
    if (field.isArray) {
        if (!Array.isArray(value)) {
            return wrongType(field, pointer, 'an array', value);
        }
        return value.map((item, i) => {
            const itemPointer = pointerTo(pointer, i);
            // a list of JSON values (Json[], PostgreSQL) holds JSON null like any JSON value; other lists hold no nulls
            if (item === null && field.kind === 'Json') return null;
            if (item === null || item === undefined) {
                throw payloadError(itemPointer, `attribute "${field.name}" cannot hold null items`);
            }
            checkEnum(field, item, itemPointer, enumValues);
            return convert(item, field, itemPointer);
        });
    }
    checkEnum(field, value, pointer, enumValues);
    return convert(value, field, pointer);
}
