import { isDecimal } from './codec';

/** A value's kind, as an error message names what it got. */
export function describeValue(value: unknown): string {
    if (value === null) return 'null';
    if (value === undefined) return 'undefined';
    if (Array.isArray(value)) return 'an array';
    if (value instanceof Date) return 'a date';
    if (value instanceof Uint8Array) return 'bytes';
    if (isDecimal(value)) return 'a decimal';
    const t = typeof value;
    return t === 'object' ? 'an object' : `a ${t}`;
}

/**
 * What in a Json field's value a Json column could not store as sent, if anything. Plain JSON passes,
 * and so do dates (stored as ISO strings) and properties holding `undefined` (absent, as in
 * `JSON.stringify`); the other types `meta.serialization` can restore would be stored changed or
 * dropped: NaN and ±Infinity as null, a Decimal as a double (its digits past 17 lost), a Map or Set as
 * `{}`, an Error without its message; a bigint fails the write. Both handlers refuse such a value with a
 * 400 rather than store something else than was sent. Iterative: a body may nest deeper than the stack.
 */
export function notStorableAsJson(value: unknown): string | undefined {
    const pending: unknown[] = [value];
    while (pending.length > 0) {
        const v = pending.pop();
        if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
        if (typeof v === 'number') {
            if (Number.isFinite(v)) continue;
            return String(v);
        }
        if (v instanceof Date) {
            if (Number.isNaN(v.getTime())) return 'an invalid date';
            continue;
        }
        if (Array.isArray(v)) {
            // one by one: spreading a long array into push() overflows the argument limit
            for (const item of v) pending.push(item);
            continue;
        }
        if (typeof v === 'object') {
            const proto: unknown = Object.getPrototypeOf(v);
            if (proto !== Object.prototype && proto !== null) {
                const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
                if (v instanceof Uint8Array || isDecimal(v) || typeof name !== 'string') return describeValue(v);
                return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
            }
            for (const item of Object.values(v as object)) if (item !== undefined) pending.push(item);
            continue;
        }
        return describeValue(v);
    }
    return undefined;
}
