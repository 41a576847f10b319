import { declaredLength, EMPTY_BODY, parseJsonBytes, tooLarge, unsupportedEncoding, type BodyResult } from '../shared/request';

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

/**
 * The JSON body of a Fetch `Request`, within `limit` bytes. Whatever the content type (JSON:API's
 * `application/vnd.api+json` included), a non-empty body must be JSON.
 */
export async function readFetchBody(request: Request, limit: number): Promise<BodyResult> {
    if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) {
        return EMPTY_BODY;
    }
    const encoded = unsupportedEncoding(request.headers.get('content-encoding'));
    if (encoded) {
        return encoded;
    }
    const declared = declaredLength(request.headers.get('content-length'));
    if (declared !== undefined && declared > limit) {
        return tooLarge(limit);
    }
    if (request.bodyUsed) {
        throw new Error('the request body was already read by another handler before the ZenStack adapter');
    }
    let bytes: Uint8Array | 'too-large';
    try {
        bytes = await readLimited(request.body, limit);
    } catch {
        return { ok: false, status: 400, message: 'the request body could not be read' };
    }
    return bytes === 'too-large' ? tooLarge(limit) : parseJsonBytes(bytes);
}

/** Checks the size of a body another layer has already buffered, then parses it. */
export function parseBufferedBody(bytes: ArrayBuffer | Uint8Array, limit: number): BodyResult {
    const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    return view.byteLength > limit ? tooLarge(limit) : parseJsonBytes(view);
}
