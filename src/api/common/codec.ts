import Decimal from 'decimal.js';
import SuperJSON from 'superjson';
import { fromBase64, toBase64 } from './bytes';
import { hasOwn, isObject } from './guards';
import { isoString } from './iso-date';
import { indexedPaths } from './path-names';

/**
 * The wire format for typed values, shared by both handlers: superjson-compatible
 * `{ json, meta: { values: { 'dotted.path': tags } } }` where DateTime is an ISO string
 * tagged `Date`, BigInt a decimal string tagged `bigint`, Decimal a decimal string tagged
 * `["custom","Decimal"]` and Bytes a Base64 string tagged `["custom","Bytes"]`.
 */

export type SerializationMeta = { values?: Record<string, unknown> };

/** Raised when a typed value in a request cannot be decoded; handlers answer 400. */
export class CodecError extends Error {
    constructor(
        message: string,
        readonly path?: string,
    ) {
        super(message);
        this.name = 'CodecError';
    }
}

export const DATE_TAG = 'Date';
export const BIGINT_TAG = 'bigint';
export const DECIMAL_TAG = Object.freeze(['custom', 'Decimal'] as const);
export const BYTES_TAG = Object.freeze(['custom', 'Bytes'] as const);

/**
 * The tag lists written into `meta.serialization.values`, one frozen instance per kind shared by every
 * entry of every answer: a page of a thousand dates would otherwise allocate a thousand equal arrays.
 */
export const DATE_TAGS: readonly unknown[] = Object.freeze([DATE_TAG]);
export const BIGINT_TAGS: readonly unknown[] = Object.freeze([BIGINT_TAG]);
export const DECIMAL_TAGS: readonly unknown[] = Object.freeze([DECIMAL_TAG]);
export const BYTES_TAGS: readonly unknown[] = Object.freeze([BYTES_TAG]);
/** `NaN`, `Infinity` and `-Infinity`, which JSON cannot hold, travel as strings tagged `number`. */
export const NUMBER_TAGS: readonly unknown[] = Object.freeze(['number']);

/**
 * Prisma's three Json null markers (`Prisma.DbNull`, `Prisma.JsonNull`, `Prisma.AnyNull`), tagged
 * `["custom","DbNull"]` etc. A database NULL and a JSON `null` value are different things in a
 * Json column; plain JSON cannot say which one is meant, these tags can.
 */
export const JSON_NULL_NAMES = ['DbNull', 'JsonNull', 'AnyNull'] as const;
export type JsonNullName = (typeof JSON_NULL_NAMES)[number];
const JSON_NULL_NAME_SET: ReadonlySet<string> = new Set(JSON_NULL_NAMES);
const JSON_NULL_TAGS = Object.fromEntries(JSON_NULL_NAMES.map((name) => [name, Object.freeze([Object.freeze(['custom', name])])])) as Record<
    JsonNullName,
    readonly unknown[]
>;

/** The Json null marker a tag list names (`[["custom","DbNull"]]` → `DbNull`), if any. */
export function jsonNullTagName(tags: unknown): JsonNullName | undefined {
    if (!Array.isArray(tags) || tags.length !== 1) {
        return undefined;
    }
    const tag = tags[0];
    if (Array.isArray(tag) && tag.length === 2 && tag[0] === 'custom' && typeof tag[1] === 'string' && JSON_NULL_NAME_SET.has(tag[1])) {
        return tag[1] as JsonNullName;
    }
    return undefined;
}

/**
 * Recognises a Prisma Json null marker object from any copy of the Prisma runtime (they are
 * instances of the runtime's `NullTypes` classes; there is no shared class to test against).
 */
export function jsonNullNameOf(value: object): JsonNullName | undefined {
    const marker = value as { _getNamespace?: unknown; _getName?: unknown };
    if (typeof marker._getNamespace !== 'function' || typeof marker._getName !== 'function') {
        return undefined;
    }
    try {
        const name: unknown = (marker._getName as () => unknown).call(value);
        return (marker._getNamespace as () => unknown).call(value) === 'NullTypes' && typeof name === 'string' && JSON_NULL_NAME_SET.has(name)
            ? (name as JsonNullName)
            : undefined;
    } catch {
        return undefined;
    }
}

