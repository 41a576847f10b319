import { log, describeError } from '../../api/common/logger';
import { CROSS_SITE_MESSAGE, isCrossSiteForgery } from '../shared/cross-site';
import { INTERNAL_ERROR_MESSAGE, renderAdapterError } from '../shared/errors';
import type { ResolvedAdapter } from '../shared/options';
import { FrameworkControlFlow, readQuery, serveWire, toWire, type RethrowPredicate, type WireResponse } from '../shared/pipeline';
import { UNMATCHED_PATH_MESSAGE, splitUrl, type BodyResult } from '../shared/request';
import { bodyFromHead, knownBody, readFetchBody } from './body';

/** How a framework wrapper describes one request to the Fetch base adapter. */
export interface FetchRequestInput {
    /** The path after the mount point, percent-encoded. */
    path: string;
    /**
     * The request method, when it is not `request.method`: a framework may receive a method a web `Request`
     * cannot carry (`TRACE`, `TRACK`, `CONNECT`), and then hands over a stand-in request with its method here.
     */
    method?: string;
    /** Called (once) to get the enhanced client for this request, before the body is read (as 2.x does). */
    getPrisma: () => unknown;
    /**
     * Overrides how the body is read, after `getPrisma` (for frameworks that may have buffered it: `getPrisma`
     * may have read it through the framework). A refusal the request's head tells (413, 415) comes first.
     */
    readBody?: () => Promise<BodyResult>;
    /** A body the wrapper has read already, before `getPrisma` (a failure is answered without calling it). */
    body?: BodyResult;
    /**
     * The errors of `getPrisma` that are the framework's control flow (a redirect …): rethrown to the framework
     * as they are instead of being answered.
     */
    rethrow?: RethrowPredicate;
}

/** A web `Response` for a wire response: JSON text, or no body (204 …). */
export function toFetchResponse(wire: WireResponse): Response {
    return new Response(wire.body ?? null, { status: wire.status, headers: wire.headers });
}

/** The 400 for a request whose API path cannot be found in its URL (see `pathFromRestParam`). */
export function unmatchedPathResponse(adapter: ResolvedAdapter): Response {
    return toFetchResponse(toWire(adapter, renderAdapterError(adapter.handler, 400, UNMATCHED_PATH_MESSAGE)));
}

function bodyOf(adapter: ResolvedAdapter, request: Request, input: FetchRequestInput): BodyResult | (() => Promise<BodyResult>) {
    if (input.body) {
        return input.body;
    }
    if (input.readBody) {
        return bodyFromHead(request.method, request.headers, adapter.bodyLimit) ?? input.readBody;
    }
    return knownBody(request, adapter.bodyLimit) ?? (() => readFetchBody(request, adapter.bodyLimit));
}

/** The server's own host as the framework built the request URL (SvelteKit's `ORIGIN` …), else the Host header. */
function ownHost(request: Request): string | null {
    try {
        return new URL(request.url).host;
    } catch {
        return request.headers.get('host');
    }
}

/**
 * The Fetch base adapter: web `Request` in, web `Response` out. Never throws, except the errors of `getPrisma`
 * that `input.rethrow` accepts, rethrown as they are.
 */
export async function serveFetchRequest(adapter: ResolvedAdapter, request: Request, input: FetchRequestInput): Promise<Response> {
    try {
        const { search } = splitUrl(request.url);
        const method = input.method ?? request.method;
        if (adapter.crossSiteProtection && isCrossSiteForgery(method, (name) => request.headers.get(name), () => ownHost(request))) {
            return toFetchResponse(toWire(adapter, renderAdapterError(adapter.handler, 403, CROSS_SITE_MESSAGE)));
        }
        const body = bodyOf(adapter, request, input);
        const wire = await serveWire(adapter, { method, path: input.path, ...readQuery(adapter, search), body }, input.getPrisma, input.rethrow);
        // the answer to a HEAD is the GET's status and headers without its content
        return toFetchResponse(method.toUpperCase() === 'HEAD' ? { ...wire, body: undefined } : wire);
    } catch (err) {
        if (err instanceof FrameworkControlFlow) {
            throw err.error;
        }
        log(adapter.logger, 'error', `request failed in the adapter: ${describeError(err)}`, 'adapter-error');
        return toFetchResponse(toWire(adapter, renderAdapterError(adapter.handler, 500, INTERNAL_ERROR_MESSAGE)));
    }
}

/**
 * A web `Response` thrown as control flow (`throw redirect(…)` in TanStack Router, Remix, React Router; a
 * `throw new Response(…, { status: 401 })`): the framework, or the Fetch adapter, answers it as it is.
 */
export function isThrownResponse(err: unknown): boolean {
    return typeof Response === 'function' && err instanceof Response;
}

/** The pathname of a request URL, still percent-encoded. */
export function pathnameOf(request: Request): string {
    return splitUrl(request.url).pathname;
}
