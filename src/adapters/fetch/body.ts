import { BODY_NOT_READ, declaredLength, EMPTY_BODY, parseJsonBytes, tooLarge, unsupportedEncoding, type BodyResult } from '../shared/request';

function concat(chunks: Uint8Array[], size: number): Uint8Array {
    if (chunks.length === 1) {
        return chunks[0];
    }
    const out = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.byteLength;
    }
    return out;
}

/** Reads a web stream up to `limit` bytes; stops (and cancels the stream) as soon as it is exceeded. */
export async function readLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | 'too-large'> {
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
        const { done, value } = await reader.read();
        if (done) {
            break;
        }
        size += value.byteLength;
        if (size > limit) {
            await reader.cancel().catch(() => undefined);
            return 'too-large';
        }
        chunks.push(value);
    }
    return concat(chunks, size);
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

/**
 * What the head of a request already tells of its body, before anything reads it: no body to read (a `GET` or
 * `HEAD`, whose body no handler reads, or a declared length of 0), or a refusal (a compressed body: 415; a declared length over `limit`:
 * 413). `undefined` when the body has to be read.
 */
export function bodyFromHead(method: string, headers: Headers, limit: number): BodyResult | undefined {
    const declared = declaredLength(headers.get('content-length'));
    if (BODYLESS_METHODS.has(method.toUpperCase()) || declared === 0) {
        return EMPTY_BODY;
    }
    const encoded = unsupportedEncoding(headers.get('content-encoding'));
    if (encoded) {
        return encoded;
    }
    return declared !== undefined && declared > limit ? tooLarge(limit) : undefined;
}

/** What a web request tells of its body without reading it (`bodyFromHead`; no stream: empty). */
export function knownBody(request: Request, limit: number): BodyResult | undefined {
    return request.body === null ? EMPTY_BODY : bodyFromHead(request.method, request.headers, limit);
}

/** Why a web request whose body something consumed without leaving a copy cannot be served (a logged 500). */
export const BODY_ALREADY_READ_MESSAGE =
    'the request body was already read (by getPrisma, or by another handler before the ZenStack adapter); ' +
    'read a copy instead (`await request.clone().json()`)';

/**
 * The JSON body of a Fetch `Request`, within `limit` bytes. Whatever the content type (JSON:API's
 * `application/vnd.api+json` included), a non-empty body must be JSON. `keep` receives the bytes read, for a
 * framework that hands them to whoever reads the body after the adapter (Hono's body cache).
 */
export async function readFetchBody(request: Request, limit: number, keep?: (bytes: Uint8Array) => void): Promise<BodyResult> {
    const known = knownBody(request, limit);
    const stream = request.body;
    if (known || stream === null) {
        return known ?? EMPTY_BODY;
    }
    if (request.bodyUsed) {
        throw new Error(BODY_ALREADY_READ_MESSAGE);
    }
    let bytes: Uint8Array | 'too-large';
    try {
        bytes = await readLimited(stream, limit);
    } catch {
        return BODY_NOT_READ;
    }
    if (bytes === 'too-large') {
        return tooLarge(limit);
    }
    keep?.(bytes);
    return parseJsonBytes(bytes);
}

/** Checks the size of a body another layer has already buffered, then parses it. */
export function parseBufferedBody(bytes: ArrayBuffer | Uint8Array, limit: number): BodyResult {
    const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    return view.byteLength > limit ? tooLarge(limit) : parseJsonBytes(view);
}