/** Base64 in the standard or the URL-safe alphabet (RFC 4648 §4, §5), with or without its padding. */
const BASE64_STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_URL = /^[A-Za-z0-9_-]*={0,2}$/;

function isBase64(value: string): boolean {
    if (!BASE64_STANDARD.test(value) && !BASE64_URL.test(value)) return false;
    const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
    const data = value.length - padding;
    // one character left over cannot encode a byte; padding, when given, completes the last group exactly
    return data % 4 !== 1 && (padding === 0 || (value.length % 4 === 0 && padding === (4 - (data % 4)) % 4));
}

/**
 * A decimal number as written in JSON (plus a leading `+` or `.`, or a trailing `.`): not `0x10`, `Infinity`. Written
 * so that no two ways match one text (`\d+\.?\d*` splits a run of digits n ways, and a long one followed by
 * a letter took the regex engine quadratic time: seconds for 10,000 digits, hours for a 1 MiB body).
 */
export const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const BIGINT_STRING = /^[+-]?\d+$/;

export function isDecimal(value: unknown): value is Decimal {
    return Decimal.isDecimal(value);
}

export function encodeBytes(value: Uint8Array): string {
    return toBase64(value);
}

/** The bytes of a Base64 value (a `Buffer` on Node, a `Uint8Array` where there is none). */
export function decodeBytes(value: unknown, path?: string): Uint8Array {
    if (typeof value !== 'string' || !isBase64(value)) {
        throw new CodecError('invalid Base64 value for a Bytes field', path);
    }
    return fromBase64(value);
}

/**
 * The largest power of ten a Decimal may have, up or down: PostgreSQL's numeric takes at most 1,000 digits of
 * precision and scale, MySQL's decimal 65, SQLite's REAL ±1e308. Prisma hands a Decimal to the data layer in
 * its plain form (`toFixed()`), as many characters as the exponent is large: `1e900000000`, eleven characters,
 * made it build a string of 900 million digits and the process died of heap exhaustion.
 */
export const MAX_DECIMAL_EXPONENT = 1000;

/** Whether a Decimal is finite and its exponent within ±`MAX_DECIMAL_EXPONENT` (zero always is). */
export function isDecimalInRange(value: Decimal): boolean {
    return value.isFinite() && (value.isZero() || Math.abs(value.e) <= MAX_DECIMAL_EXPONENT);
}

export const DECIMAL_RANGE_MESSAGE = `a decimal value whose exponent is within ±${MAX_DECIMAL_EXPONENT}`;

export function decodeDecimal(value: unknown, path?: string): Decimal {
    if (typeof value === 'number' && Number.isFinite(value)) {
        return new Decimal(value);
    }
    if (typeof value !== 'string' || !DECIMAL_NUMBER.test(value.trim())) {
        throw new CodecError('invalid decimal value', path);
    }
    const decimal = new Decimal(value.trim());
    if (!isDecimalInRange(decimal)) {
        throw new CodecError(`decimal value out of range: expected ${DECIMAL_RANGE_MESSAGE}`, path);
    }
    return decimal;
}

/** Prisma's BigInt is 64-bit signed on every provider. */
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

export function isBigInt64(value: bigint): boolean {
    return value >= BIGINT_MIN && value <= BIGINT_MAX;
}

export function decodeBigInt(value: unknown, path?: string): bigint {
    if (typeof value === 'number' && Number.isSafeInteger(value)) {
        return BigInt(value);
    }
    if (typeof value !== 'string' || !BIGINT_STRING.test(value.trim())) {
        throw new CodecError('invalid BigInt value', path);
    }
    const n = BigInt(value.trim());
    if (!isBigInt64(n)) throw new CodecError('BigInt value beyond 64 bits', path);
    return n;
}

