import type { IncomingMessage } from 'node:http';
import { BODY_NOT_READ, declaredLength, EMPTY_BODY, fromParsedBody, parseJsonBytes, tooLarge, unsupportedEncoding, type BodyResult } from '../shared/request';

/** A Node request as frameworks leave it: possibly with a body some middleware already parsed. */
export type NodeRequest = IncomingMessage & { body?: unknown; _body?: boolean };

/**
 * Whether `req` is a readable stream. What stands in for a request in an application's unit tests (a
 * `node-mocks-http` request, a plain object) is not: it never emits `data`/`end`, and its `body` is the body.
 */
export function isReadableRequest(req: unknown): boolean {
    const r = req as { on?: unknown; read?: unknown; resume?: unknown } | null;
    return typeof r?.on === 'function' && typeof r.read === 'function' && typeof r.resume === 'function';
}

/** True when a framework (body-parser, Next.js …) has consumed the stream, or there is none, so `req.body` is all there is. */
export function isBodyConsumed(req: NodeRequest): boolean {
    return req._body === true || req.readableEnded || !isReadableRequest(req);
}

/**
 * Whether the request was destroyed before its body was read to the end: its client went away (Node destroys a
 * request whose connection closes before it is answered) while something else ran first (an application's async
 * middleware or auth, `getPrisma`). Such a stream emits nothing more, not even `end` or `error`, to a listener
 * attached now: whoever waits for them waits for ever.
 */
export function isCutOff(req: IncomingMessage): boolean {
    return req.destroyed === true && req.readableEnded !== true;
}

/** Reads the rest of a Node request stream up to `limit` bytes. */
export function readNodeStream(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
    if (isCutOff(req)) {
        return Promise.resolve('aborted');
    }
    return new Promise((resolve) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const cleanup = () => {
            req.off('data', onData);
            req.off('end', onEnd);
            req.off('error', onError);
            req.off('aborted', onError);
            req.off('close', onClose);
        };
        const onData = (chunk: Buffer | string) => {
            const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
            size += buf.byteLength;
            if (size > limit) {
                cleanup();
                req.resume(); // discard the rest; the 413 is sent without waiting for it
                resolve('too-large');
                return;
            }
            chunks.push(buf);
        };
        const onEnd = () => {
            cleanup();
            resolve(Buffer.concat(chunks, size));
        };
        const onError = () => {
            cleanup();
            resolve('aborted');
        };
        // destroyed without an error (`req.destroy()`): `close` before `end`
        const onClose = () => {
            if (!req.readableEnded) onError();
        };
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
        req.on('aborted', onError);
        req.on('close', onClose);
    });
}

/**
 * The JSON body of a Node request within `limit` bytes: taken from `req.body` when a framework has
 * already parsed the stream (JSON object, or text/bytes that are parsed here), else read from the stream.
 */
export async function readNodeBody(req: NodeRequest, limit: number): Promise<BodyResult> {
    if (req.method === 'GET' || req.method === 'HEAD') {
        // as the Fetch adapters do: no handler reads a GET body, so a malformed or large one is not an error
        if (!isBodyConsumed(req)) req.resume();
        return EMPTY_BODY;
    }
    if (isBodyConsumed(req)) {
        return req.body === undefined ? EMPTY_BODY : fromParsedBody(req.body, limit, req.headers?.['content-type']);
    }
    const encoded = unsupportedEncoding(req.headers['content-encoding']);
    if (encoded) {
        req.resume(); // discard it
        return encoded;
    }
    const declared = declaredLength(req.headers['content-length']);
    if (declared !== undefined && declared > limit) {
        return tooLarge(limit);
    }
    const bytes = await readNodeStream(req, limit);
    if (bytes === 'too-large') {
        return tooLarge(limit);
    }
    if (bytes === 'aborted') {
        return BODY_NOT_READ;
    }
    return parseJsonBytes(bytes);
}
