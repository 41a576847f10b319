import { CodecError, deserializeValue, getPath, splitPath } from '../../common/codec';
import { applyReferentialEqualities } from '../../common/referential-equalities';
import { nestingDepth, protoKeyPath } from '../../common/guards';
import { whereById } from '../ids';
import { namesType, type RestModel } from '../schema';
import type { JsonNullLookup } from './values';
import { hasOwn, isObject, payloadError, pointerFromKeys } from './pointer';

/**
 * The outer layers of a JSON:API request document: the top-level object, `meta.serialization`
 * (typed values restored in place, spec §2) and the primary `data` with its `type` and `id`.
 */

const MAX_DEPTH = 256;

/**
 * A copy of a parsed JSON tree made of plain objects and arrays of this realm (superjson only
 * walks plain objects), so that restoring typed values never mutates the caller's body. Recursive:
 * `readDocument` has refused deeper documents than MAX_DEPTH before.
 */
function copyJson(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(copyJson);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
        // defineProperty: a "__proto__" key stays a plain own property
        Object.defineProperty(out, k, { value: copyJson(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
}

/**
 * superjson's Set and Map tags. No attribute or identifier takes a Set or a Map (a Json attribute refuses them), and
 * superjson finds the n-th member of one by counting from the first: a Set of 20,000 members with a tagged path
 * into each took it 2.5 s of CPU (quadratic), to end in a 400 anyway. Refused before superjson sees them.
 */
const COLLECTION_TAGS: ReadonlySet<unknown> = new Set(['set', 'map']);

/** The Set or Map a tag list (or a tree of them: `["map", { "0.1": ["Date"] }]`) names anywhere, if any. */
function namedCollection(tags: unknown): string | undefined {
    const pending: unknown[] = [tags];
    while (pending.length > 0) {
        const v = pending.pop();
        if (Array.isArray(v)) {
            if (COLLECTION_TAGS.has(v[0])) return v[0] === 'set' ? 'Set' : 'Map';
            for (const item of v) pending.push(item);
        } else if (isObject(v)) {
            for (const item of Object.values(v)) pending.push(item);
        }
    }
    return undefined;
}

/** Every tagged path must name a value of the body (superjson would silently skip the others), and no tag a Set or a Map. */
function checkPaths(root: unknown, serialization: unknown): void {
    const values = isObject(serialization) ? serialization.values : undefined;
    if (!isObject(values)) return; // deserializeValue reports malformed metadata
    for (const [path, tags] of Object.entries(values)) {
        if (getPath(root, path) === undefined) {
            throw payloadError('/meta/serialization/values', `meta.serialization: the path "${path}" does not name a value of the document`);
        }
        const collection = namedCollection(tags);
        if (collection) {
            throw payloadError(pointerFromKeys(splitPath(path)), `meta.serialization: "${path}" is tagged as a ${collection}, which no attribute or identifier takes`);
        }
    }
}

/** The request body as an object, with typed values (and Json null markers) restored from `meta.serialization`. */
export function readDocument(body: unknown, jsonNull?: JsonNullLookup): Record<string, unknown> {
    if (!isObject(body)) {
        throw payloadError('', 'the request body must be a JSON:API document (an object with a "data" member)');
    }
    // a Json attribute can hold anything, and the ORM walks values recursively: a deep enough one
    // overflows its stack (levels are counted below the document itself)
    if (nestingDepth(body, MAX_DEPTH + 2) - 1 > MAX_DEPTH) {
        throw payloadError('', `the request document is nested too deeply (more than ${MAX_DEPTH} levels)`);
    }
    const proto = protoKeyPath(body);
    if (proto) {
        throw payloadError(pointerFromKeys(proto), 'a "__proto__" key is not accepted anywhere in the request document');
    }
    if (!hasOwn(body, 'data')) {
        // JSON:API: a pointer names a value the document has (here the document itself)
        throw payloadError('', 'the request document needs a "data" member');
    }
    if (hasOwn(body, 'errors')) {
        // JSON:API: "The members data and errors MUST NOT coexist in the same document"
        throw payloadError('/errors', 'a request document holds "data" or "errors", not both');
    }
    if (!hasOwn(body, 'meta') || body.meta === undefined || body.meta === null) {
        return body;
    }
    if (!isObject(body.meta)) {
        throw payloadError('/meta', '"meta" must be an object');
    }
    const serialization = hasOwn(body.meta, 'serialization') ? body.meta.serialization : undefined;
    if (serialization === undefined || serialization === null) {
        return body;
    }
    try {
        // the paths are relative to the whole body (`data.attributes.bytes`); only `data` is restored,
        // on a copy: the caller's object is left as it was
        const copy = { data: copyJson(body.data) };
        checkPaths(copy, serialization);
        const restored = deserializeValue(copy, serialization, {
            // `["custom","DbNull"]` … tags name Prisma's Json null objects
            jsonNull: (name, path) => {
                const marker = jsonNull?.(name);
                if (marker === undefined) throw new CodecError(`Json null markers are not supported with this client (path "${path}")`, path);
                return marker;
            },
        }) as { data: unknown };
        // a place holding the same value as an earlier one (superjson's dedupe sends it once) gets it back, as 2.x has it
        const shared = applyReferentialEqualities(restored, (serialization as Record<string, unknown>).referentialEqualities, MAX_DEPTH);
        return { ...body, data: shared.data };
    } catch (err) {
        if (err instanceof CodecError) {
            const pointer = err.path ? pointerFromKeys(splitPath(err.path)) : '/meta/serialization';
            throw payloadError(pointer, `meta.serialization: ${err.message}`);
        }
        throw err;
    }
}

/** The primary `data` resource object; checks its `type` against the endpoint's (409 when different). */
export function readPrimaryData(doc: Record<string, unknown>, model: RestModel): Record<string, unknown> {
    const data = doc.data;
    if (!isObject(data)) {
        throw payloadError('/data', 'the primary "data" must be a resource object');
    }
    if (!hasOwn(data, 'type') || typeof data.type !== 'string') {
        throw payloadError(hasOwn(data, 'type') ? '/data/type' : '/data', 'the resource object needs a string "type"');
    }
    if (!namesType(model, data.type)) {
        throw payloadError('/data/type', `the resource type "${data.type}" does not match the endpoint's type "${model.type}"`, 'type-conflict');
    }
    return data;
}

/** A member that may be absent; `undefined` when it is. */
export function optionalMember(obj: Record<string, unknown>, key: string): unknown {
    return hasOwn(obj, key) ? obj[key] : undefined;
}

/** The `data.id` of a resource object as the unique `where` of the record, if given. */
export function readResourceId(data: Record<string, unknown>, model: RestModel, divider: string): Record<string, unknown> | undefined {
    const id = optionalMember(data, 'id');
    if (id === undefined) {
        return undefined;
    }
    if (typeof id !== 'string' && typeof id !== 'number') {
        throw payloadError('/data/id', 'the resource "id" must be a string or a number');
    }
    return whereById(model, id, divider, '/data/id');
}

/** The id field values of a unique `where` made by `whereById` (compound ids are unwrapped). */
export function idFieldValues(model: RestModel, where: Record<string, unknown>): Record<string, unknown> {
    if (model.idFields.length === 1) {
        return where;
    }
    const [compound] = Object.values(where);
    return compound as Record<string, unknown>;
}