/**
 * The time of an ISO 8601 date-time, its offset required: JavaScript reads `2024-06-01T12:00` as the server's local
 * time, so that the instant a request names depended on the time zone it ran in (Prisma, and so 2.x, refuses it).
 */
const ISO_TIME = '(?:[Tt ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:[Zz]|[+-]\\d{2}:?\\d{2}))?';

/** An ISO 8601 date or date-time as the REST handler takes it (`2024-06-01`, `2024-06-01T12:00:00.5+02:00`). */
export const ISO_DATE = new RegExp(`^\\d{4}-\\d{2}-\\d{2}${ISO_TIME}$`);

/** What a tagged `Date` may hold: the same, and the six-digit years `toISOString` writes past 9999 (`+010000-01-01T…`). */
const TAGGED_DATE = new RegExp(`^(?:[+-]\\d{6}|\\d{4})-\\d{2}-\\d{2}${ISO_TIME}$`);

const DATE_PART = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})/;
const THIRTY_DAYS = new Set([4, 6, 9, 11]);

/**
 * Whether the calendar day a `YYYY-MM-DD…` text starts with exists. `new Date('2024-02-30')` is March 1st
 * and `2023-02-29` March 1st: V8 takes any day up to 31 and rolls it over, where Prisma (and 2.x, which hands
 * it the text) refuses it. Other forms are left to the parser.
 */
function isRealDay(text: string): boolean {
    const m = DATE_PART.exec(text);
    if (!m) return true;
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (month < 1 || month > 12 || day < 1) return false;
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const last = month === 2 ? (leap ? 29 : 28) : THIRTY_DAYS.has(month) ? 30 : 31;
    return day <= last;
}

export function decodeDate(value: unknown, path?: string): Date {
    if (typeof value !== 'string' && typeof value !== 'number') {
        throw new CodecError('invalid DateTime value', path);
    }
    const date = new Date(value);
    if (Number.isNaN(date.getTime()) || (typeof value === 'string' && !isRealDay(value.trim()))) {
        throw new CodecError('invalid DateTime value', path);
    }
    return date;
}

// A private instance: registering types on the global superjson would change the
// behaviour of an application that uses it for its own purposes.
const superjson = new SuperJSON();
superjson.registerCustom<Decimal, string>(
    { isApplicable: (v): v is Decimal => Decimal.isDecimal(v), serialize: (v) => v.valueOf(), deserialize: (v) => decodeDecimal(v) },
    'Decimal',
);
superjson.registerCustom<Uint8Array, string>(
    { isApplicable: (v): v is Uint8Array => v instanceof Uint8Array, serialize: (v) => encodeBytes(v), deserialize: (v) => decodeBytes(v) },
    'Bytes',
);

/**
 * Escapes a key the way superjson 1.x (what ZenStack 2.x and its clients use) does in dotted paths: a dot as
 * `\.`, nothing else (a backslash stays as it is).
 */
export function escapePathKey(key: string): string {
    return key.includes('.') ? key.replace(/\./g, '\\.') : key;
}

function joinPath(prefix: string, key: string | number): string {
    const k = typeof key === 'number' ? String(key) : escapePathKey(key);
    return prefix ? `${prefix}.${k}` : k;
}

const keySuffixes = new Map<string, string>();

/** `.key`, escaped; kept for the first 256 keys of rows (the field names of a schema, in practice). */
function keySuffix(key: string): string {
    let suffix = keySuffixes.get(key);
    if (suffix === undefined) {
        suffix = `.${escapePathKey(key)}`;
        if (keySuffixes.size < 256) keySuffixes.set(key, suffix);
    }
    return suffix;
}

/** Builds a superjson dotted path from a base path and the keys below it (empty prefixes are dropped). */
function pathOf(basePath: string, keys: readonly (string | number)[], depth: number, last: string | number): string {
    // a field of a row of a list (`12.createdAt`): the same paths in every answer
    if (depth === 1 && basePath === '' && typeof keys[0] === 'number' && typeof last === 'string') {
        return indexedPaths.get('', keys[0], keySuffix(last));
    }
    let path = basePath;
    for (let i = 0; i < depth; i++) {
        path = joinPath(path, keys[i]);
    }
    return joinPath(path, last);
}

