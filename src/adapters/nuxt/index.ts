import { createError, defineEventHandler, getRequestURL, readRawBody, type EventHandler, type EventHandlerRequest, type H3Event } from 'h3';
import { BODY_ALREADY_READ_MESSAGE, parseBufferedBody, readLimited } from '../fetch/body';
import { isCutOff, readNodeStream, type NodeRequest } from '../node/body';
import { serveFetchRequest, toFetchResponse, unmatchedPathResponse } from '../fetch/serve';
import { renderAdapterError } from '../shared/errors';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { toWire } from '../shared/pipeline';
import { BODY_NOT_READ, EMPTY_BODY, fromParsedBody, parseJsonBytes, safeDecodeSegment, splitUrl, tooLarge, type BodyResult } from '../shared/request';

/** Options of the Nuxt (h3) event handler (as in `@zenstackhq/server/nuxt`, plus `bodyLimit`). */
export interface HandlerOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: (await getUserSession(event)).user })`. */
    getPrisma: (event: H3Event<EventHandlerRequest>) => unknown | Promise<unknown>;
}

/** The methods a web `Request` cannot be built with (Fetch standard, "forbidden method"). */
const FETCH_FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The methods h3 reads a body for (`readRawBody`, `toWebRequest`); it hands over none for the others. */
const H3_PAYLOAD_METHODS = new Set(['PATCH', 'POST', 'PUT', 'DELETE']);
/** Where h3 (1.x) keeps the value `readBody(event)` returned, on `event.node.req`. */
const H3_PARSED_BODY = Symbol.for('h3ParsedBody');
/** Where h3 (1.x) keeps the bytes it read from a Node request. */
const H3_RAW_BODY = Symbol.for('h3RawBody');

/** An h3 event's Node request (on other runtimes h3's stand-in), with what h3 or the platform left on it. */
type H3NodeRequest = NodeRequest & { [H3_PARSED_BODY]?: unknown; [H3_RAW_BODY]?: unknown; rawBody?: unknown };

/**
 * Leaves what the adapter read where h3's readers look first, for those after it (a middleware that awaits
 * `readBody(event)` once the adapter has answered): the bytes, or the refusal, instead of a used-up stream (on Node,
 * h3 would wait for ever for its end).
 */
function keepForH3(event: H3Event, kept: Uint8Array | { status: number; message: string }): void {
    let body: unknown = kept;
    if (!(kept instanceof Uint8Array)) {
        body = Promise.reject(createError({ statusCode: kept.status, message: kept.message }));
        (body as Promise<never>).catch(() => undefined); // no unhandled rejection when no one reads it
    }
    // h3 reads `_requestBody` (a body, or a promise of one) before the request's own stream
    (event as { _requestBody?: unknown })._requestBody = body;
}

/**
 * The body of an h3 event, read so that h3's own readers see it too, as with 2.x (which read it with `readBody`):
 * before the adapter (`await readBody(event)` in getPrisma), h3's copy; after it, the copy the adapter leaves
 * (`keepForH3`); on Node and on the runtimes h3's `toWebHandler` serves (Bun, Deno, Workers). What the adapter reads
 * itself is cut off at `limit`.
 */
async function readEventBody(event: H3Event, limit: number): Promise<BodyResult> {
    const req = event.node.req as H3NodeRequest;
    if (!H3_PAYLOAD_METHODS.has(event.method)) {
        return EMPTY_BODY;
    }
    // a Node request whose client went away meanwhile (during getPrisma): its stream will not end
    if (isCutOff(req)) {
        return BODY_NOT_READ;
    }
    // where h3's readers take the body from, in their order
    const source = event._requestBody || event.web?.request?.body || req[H3_RAW_BODY] || req.rawBody || req.body;
    let read: Uint8Array | 'too-large' | 'aborted';
    if (source instanceof ReadableStream) {
        // a web runtime's stream: `readBody(event)` used it up and kept only its value there, which 2.x took
        if (H3_PARSED_BODY in req) {
            return fromParsedBody(req[H3_PARSED_BODY], limit, event.headers.get('content-type') ?? undefined);
        }
        if (event.web?.request?.bodyUsed) {
            throw new Error(BODY_ALREADY_READ_MESSAGE);
        }
        read = await readLimited(source, limit).catch(() => 'aborted' as const);
    } else if (source) {
        // the copy h3 keeps (read before the adapter, on Node), or a body the platform handed over whole
        const copy = await readRawBody(event, false).catch(() => null);
        return copy === null ? BODY_NOT_READ : copy === undefined ? EMPTY_BODY : parseBufferedBody(copy, limit);
    } else if ('__unenv__' in req) {
        return EMPTY_BODY; // h3's stand-in for a Node request, with no body
    } else {
        read = await readNodeStream(req, limit);
    }
    if (read === 'too-large' || read === 'aborted') {
        const failure = read === 'too-large' ? tooLarge(limit) : BODY_NOT_READ;
        if (!failure.ok) keepForH3(event, failure);
        return failure;
    }
    keepForH3(event, read);
    return parseJsonBytes(read);
}

/**
 * How many leading segments of the path h3 routed on are the mount point: those before the `**` of a router
 * catch-all (`/api/model/**`, `/api/:tenant/model/**:slug`, what Nuxt's `[...].ts` files become); none under
 * `app.use(prefix, …)`, where h3 routes on the path after the prefix already.
 */
