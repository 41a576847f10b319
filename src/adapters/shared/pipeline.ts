import type { Response } from '../../types';
import { retryHeaders } from '../../api/common/errors';
import { describeError, log } from '../../api/common/logger';
import { INTERNAL_ERROR_MESSAGE, messageOfThrown, NO_PRISMA_MESSAGE, renderAdapterError, statusOfThrown } from './errors';
import type { ResolvedAdapter } from './options';
import { parseQuery, type BodyResult, type Query } from './request';

/** Parses a query string unless it is longer than the adapter accepts. */
export function readQuery(adapter: ResolvedAdapter, search: string): { query: Query; queryTooLong?: boolean } {
    const length = search.startsWith('?') ? search.length - 1 : search.length;
    return length > adapter.queryLimit ? { query: {}, queryTooLong: true } : { query: parseQuery(search) };
}

/** One request as every adapter hands it over: already translated, protocol-neutral. */
export interface ApiRequest {
    method: string;
    /** After the mount point, percent-encoded. */
    path: string;
    query: Query;
    /**
     * The body, or how to read it once `getPrisma` has run (as 2.x orders them, so that a `getPrisma` may read
     * the body itself through its framework). A failure given here is answered before `getPrisma` is called.
     */
    body: BodyResult | (() => Promise<BodyResult>);
    /** The query string exceeded the adapter's `queryLimit` (it was not parsed). */
    queryTooLong?: boolean;
}

