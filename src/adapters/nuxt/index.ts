import { defineEventHandler, getRequestURL, toWebRequest, type EventHandler, type EventHandlerRequest, type H3Event } from 'h3';
import { readFetchBody } from '../fetch/body';
import { serveFetchRequest, toFetchResponse } from '../fetch/serve';
import { renderAdapterError } from '../shared/errors';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { toWire } from '../shared/pipeline';
import { EMPTY_BODY, restParamPath, splitUrl, withoutLeadingSlash } from '../shared/request';

/** Options of the Nuxt (h3) event handler (as in `@zenstackhq/server/nuxt`, plus `bodyLimit`). */
export interface HandlerOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: (await getUserSession(event)).user })`. */
    getPrisma: (event: H3Event<EventHandlerRequest>) => unknown | Promise<unknown>;
}

/** Catch-all parameter names: Nuxt's `[...].ts` gives `_`, `[...path].ts` gives `path`. */
const REST_PARAMS = ['_', 'path'];

/** The methods a web `Request` cannot be built with (Fetch standard, "forbidden method"). */
const FETCH_FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The name of a named catch-all in the matched route (`[...slug].ts` → `/api/model/**:slug` → `slug`). */
function catchAllName(event: H3Event): string | undefined {
    const route = (event.context.matchedRoute as { path?: unknown } | undefined)?.path;
    return typeof route === 'string' ? /\/\*\*:([^/]+)$/.exec(route)?.[1] : undefined;
}

function restParamOf(event: H3Event): string | undefined {
    const params = event.context.params ?? {};
    const named = catchAllName(event);
    for (const name of named ? [named, ...REST_PARAMS] : REST_PARAMS) {
        if (typeof params[name] === 'string') {
            return params[name];
        }
    }
    return undefined;
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
        const rest = restParamOf(event);
        let path: string;
        if (rest !== undefined) {
            // the raw request target, not `getRequestURL(event)`, which needs a valid Host header
            path = restParamPath(splitUrl(event.node.req.originalUrl || event.path).pathname, rest);
        } else {
            // Under `app.use(prefix, …)`, h3 leaves the raw request target relative to the prefix in `req.url`;
            // h3 matches prefixes by string, so `/apix` reaches a handler mounted at `/api`: not ours, pass it on.
            const relative = splitUrl(event.node.req.url ?? '/').pathname;
            if (!relative.startsWith('/')) {
                return undefined;
            }
            path = withoutLeadingSlash(relative); // as under a rest parameter
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
        const readBody = () => readFetchBody(toWebRequest(event), adapter.bodyLimit);
        const getPrisma = () => options.getPrisma(event);
        return serveFetchRequest(adapter, head, forbidden ? { path, method: event.method, body: EMPTY_BODY, getPrisma } : { path, readBody, getPrisma });
    });
}

export default createEventHandler;
