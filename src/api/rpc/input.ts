import { describeValue } from '../common/json-storable';
import { deserializeValue, getPath, isUint8ArrayTag, jsonNullTagName, withDottedLastKey, type JsonNullName } from '../common/codec';
import { utf8Text } from '../common/bytes';
import { BadRequestError } from '../common/errors';
import { isPlainObject } from '../common/guards';
import { applyReferentialEqualities } from '../common/referential-equalities';
import { JsonNullIndex } from './json-null-index';

/**
 * Reading an operation's arguments from a request: `q`/`meta` query parameters (GET, DELETE) or
 * the JSON body with its optional top-level `meta` (other methods), then restoring typed values
 * from the serialization metadata. Every failure is a BadRequestError/CodecError (400).
 */

export type Args = Record<string, unknown>;

/** Arguments as received: plain JSON plus the optional superjson metadata (`meta.serialization`). */
export interface RawArgs {
    json: Args;
    serialization?: Record<string, unknown>;
    /** The items of the filter lists in `json` (`FILTER_LISTS`), counted by `assertSafeJson` (none when absent). */
    listed?: number;
}

/** A Json null marker found in the arguments, by its (argument-relative) path. */
export interface JsonNullSlot {
    path: string;
    name: JsonNullName;
}

/** Nesting deeper than this is refused: no real query needs it, and it protects recursive code downstream. */
export const MAX_ARGS_DEPTH = 100;

const SIMPLE_TAGS: ReadonlySet<string> = new Set(['Date', 'bigint', 'undefined', 'number']);
const CUSTOM_TAGS: ReadonlySet<string> = new Set(['Decimal', 'Bytes', 'DbNull', 'JsonNull', 'AnyNull']);


/**
 * The filter operators whose value is a list of values or of conditions (`in`, `OR` …): the ORM binds or compiles
 * each item on its own, so their items are what `maxFilterValues` bounds (arg-size.ts). Counted wherever such a key
 * holds a list, as `assertSafeJson` walks the arguments anyway.
 */
export const FILTER_LISTS: ReadonlySet<string> = new Set(['in', 'notIn', 'hasSome', 'hasEvery', 'AND', 'OR', 'NOT']);

/**
 * Refuses `__proto__` keys (they turn into prototype changes as soon as some layer copies the
 * object with assignment) and excessive nesting. Iterative, so hostile input cannot overflow the stack.
 * Returns the number of items of the filter lists (`FILTER_LISTS`) met on the way.
 */
export function assertSafeJson(value: unknown, what: string): number {
    let listed = 0;
    const values: unknown[] = [value];
    const depths: number[] = [0];
    while (values.length > 0) {
        const v = values.pop();
        const depth = depths.pop() as number;
        if (v === null || typeof v !== 'object') {
            continue;
        }
        if (depth > MAX_ARGS_DEPTH) {
            throw new BadRequestError(`${what} is nested too deeply`);
        }
        // only what can nest is pushed: an `in` list of 500,000 values costs nothing per value
        if (Array.isArray(v)) {
            for (const item of v) {
                if (typeof item !== 'object' || item === null) continue;
                values.push(item);
                depths.push(depth + 1);
            }
            continue;
        }
        for (const key of Object.keys(v)) {
            if (key === '__proto__') {
                throw new BadRequestError(`${what} must not contain a "__proto__" key`);
            }
            const item = (v as Record<string, unknown>)[key];
            if (typeof item !== 'object' || item === null) continue;
            if (Array.isArray(item) && FILTER_LISTS.has(key)) listed += item.length;
            values.push(item);
            depths.push(depth + 1);
        }
    }
    return listed;
}

/**
 * The one text value of a query parameter. A handler called directly may get a query a framework parsed
 * itself (qs turns `q[where][id]=1` into an object): anything but JSON text is a 400, not a crash.
 */
function single(value: unknown, name: string): string | undefined {
    let one = value;
    if (Array.isArray(value)) {
        if (value.length > 1) {
            throw new BadRequestError(`query parameter "${name}" must be given once`);
        }
        one = value[0];
    }
    if (one !== undefined && typeof one !== 'string') {
        throw new BadRequestError(`invalid "${name}" query parameter: must be JSON text`);
    }
    return one;
}

