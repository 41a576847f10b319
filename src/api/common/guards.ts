/**
 * A JSON object: what a request's arguments, filters and documents are made of. Typed values decoded from the
 * serialization metadata (a Date, a Decimal, a Buffer, the client's null markers) are objects to JavaScript but
 * values to the protocol: none of them is one (see `isPlainObject`). A walk that took them for objects read a
 * Date filter (`createdAt: <Date>`) as the empty condition `{}` and dropped it, so `deleteMany` deleted every row.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
    return isPlainObject(value);
}

/** Own-property test that never consults the prototype chain. */
export function hasOwn(obj: object, key: string): boolean {
    return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Nesting depth of a JSON value: a scalar is 0, `{}`/`[]` is 1, `{ a: { b: 1 } }` is 2. Stops counting past `limit`. */
export function nestingDepth(value: unknown, limit: number): number {
    if (value === null || typeof value !== 'object') {
        return 0;
    }
    if (limit <= 0) {
        return 1;
    }
    let deepest = 0;
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
        deepest = Math.max(deepest, nestingDepth(item, limit - 1));
        if (deepest >= limit) break;
    }
    return 1 + deepest;
}

/**
 * The keys leading to the first `__proto__` key in a parsed JSON value, or undefined. Such a key is an own
 * property after `JSON.parse`, but turns into a prototype change wherever a layer copies the value by
 * assignment (ZenStack's policy layer clones arguments that way: a Json value sent with one was stored
 * without it, its members merged into the object). Call on values whose depth is already bounded.
 */
export function protoKeyPath(value: unknown): string[] | undefined {
    // one path, extended and shortened as the walk goes: nothing is copied unless a key is found
    const path: string[] = [];
    const visit = (v: unknown): boolean => {
        if (v === null || typeof v !== 'object') return false;
        if (Array.isArray(v)) {
            for (let i = 0; i < v.length; i++) {
                path.push(String(i));
                if (visit(v[i])) return true;
                path.pop();
            }
            return false;
        }
        for (const key of Object.keys(v)) {
            path.push(key);
            if (key === '__proto__' || visit((v as Record<string, unknown>)[key])) return true;
            path.pop();
        }
        return false;
    };
    return visit(value) ? path : undefined;
}

export const INT32_MAX = 2147483647;

/** A value Prisma's `Int` (32-bit signed on every provider) can hold. */
export function isInt32(value: unknown): value is number {
    return typeof value === 'number' && Number.isInteger(value) && value >= -INT32_MAX - 1 && value <= INT32_MAX;
}

/**
 * An object literal (what JSON parsing makes), of this realm or of another one: a body parsed in a `vm`
 * context, an edge runtime's sandbox or a test environment has that realm's `Object.prototype`, a
 * prototype whose own prototype is null and whose constructor is named `Object`. Class instances
 * (Date, Decimal, Buffer, the client's null markers) are not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return false;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return true;
    if (Object.getPrototypeOf(proto) !== null || !Object.prototype.hasOwnProperty.call(proto, 'constructor')) return false;
    const ctor = (proto as { constructor: unknown }).constructor;
    return typeof ctor === 'function' && ctor.name === 'Object' && (ctor as { prototype?: unknown }).prototype === proto;
}

/** A value that may be one item or a list of them, as a list (`undefined`: none). */
export function many(value: unknown): unknown[] {
    return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/**
 * A stable text of a JSON-like value with BigInts (`8n`) and bytes (`bytes:0a0b`), to compare keys and find duplicates
 * by. Bytes by their content: a `Buffer` (decoded from a request) writes itself `{"type":"Buffer","data":[…]}` and a
 * `Uint8Array` (read from Prisma 6) `{"0":…}`, so that one id never matched itself (found by a review on 2026-12-01).
 */
export function jsonKey(value: unknown): string {
    return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
        if (typeof v === 'bigint') return `${v}n`;
        // the value before its toJSON (a Buffer's), as the holder has it
        const raw = this[key];
        return raw instanceof Uint8Array ? `bytes:${Array.from(raw, (b) => b.toString(16).padStart(2, '0')).join('')}` : v;
    });
}

/** A copy of `object` without its member `name`. */
export function withoutKey(object: Record<string, unknown>, name: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) if (key !== name) out[key] = value;
    return out;
}