function mountSegments(event: H3Event): number {
    const route = (event.context.matchedRoute as { path?: unknown } | undefined)?.path;
    const catchAll = typeof route === 'string' ? /^(.*)\/\*\*(?::[^/]*)?$/.exec(route) : null;
    return catchAll ? catchAll[1].split('/').filter((s) => s.length > 0).length : 0;
}

/**
 * The API path as the client sent it, still percent-encoded: the segments of the request URL that stand for those
 * after the mount point in the path h3 routed on. That path is decoded (all but `%2F` and `%25`) and followed by the
 * query string as sent, so a catch-all parameter stops at an encoded `?` (`a%3Fb` gives `a`): the parameter is not
 * used. `null` for a request outside an `app.use` prefix; `undefined` when the URL's segments do not decode to the
 * routed ones (the path was rewritten after h3 read it), which is answered 400 rather than guessed.
 */
function apiPath(event: H3Event, mount: number): string | null | undefined {
    // `originalUrl`: the request target as received, whatever `app.use` prefixes or `useBase` made of `req.url`
    const raw = splitUrl(event.node.req.originalUrl || event.node.req.url || '/');
    if (!event.path.endsWith(raw.search)) {
        return undefined;
    }
    const routed = event.path.slice(0, event.path.length - raw.search.length);
    if (mount === 0) {
        // h3 matches `app.use` prefixes by string: the prefix itself (`/api/model`, `/api/model/`, `/api/model?x`)
        // routes as `/` or ``, and `/apix` or `/api%3Fx` reaches a handler mounted at `/api` as `x`, `?x`: not ours
        if (routed === '' || routed === '/') {
            return '';
        }
        if (!routed.startsWith('/')) {
            return null;
        }
    }
    const wanted = routed.split('/').slice(1 + mount);
    const segments = raw.pathname.split('/').slice(1);
    if (wanted.length === 0 || wanted.length > segments.length) {
        return undefined;
    }
    const tail = segments.slice(segments.length - wanted.length);
    return tail.every((segment, i) => safeDecodeSegment(segment) === safeDecodeSegment(wanted[i])) ? tail.join('/') : undefined;
}

/**
 * An h3 event handler serving the API. In Nuxt: `server/api/model/[...].ts` (or `[...slug].ts`, any name) with
 * `export default createEventHandler({ getPrisma: (event) => … })`; in plain h3 also
 * `app.use('/api/model', createEventHandler(…))` or a `router.use('/api/model/**', …)` route.
 */
export function createEventHandler(options: HandlerOptions): EventHandler<EventHandlerRequest, Promise<Response | undefined>> {
    requireFunction(options?.getPrisma, 'getPrisma', 'createEventHandler');
    const adapter = resolveAdapter(options, 'createEventHandler');
    return defineEventHandler(async (event) => {
        // without a leading slash, as 2.x's adapter passed the catch-all parameter
        const path = apiPath(event, mountSegments(event));
        if (path === null) {
            return undefined; // not ours: h3 goes on to the next handler
        }
        if (path === undefined) {
            return unmatchedPathResponse(adapter);
        }
        // The request's head only: its body is read after getPrisma, which may have read it with h3's `readBody(event)`
        // (h3 keeps a copy, which `toWebRequest` then streams). Building the web request before would start reading
        // the body stream under h3's feet.
        // A web `Request` refuses the methods fetch forbids (`TRACE` …), which h3 serves: the head then stands in with
        // `GET` and the handler sees the real method (and answers it as any method it does not serve); no body is read.
        const forbidden = FETCH_FORBIDDEN_METHODS.has(event.method.toUpperCase());
        let head: Request;
        try {
            head = new Request(getRequestURL(event), { method: forbidden ? 'GET' : event.method, headers: event.headers });
        } catch {
            // h3 builds the request URL from the Host header; a malformed one (`exa mple.com`, `[::1`) cannot be
            // parsed, which HTTP answers with a 400
            return toFetchResponse(toWire(adapter, renderAdapterError(adapter.handler, 400, 'invalid Host header')));
        }
        const readBody = () => readEventBody(event, adapter.bodyLimit);
        const getPrisma = () => options.getPrisma(event);
        return serveFetchRequest(adapter, head, forbidden ? { path, method: event.method, body: EMPTY_BODY, getPrisma } : { path, readBody, getPrisma });
    });
}

export default createEventHandler;