function parseJsonText(text: string, what: string): unknown {
    try {
        return JSON.parse(text);
    } catch {
        // a client may have encoded the value twice
        if (text.includes('%')) {
            try {
                return JSON.parse(decodeURIComponent(text));
            } catch {
                // fall through
            }
        }
        throw new BadRequestError(`invalid ${what}: not valid JSON`);
    }
}

/** `meta` must be `{ serialization?: {...} }` and nothing else. */
function readMetaEnvelope(meta: unknown, what: string): Record<string, unknown> | undefined {
    if (meta === undefined || meta === null) {
        return undefined;
    }
    if (!isPlainObject(meta)) {
        throw new BadRequestError(`invalid ${what}: must be an object like {"serialization": {...}}`);
    }
    for (const key of Object.keys(meta)) {
        if (key !== 'serialization') {
            throw new BadRequestError(`invalid ${what}: unexpected member "${key}", only "serialization" is allowed`);
        }
    }
    const serialization = meta.serialization;
    if (serialization === undefined || serialization === null) {
        return undefined;
    }
    if (!isPlainObject(serialization)) {
        throw new BadRequestError(`invalid ${what}: "serialization" must be an object`);
    }
    assertSafeJson(serialization, what);
    return serialization;
}

/**
 * Arguments of a GET/DELETE operation: `q` (JSON object) and optional `meta` (`{"serialization": …}`). The
 * metadata may also come as the `meta` member of `q`, the envelope of a body (no operation takes a `meta`
 * argument; 2.x read it there too), but not in both places.
 */
export function readQueryArgs(query: Record<string, unknown> | undefined): RawArgs {
    const q = single(query?.q, 'q');
    let json: Args = {};
    let inner: unknown;
    let listed = 0;
    if (q !== undefined && q !== '') {
        const parsed = parseJsonText(q, '"q" query parameter');
        if (!isPlainObject(parsed)) {
            throw new BadRequestError('invalid "q" query parameter: must be a JSON object');
        }
        listed = assertSafeJson(parsed, '"q" query parameter');
        if (Object.prototype.hasOwnProperty.call(parsed, 'meta')) ({ meta: inner, ...json } = parsed);
        else json = parsed;
    }
    const metaText = single(query?.meta, 'meta');
    const outer = metaText === undefined || metaText === '' ? null : parseJsonText(metaText, '"meta" query parameter');
    if (outer === null) {
        return { json, serialization: readMetaEnvelope(inner, '"meta" of the "q" query parameter'), listed };
    }
    if (inner !== undefined && inner !== null) {
        throw new BadRequestError('serialization metadata given both in the "meta" query parameter and as the "meta" member of "q": send it once');
    }
    return { json, serialization: readMetaEnvelope(outer, '"meta" query parameter'), listed };
}

/**
 * The body's value: bytes handed over unread are parsed as JSON. A string is the value of a JSON string literal
 * (what the adapters hand over for one, as 2.x's do), never parsed a second time: `"{\"data\":…}"` was run as the
 * arguments inside it, where 2.x refuses a string. An empty string (no body) is none.
 */
export function bodyValue(body: unknown): unknown {
    if (typeof body === 'string') {
        return body === '' ? undefined : body;
    }
    if (body instanceof Uint8Array) {
        return body.byteLength === 0 ? undefined : parseJsonText(utf8Text(body), 'request body');
    }
    return body;
}

/** Whether a request body carries anything (not absent, empty, `null` or `{}`); malformed JSON is a 400. */
export function bodyHasContent(requestBody: unknown): boolean {
    const body = bodyValue(requestBody);
    if (body === undefined || body === null) return false;
    return !(isPlainObject(body) && Object.keys(body).length === 0);
}

/**
 * Arguments from a JSON body object. Its optional top-level `meta` must be `{ serialization }` and
 * is removed from the arguments handed to the client.
 */
export function readBodyArgs(requestBody: unknown, required: boolean, what = 'request body'): RawArgs {
    const body = bodyValue(requestBody);
    if (body === undefined || body === null) {
        if (required) {
            throw new BadRequestError(`missing ${what}`);
        }
        return { json: {}, listed: 0 };
    }
    if (!isPlainObject(body)) {
        throw new BadRequestError(`invalid ${what}: must be a JSON object, not ${describeValue(body)}`);
    }
    const listed = assertSafeJson(body, what);
    if (!Object.prototype.hasOwnProperty.call(body, 'meta')) {
        return { json: body, listed };
    }
    const { meta, ...json } = body;
    return { json, serialization: readMetaEnvelope(meta, `"meta" of the ${what}`), listed };
}