/** A number JSON writes as it is: finite, and not `-0` (which JSON writes `0`; superjson tags it `"-0"`). */
export function isPlainNumber(v: number): boolean {
    return Number.isFinite(v) && !Object.is(v, -0);
}

/** A number JSON cannot write, as superjson writes it (`"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"`). */
export function taggedNumberText(v: number): string {
    return Object.is(v, -0) ? '-0' : String(v);
}

/**
 * Whether a value may need encoding: an object (a typed value, or a container that may hold one), a bigint or
 * a number JSON cannot hold. Strings, booleans, finite numbers, null and undefined pass through as they are.
 */
function mayNeedEncoding(v: unknown): boolean {
    return v !== null && (typeof v === 'object' || typeof v === 'bigint' || (typeof v === 'number' && !isPlainNumber(v)));
}

/** The tags of a value written as plain JSON although it is not (an invalid date). */
const NO_TAGS: readonly unknown[] = Object.freeze([]);

/**
 * Encodes a value tree in one pass: returns the JSON-safe copy and the tags of its complex
 * values (or `undefined` when there is none). Plain objects and arrays are copied only along
 * branches that hold a complex value. Plain scalars (strings, booleans, finite numbers, null)
 * are passed over without a call, and a path string is built only when a tag is recorded: the
 * keys leading to the current container are kept on a stack.
 */
export function serializeValue(value: unknown, basePath = ''): { json: unknown; values?: Record<string, unknown> } {
    let values: Record<string, unknown> | undefined;
    const keys: (string | number)[] = [];
    let depth = 0;

    // the tags of a non-plain value, or undefined; `encoded` receives its JSON form
    let encoded: unknown;
    const tagOf = (v: unknown): readonly unknown[] | undefined => {
        if (typeof v !== 'object') {
            if (typeof v === 'bigint') {
                encoded = v.toString();
                return BIGINT_TAGS;
            }
            if (typeof v === 'number' && !isPlainNumber(v)) {
                encoded = taggedNumberText(v);
                return NUMBER_TAGS;
            }
            return undefined;
        }
        if (v instanceof Date) {
            // an invalid date (a stored text no parser reads) is a JSON null with no tag, as superjson writes it: a
            // client would restore a tagged null as 1970-01-01
            if (Number.isNaN(v.getTime())) {
                encoded = null;
                return NO_TAGS;
            }
            encoded = isoString(v);
            return DATE_TAGS;
        }
        if (v instanceof Uint8Array) {
            encoded = encodeBytes(v);
            return BYTES_TAGS;
        }
        if (Decimal.isDecimal(v)) {
            // valueOf: toString, but keeping the sign of a negative zero, as decimal.js's toJSON (and so 2.x) writes it
            encoded = (v as Decimal).valueOf();
            return DECIMAL_TAGS;
        }
        if (v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) {
            const nullName = jsonNullNameOf(v);
            if (nullName) {
                encoded = null;
                return JSON_NULL_TAGS[nullName];
            }
        }
        return undefined;
    };

    // encodes the child `key` of the container at the current depth
    const child = (v: unknown, key: string | number): unknown => {
        if (!mayNeedEncoding(v)) {
            return v;
        }
        const tags = tagOf(v);
        if (tags) {
            if (tags !== NO_TAGS) (values ??= {})[pathOf(basePath, keys, depth, key)] = tags;
            return encoded;
        }
        // what is left is an object: a bigint or a non-finite number always has tags
        keys[depth++] = key;
        const out = container(v as object);
        depth--;
        return out;
    };

    const container = (v: object): unknown => {
        if (Array.isArray(v)) {
            let out: unknown[] | undefined;
            for (let i = 0; i < v.length; i++) {
                const item: unknown = v[i];
                const enc = child(item, i);
                if (enc !== item && !out) {
                    out = v.slice(0, i);
                }
                if (out) {
                    out.push(enc);
                }
            }
            return out ?? v;
        }
        let out: Record<string, unknown> | undefined;
        const record = v as Record<string, unknown>;
        // for-in reads the object's cached key list; Object.keys allocated a copy of it per record, a
        // thousand arrays for a page of a thousand rows. Plain JSON values are passed over before the
        // own-property test (an inherited key is never copied, as with Object.keys)
        for (const key in record) {
            const item = record[key];
            if (!mayNeedEncoding(item) || !hasOwn(record, key)) continue;
            const enc = child(item, key);
            if (enc !== item) {
                // a spread copy keeps the key order; only the encoded values are replaced
                (out ??= { ...record })[key] = enc;
            }
        }
        return out ?? v;
    };

    let json: unknown = value;
    const tags = tagOf(value);
    if (tags) {
        if (tags !== NO_TAGS) values = { [basePath]: tags };
        json = encoded;
    } else if (value !== null && typeof value === 'object') {
        json = container(value);
    }
    return values ? { json, values } : { json };
}