/** A response ready to write: lower-case header names, body text or none. */
export interface WireResponse {
    status: number;
    headers: Record<string, string>;
    body: string | undefined;
    /** The value `body` is the JSON text of (for a framework that serializes it itself: Fastify's hooks see it). */
    value?: unknown;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const BODYLESS = new Set([204, 205, 304]);

/** A header name: a token (RFC 9110, 5.1). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * What no header value may hold, as Node's HTTP server checks it (stricter than web `Headers`): a control character
 * other than a tab (a CR or LF would split the response), or one beyond Latin-1.
 */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The first header no server could send (a custom handler's `{ 'x a': … }` or `{ 'x-a': 'a\nb' }`), if any. */
function invalidHeader(headers: Record<string, string>): string | undefined {
    return Object.keys(headers).find((name) => !HEADER_NAME.test(name) || INVALID_HEADER_VALUE.test(headers[name]));
}

/**
 * Carries an error thrown by `getPrisma` that is its framework's control flow (a redirect, an HTTP error the
 * framework answers itself) out of the pipeline; the base adapter rethrows `error` to the framework as it is.
 */
export class FrameworkControlFlow {
    constructor(readonly error: unknown) {}
}

/** Which errors of `getPrisma` go back to the framework (see `FrameworkControlFlow`). */
export type RethrowPredicate = (err: unknown) => boolean;

function isControlFlow(rethrow: RethrowPredicate | undefined, err: unknown): boolean {
    if (!rethrow) {
        return false;
    }
    try {
        return rethrow(err) === true;
    } catch {
        return false;
    }
}

function isClient(value: unknown): boolean {
    return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/**
 * The method the handler sees: a `HEAD` is served as the `GET` it stands for (RFC 9110, 9.3.2: the same status
 * and headers, no content), as the frameworks' own routers do; the base adapters leave the body out.
 */
function handlerMethod(method: string): string {
    const upper = method.toUpperCase();
    return upper === 'HEAD' ? 'GET' : upper;
}

/**
 * Runs one request through the handler: rejects an overlong query and a body already known to be bad, obtains
 * the client with `getPrisma` (mapping its failures to a status), then reads the body if it has not been read.
 * Never lets an exception escape, except an error of `getPrisma` that `rethrow` accepts, or of the handler that
 * `rethrowFromHandler` accepts, thrown wrapped in a `FrameworkControlFlow`. (Reading the body may throw: its
 * caller handles that.)
 */
export async function serveApiRequest(
    adapter: ResolvedAdapter,
    req: ApiRequest,
    getPrisma: () => unknown,
    rethrow?: RethrowPredicate,
    rethrowFromHandler?: RethrowPredicate,
): Promise<Response> {
    const { handler, logger } = adapter;
    if (req.queryTooLong) {
        return renderAdapterError(handler, 414, `query string too long (at most ${adapter.queryLimit} characters)`);
    }
    if (typeof req.body !== 'function' && !req.body.ok) {
        return renderAdapterError(handler, req.body.status, req.body.message);
    }
    let prisma: unknown;
    try {
        prisma = await getPrisma();
    } catch (err) {
        if (isControlFlow(rethrow, err)) {
            throw new FrameworkControlFlow(err);
        }
        const status = statusOfThrown(err);
        if (status === undefined || status >= 500) {
            log(logger, 'error', `getPrisma failed: ${describeError(err)}`, 'get-prisma-error');
            return renderAdapterError(handler, status ?? 500, status ? messageOfThrown(err, status) : INTERNAL_ERROR_MESSAGE);
        }
        return renderAdapterError(handler, status, messageOfThrown(err, status));
    }
    if (!isClient(prisma)) {
        // the kind of value only: a string returned by mistake may be the session token or the user's e-mail
        log(logger, 'error', `${NO_PRISMA_MESSAGE}: getPrisma returned ${prisma === null || prisma === undefined ? String(prisma) : `a ${typeof prisma}`}`, 'no-prisma');
        return renderAdapterError(handler, 500, NO_PRISMA_MESSAGE);
    }
    const body = typeof req.body === 'function' ? await req.body() : req.body;
    if (!body.ok) {
        return renderAdapterError(handler, body.status, body.message);
    }
    try {
        const res = await handler({
            method: handlerMethod(req.method),
            path: req.path,
            query: req.query,
            requestBody: body.value,
            prisma: prisma as never,
            modelMeta: adapter.modelMeta,
            zodSchemas: adapter.zodSchemas,
            logger,
        });
        if (!res || !Number.isInteger(res.status) || res.status < 200 || res.status > 599) {
            throw new Error(`the handler returned an invalid response (status ${String(res?.status)})`);
        }
        return res;
    } catch (err) {
        if (isControlFlow(rethrowFromHandler, err)) {
            throw new FrameworkControlFlow(err);
        }
        log(logger, 'error', `handler failed: ${describeError(err)}`, 'handler-error');
        return renderAdapterError(handler, 500, INTERNAL_ERROR_MESSAGE);
    }
}

/**
 * Serializes a handler response; a header no server could send or a body that cannot be serialized becomes a
 * logged, generic 500 (which every adapter writes, where a framework would throw mid-write or leave the request hanging).
 */
export function toWire(adapter: ResolvedAdapter, res: Response): WireResponse {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers ?? {})) {
        if (value !== undefined && value !== null) {
            headers[name.toLowerCase()] = String(value);
        }
    }
    const invalid = invalidHeader(headers);
    if (invalid !== undefined) {
        // the name only: the value may be a token or a cookie
        log(adapter.logger, 'error', `the handler returned an invalid response header: ${JSON.stringify(invalid)}`, 'adapter-error');
        return genericFailure(adapter);
    }
    // a 503 of a handler that did not say when to retry (one an application's own code answered, say)
    for (const [name, value] of Object.entries(retryHeaders(res.status) ?? {})) headers[name] ??= value;
    if (BODYLESS.has(res.status) || res.body === undefined) {
        delete headers['content-type'];
        return { status: res.status, headers, body: undefined };
    }
    let text: string | undefined;
    try {
        text = JSON.stringify(res.body);
    } catch (err) {
        log(adapter.logger, 'error', `response body cannot be serialized: ${describeError(err)}`, 'serialize-error');
        return genericFailure(adapter);
    }
    if (text === undefined) {
        delete headers['content-type'];
        return { status: res.status, headers, body: undefined };
    }
    headers['content-type'] ??= JSON_CONTENT_TYPE;
    return { status: res.status, headers, body: text, value: res.body };
}

/** The generic 500, in the handler's format unless its `renderError` gives something that cannot be sent either. */
function genericFailure(adapter: ResolvedAdapter): WireResponse {
    const fallback = renderAdapterError(adapter.handler, 500, INTERNAL_ERROR_MESSAGE);
    const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE };
    try {
        for (const [name, value] of Object.entries(fallback.headers ?? {})) {
            headers[name.toLowerCase()] = String(value);
        }
        if (invalidHeader(headers) !== undefined) throw new Error('invalid header');
        return { status: 500, headers, body: JSON.stringify(fallback.body), value: fallback.body };
    } catch {
        const value = { error: { message: INTERNAL_ERROR_MESSAGE } };
        return { status: 500, headers: { 'content-type': JSON_CONTENT_TYPE }, body: JSON.stringify(value), value };
    }
}

/** `serveApiRequest` then `toWire`. */
export async function serveWire(adapter: ResolvedAdapter, req: ApiRequest, getPrisma: () => unknown, rethrow?: RethrowPredicate): Promise<WireResponse> {
    return toWire(adapter, await serveApiRequest(adapter, req, getPrisma, rethrow));
}