function isAllowedTag(tags: unknown): boolean {
    if (!Array.isArray(tags) || tags.length !== 1) {
        return false;
    }
    const tag = tags[0];
    if (typeof tag === 'string') {
        return SIMPLE_TAGS.has(tag);
    }
    return (Array.isArray(tag) && tag.length === 2 && tag[0] === 'custom' && typeof tag[1] === 'string' && CUSTOM_TAGS.has(tag[1])) || isUint8ArrayTag(tags);
}

/**
 * Checks every tagged path and makes it relative to the arguments: a path that does not resolve
 * in the arguments but does inside `data` (the spec's example: `bytes` for `data.bytes`) is
 * rewritten. Tags outside the supported set are refused before superjson sees them.
 */
function normalizeValues(json: Args, values: Record<string, unknown>): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const [path, tags] of Object.entries(values)) {
        if (!isAllowedTag(tags)) {
            throw new BadRequestError(`unsupported serialization type ${JSON.stringify(tags)} at "${path}"`);
        }
        const inData = json.data !== null && typeof json.data === 'object';
        if (getPath(json, path) !== undefined) {
            result[path] = tags;
        } else if (inData && getPath(json.data, path) !== undefined) {
            result[`data.${path}`] = tags;
        } else {
            // a Json key holding dots, as superjson 1.x writes it at the end of a path (unescaped)
            const top = withDottedLastKey(json, path);
            const nested = top === undefined && inData ? withDottedLastKey(json.data, path) : undefined;
            if (top !== undefined) result[top] = tags;
            else if (nested !== undefined) result[`data.${nested}`] = tags;
            else if ((tags as unknown[])[0] !== 'undefined') {
                throw new BadRequestError(`serialization path "${path}" does not match a value in the arguments`);
            }
        }
    }
    return result;
}

/**
 * Restores the typed values of the arguments. Json null markers are set to their names
 * (`"DbNull"` …, the form ZenStack's zod schemas expect) and listed, so that the caller can swap
 * in the client runtime's objects after validation. `listed` counts the items of filter lists, those
 * of the lists `referentialEqualities` restore included.
 */
export function decodeArgs(raw: RawArgs): { args: Args; jsonNulls: JsonNullSlot[]; listed: number } {
    const decoded = decodeValues(raw);
    const refs = raw.serialization?.referentialEqualities;
    if (refs === undefined || refs === null) return { ...decoded, listed: raw.listed ?? 0 };
    const { args, jsonNulls } = decoded;
    let listed = raw.listed ?? 0;
    // after the typed values: a repeated place gets the restored value of its first place, as superjson does;
    // Json null markers at or under the first place are listed for the copy too
    const index = new JsonNullIndex(jsonNulls);
    const restored = applyReferentialEqualities(
        args,
        refs,
        MAX_ARGS_DEPTH,
        (source, target) => {
            // a copy of the list: the slots added lie under the target, which may lie under the source
            for (const slot of [...index.under(source)]) index.add({ path: target + slot.path.slice(source.length), name: slot.name });
        },
        (key, items) => {
            if (FILTER_LISTS.has(key)) listed += items;
        },
    );
    return { args: restored, jsonNulls, listed };
}

function decodeValues(raw: RawArgs): { args: Args; jsonNulls: JsonNullSlot[] } {
    const values = raw.serialization?.values;
    if (values === undefined || values === null) {
        return { args: raw.json, jsonNulls: [] };
    }
    if (!isPlainObject(values)) {
        throw new BadRequestError('invalid serialization metadata: "values" must be an object');
    }
    const normalized = normalizeValues(raw.json, values);
    const jsonNulls: JsonNullSlot[] = [];
    for (const [path, tags] of Object.entries(normalized)) {
        const name = jsonNullTagName(tags);
        if (name) {
            jsonNulls.push({ path, name });
        }
    }
    const args = deserializeValue(raw.json, { values: normalized }, { jsonNull: (name) => name }) as Args;
    return { args, jsonNulls };
}
