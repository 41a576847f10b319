import { CodecError, decodeBigInt, decodeBytes, decodeDate, decodeDecimal, encodeBytes, ISO_DATE } from '../common/codec';
import { utf8Bytes } from '../common/bytes';
import { fitsIntField, type ScalarField } from '../common/model-registry';
import { RestError } from './errors';
import type { RestModel } from './schema';

const INT = /^-?\d+$/;

/** Converts one id value from a URL or a resource identifier (string or number) to its field's type. */
export function parseIdValue(field: ScalarField, raw: unknown, pointer?: string): unknown {
    const where = pointer ? { source: { pointer } } : {};
    const bad = (): never => {
        throw new RestError('invalid-id', `invalid value for id field "${field.name}"`, where);
    };
    if (typeof raw !== 'string' && typeof raw !== 'number') {
        return bad();
    }
    const text = String(raw);
    try {
        switch (field.kind) {
            case 'Int': {
                if (!INT.test(text)) return bad();
                const n = Number(text);
                return fitsIntField(field, n) ? n : bad(); // Prisma's Int is 32-bit (an oid 32-bit unsigned): a larger id names no record of it
            }
            case 'Float': {
                const n = Number(text);
                return text.trim() !== '' && Number.isFinite(n) ? n : bad();
            }
            case 'BigInt':
                // a JSON number beyond 2^53 has already lost digits: it would name a neighbouring record
                return decodeBigInt(raw);
            case 'Decimal':
                return decodeDecimal(text);
            case 'DateTime':
                // ISO 8601 only, as in attributes and filters: `new Date()` alone reads `Feb 30 2024` as March 1st
                return ISO_DATE.test(text) ? decodeDate(text) : bad();
            case 'Boolean':
                return text === 'true' ? true : text === 'false' ? false : bad();
            case 'Bytes':
                // Base64, as formatId renders it and as Bytes attributes travel
                return decodeBytes(raw);
            default:
                // a native uuid in any letter case names the same record: the canonical (lower-case) form
                // compares equal to what the database answers (data.id against the URL, members by id)
                return field.isUuid ? text.toLowerCase() : text;
        }
    } catch (err) {
        if (err instanceof CodecError) return bad();
        throw err;
    }
}

/** The unique `where` of a resource from its id as found in a URL or identifier. */
export function whereById(model: RestModel, id: unknown, divider: string, pointer?: string): Record<string, unknown> {
    const fields = model.idFields;
    if (fields.length === 1) {
        return { [fields[0].name]: parseIdValue(fields[0], id, pointer) };
    }
    if (typeof id !== 'string') {
        throw new RestError('invalid-id', `a ${model.type} id is a compound value joined with "${divider}"`, pointer ? { source: { pointer } } : {});
    }
    const parts = splitId(id, divider);
    if (parts.length !== fields.length) {
        throw new RestError('invalid-id', `a ${model.type} id has ${fields.length} parts joined with "${divider}"`, pointer ? { source: { pointer } } : {});
    }
    const values: Record<string, unknown> = {};
    fields.forEach((f, i) => {
        values[f.name] = parseIdValue(f, unescapePart(parts[i]), pointer);
    });
    return whereByIdValues(model, values);
}

/** The unique `where` of a resource from the values of its id fields (`{ id }`, or the compound id's input). */
export function whereByIdValues(model: RestModel, values: Record<string, unknown>): Record<string, unknown> {
    const fields = model.idFields;
    if (fields.length === 1) return { [fields[0].name]: values[fields[0].name] };
    const compound: Record<string, unknown> = {};
    for (const f of fields) compound[f.name] = values[f.name];
    return { [compoundIdName(model)]: compound };
}

/** Prisma's name of the compound id input: the `@@id`'s unique constraint name (default `a_b`). */
function compoundIdName(model: RestModel): string {
    const names = model.idFields.map((f) => f.name);
    for (const c of Object.values(model.def.uniqueConstraints)) {
        if (c.fields.length === names.length && c.fields.every((f, i) => f === names[i])) {
            return c.name;
        }
    }
    return names.join('_');
}

/** The `id` member of a record: the value itself for one field (numbers stay numbers), joined for compound ids. */
export function formatId(model: RestModel, record: Record<string, unknown>, divider: string): string | number {
    const fields = model.idFields;
    if (fields.length === 1) {
        return idPart(record[fields[0].name]) as string | number;
    }
    return fields.map((f) => escapePart(String(idPart(record[f.name])), divider)).join(divider);
}

/** Per divider: what `escapePart` encodes (`%` and each character of the divider). */
const escapedChars = new Map<string, RegExp>();

function escapedCharsOf(divider: string): RegExp {
    let re = escapedChars.get(divider);
    if (!re) {
        const chars = new Set(['%', ...Array.from(divider)]);
        re = new RegExp(`[${[...chars].map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('')}]`, 'gu');
        escapedChars.set(divider, re);
    }
    return re;
}

/**
 * A part of a compound id as its `id` writes it: a `%`, and each character of the divider, in the value
 * percent-encoded (`x_y` → `x%5Fy`), so that the parts can be told apart again (`x%5Fy_z` is `x_y` and `z`, where
 * `x_y_z` was ambiguous). Every character of the divider, not only the divider whole: with `--`, the values `x-` and `y`
 * would otherwise join as `x---y`, as `x` and `-y` do. Values without any, nearly all, are written as they are.
 */
function escapePart(text: string, divider: string): string {
    return text.replace(escapedCharsOf(divider), (c) => Array.from(utf8Bytes(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * The parts of a compound id: split at each divider that is not inside an escape (`%` and two hex digits, which may
 * hold a character of the divider: `%25` with the divider `5`).
 */
function splitId(id: string, divider: string): string[] {
    if (!id.includes('%')) return id.split(divider);
    const parts: string[] = [];
    let start = 0;
    let i = 0;
    while (i < id.length) {
        if (id[i] === '%' && HEX.test(id.slice(i + 1, i + 3))) {
            i += 3;
        } else if (id.startsWith(divider, i)) {
            parts.push(id.slice(start, i));
            i += divider.length;
            start = i;
        } else {
            i++;
        }
    }
    parts.push(id.slice(start));
    return parts;
}

/** A part of a compound id as written by `escapePart`; a `%` that starts no escape is taken as it is (ids written before). */
function unescapePart(part: string): string {
    if (!part.includes('%')) return part;
    try {
        return decodeURIComponent(part);
    } catch {
        return part;
    }
}

function idPart(value: unknown): unknown {
    if (typeof value === 'number' || typeof value === 'string') return value;
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Date) return value.toISOString();
    if (value instanceof Uint8Array) return encodeBytes(value); // Buffer too; String() would list the bytes
    return String(value);
}

/** `select` of just the id fields of a model (cached per model). */
const idSelectCache = new WeakMap<RestModel, Record<string, true>>();
export function idSelect(model: RestModel): Record<string, true> {
    let select = idSelectCache.get(model);
    if (!select) {
        select = {};
        for (const f of model.idFields) select[f.name] = true;
        idSelectCache.set(model, select);
    }
    return select;
}