export interface DeserializeOptions {
    /**
     * Supplies the value for a Json null marker tagged `["custom","DbNull"|"JsonNull"|"AnyNull"]`
     * (typically the matching `Prisma.*Null` object of the client's runtime). Without it such
     * tags are rejected with a CodecError. The JSON value at a tagged path must be `null` or the
     * marker's name.
     */
    jsonNull?: (name: JsonNullName, path: string) => unknown;
}

function defineValue(container: object, key: string, value: unknown): void {
    // defined, not assigned: a key named `__proto__` stays a key
    Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Writes values at existing dotted paths of a tree and leaves the tree itself untouched: an array or object on a
 * path is copied the first time a write goes through it, and later writes change that copy in place. (Copying the
 * whole path for every write cost the size of a large array once per place written in it: 20,000 Json null tags
 * in one createMany took 14 s of CPU, 40,000 referentialEqualities places in one array 13 s, the process
 * answering nothing meanwhile.) `root` is the tree as written so far.
 */
export class PathWriter {
    private readonly owned = new WeakSet<object>();

    constructor(public root: unknown) {}

    /** Replaces the value at `path` (`parts`: the path split), which must exist; a CodecError otherwise. */
    set(path: string, value: unknown, parts: readonly string[] = splitPath(path)): void {
        this.root = this.own(this.root, path, parts[0]);
        let node = this.root as object;
        for (let i = 0; i < parts.length - 1; i++) {
            const child = this.own((node as Record<string, unknown>)[parts[i]], path, parts[i + 1]);
            defineValue(node, parts[i], child);
            node = child;
        }
        defineValue(node, parts[parts.length - 1], value);
    }

    /** `node`, which must hold `key`, as a container of this writer's own. */
    private own(node: unknown, path: string, key: string): object {
        if (node === null || typeof node !== 'object' || !holdsKey(node, key)) {
            throw new CodecError(`serialization path "${path}" does not match a value`, path);
        }
        if (this.owned.has(node)) return node;
        const copy: object = Array.isArray(node) ? node.slice() : { ...node };
        this.owned.add(copy);
        return copy;
    }
}

const isByte = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255;

/**
 * Whether a tag list is superjson's own `[["typed-array","Uint8Array"]]`: its form of Bytes, which
 * clients of `@zenstackhq/server` 2.x send where no Buffer exists. Accepted on input, never written.
 */
export function isUint8ArrayTag(tags: unknown): boolean {
    const tag = Array.isArray(tags) && tags.length === 1 ? tags[0] : undefined;
    return Array.isArray(tag) && tag.length === 2 && tag[0] === 'typed-array' && tag[1] === 'Uint8Array';
}

/**
 * superjson's `["typed-array", …]` tags: only `Uint8Array`, and only over an array of integers
 * 0–255: superjson itself would store 300 as 44 and a string as no bytes at all.
 */
function checkTypedArrays(json: unknown, values: Record<string, unknown>): void {
    for (const [path, tags] of Object.entries(values)) {
        const tag = (tags as unknown[])[0];
        if (!Array.isArray(tag) || tag[0] !== 'typed-array') continue;
        if (!isUint8ArrayTag(tags)) {
            throw new CodecError(`unsupported serialization type ${JSON.stringify(tags)} at "${path}"`, path);
        }
        const value = getPath(json, path);
        if (!Array.isArray(value) || !value.every(isByte)) {
            throw new CodecError(`the value tagged Uint8Array at "${path}" must be an array of integers from 0 to 255`, path);
        }
    }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a serialization path names a key that would reach an object's prototype if some layer assigned it. */
export function isForbiddenPath(path: string): boolean {
    return path.split('.').some((k) => FORBIDDEN_KEYS.has(k));
}

/** Negative zero, NaN and the infinities: the numbers superjson tags (as these texts). */
const TAGGED_NUMBERS: ReadonlySet<string> = new Set(['-0', 'NaN', 'Infinity', '-Infinity']);

/** Whether `value` is what superjson writes for a value of the simple type `tag`; other tags are not checked here. */
function isSimpleValue(tag: unknown, value: unknown): boolean {
    switch (tag) {
        case 'bigint':
            return (typeof value === 'string' && BIGINT_STRING.test(value)) || (typeof value === 'number' && Number.isSafeInteger(value));
        case DATE_TAG:
            return typeof value === 'string' && TAGGED_DATE.test(value);
        case 'number':
            return (typeof value === 'string' && TAGGED_NUMBERS.has(value)) || typeof value === 'number';
        default:
            return true;
    }
}

/**
 * The values of the simple tags superjson would hand to `BigInt`, `new Date` and `Number`, which take far more than
 * it writes: `""` and `true` became 0n and 1n, a null tagged Date 1970-01-01 and `"0x7"` the number 7, all stored.
 * Each must be in the form superjson writes (a date-time with its offset).
 */
function checkSimpleValues(json: unknown, values: Record<string, unknown>): void {
    for (const [path, tags] of Object.entries(values)) {
        const tag = (tags as unknown[])[0];
        // a simple tag's node, whatever follows it (superjson also takes `["bigint", {}]`, its tree form of a node,
        // and converts it the same)
        if (typeof tag !== 'string') continue;
        const value = getPath(json, path);
        if (value !== undefined && !isSimpleValue(tag, value)) {
            throw new CodecError(`invalid ${tag === DATE_TAG ? 'DateTime (an ISO 8601 date-time with its offset)' : tag} value at "${path}"`, path);
        }
    }
}

/**
 * Restores typed values in `json` from superjson-style serialization metadata.
 * Invalid metadata or values raise a CodecError (never a 500).
 */
export function deserializeValue(json: unknown, meta: unknown, options: DeserializeOptions = {}): unknown {
    if (meta === undefined || meta === null) {
        return json;
    }
    if (!isObject(meta)) {
        throw new CodecError('serialization metadata must be an object');
    }
    const values = meta.values;
    if (values === undefined) {
        return json;
    }
    if (!isObject(values)) {
        throw new CodecError('serialization metadata "values" must be an object');
    }
    for (const [path, tags] of Object.entries(values)) {
        if (!Array.isArray(tags) || tags.length === 0) {
            throw new CodecError(`invalid serialization tags for path "${path}"`, path);
        }
        if (isForbiddenPath(path)) {
            throw new CodecError(`forbidden serialization path "${path}"`, path);
        }
    }
    checkTypedArrays(json, values);
    checkSimpleValues(json, values);
    let typed: Record<string, unknown> = values;
    const nulls: { path: string; name: JsonNullName }[] = [];
    for (const [path, tags] of Object.entries(values)) {
        const name = jsonNullTagName(tags);
        if (name) {
            if (!options.jsonNull) {
                throw new CodecError(`Json null markers are not accepted here (path "${path}")`, path);
            }
            nulls.push({ path, name });
        }
    }
    if (nulls.length > 0) {
        typed = { ...values };
        for (const { path } of nulls) {
            delete typed[path];
        }
    }
    let result: unknown = json;
    try {
        if (Object.keys(typed).length > 0) {
            result = superjson.deserialize({ json: json as never, meta: { values: typed } as never });
        }
    } catch (err) {
        if (err instanceof CodecError) {
            throw err;
        }
        throw new CodecError(`invalid serialized value: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const [path, tags] of Object.entries(values)) {
        if ((tags as unknown[])[0] === DATE_TAG) {
            const restored = getPath(result, path);
            const text = getPath(json, path);
            if (restored instanceof Date && (Number.isNaN(restored.getTime()) || (typeof text === 'string' && !isRealDay(text.trim())))) {
                throw new CodecError(`invalid DateTime value at "${path}"`, path);
            }
        }
    }
    const writer = new PathWriter(result);
    for (const { path, name } of nulls) {
        const current = getPath(writer.root, path);
        if (current === undefined) {
            throw new CodecError(`serialization path "${path}" does not match a value`, path);
        }
        if (current !== null && current !== name) {
            throw new CodecError(`the value tagged ${name} at "${path}" must be null`, path);
        }
        const jsonNull = options.jsonNull as NonNullable<DeserializeOptions['jsonNull']>;
        writer.set(path, jsonNull(name, path));
    }
    return writer.root;
}

/**
 * Splits a superjson dotted path as superjson 1.x (what ZenStack 2.x and its clients use) does: `\.` is a dot
 * inside a key, any other backslash is itself (`a\b` is the key `a\b`, not `ab`).
 */
export function splitPath(path: string): string[] {
    const parts: string[] = [];
    let current = '';
    for (let i = 0; i < path.length; i++) {
        const ch = path[i];
        if (ch === '\\' && path[i + 1] === '.') {
            current += '.';
            i++;
        } else if (ch === '.') {
            parts.push(current);
            current = '';
        } else {
            current += ch;
        }
    }
    parts.push(current);
    return parts;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * Whether `key` names a value held by `container`: an own property, and in an array an element (superjson reads a
 * key of an array as its index: `length` names nothing there, though it is an own property).
 */
function holdsKey(container: object, key: string): boolean {
    if (Array.isArray(container) && !ARRAY_INDEX.test(key)) return false;
    return Object.prototype.hasOwnProperty.call(container, key);
}

/** Reads a value at a dotted path; own properties only, elements only in arrays. */
export function getPath(root: unknown, path: string): unknown {
    return getPathParts(root, splitPath(path));
}

/**
 * superjson 1.x (what ZenStack's client hooks serialize with) escapes the dots of the keys on the way to a typed value,
 * but not those of the value's own key: a Date under the Json key `a.b` is tagged at `data.json.a.b`. For a path that
 * resolves nowhere, the path read that way, escaped (`data.json.a\.b`): where the walk finds no key, the rest of the
 * path is taken as one key, which must hold the value. `undefined` when that names nothing either.
 */
export function withDottedLastKey(root: unknown, path: string): string | undefined {
    const parts = splitPath(path);
    let current: unknown = root;
    for (let i = 0; i < parts.length - 1; i++) {
        if (current === null || typeof current !== 'object') return undefined;
        if (!holdsKey(current, parts[i])) {
            const last = parts.slice(i).join('.');
            if (Array.isArray(current) || !holdsKey(current, last)) return undefined;
            return [...parts.slice(0, i), last].map(escapePathKey).join('.');
        }
        current = (current as Record<string, unknown>)[parts[i]];
    }
    return undefined;
}

/** `getPath` of a path already split (`splitPath`). */
export function getPathParts(root: unknown, parts: readonly string[]): unknown {
    let current: unknown = root;
    for (const key of parts) {
        if (current === null || typeof current !== 'object' || !holdsKey(current, key)) {
            return undefined;
        }
        current = (current as Record<string, unknown>)[key];
    }
    return current;
}
