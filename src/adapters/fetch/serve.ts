import { log, describeError } from '../../api/common/logger';
import { INTERNAL_ERROR_MESSAGE, renderAdapterError } from '../shared/errors';
import type { ResolvedAdapter } from '../shared/options';
import { readQuery, serveWire, toWire, type WireResponse } from '../shared/pipeline';
import { splitUrl, type BodyResult } from '../shared/request';
import { readFetchBody } from './body';

/** How a framework wrapper describes one request to the Fetch base adapter. */
export interface FetchRequestInput {
    /** The path after the mount point, percent-encoded. */
    path: string;
    /** Called (once) to get the enhanced client for this request. */
    getPrisma: () => unknown;
    /** Overrides how the body is obtained (for frameworks that may have buffered it already). */
    readBody?: () => Promise<BodyResult>;
}

/** A web `Response` for a wire response: JSON text, or no body (204 …). */
export function toFetchResponse(wire: WireResponse): Response {
    return new Response(wire.body ?? null, { status: wire.status, headers: wire.headers });
}

/** The Fetch base adapter: web `Request` in, web `Response` out; never throws. */
export async function serveFetchRequest(adapter: ResolvedAdapter, request: Request, input: FetchRequestInput): Promise<Response> {
    try {
        const { search } = splitUrl(request.url);
        const body = await (input.readBody ? input.readBody() : readFetchBody(request, adapter.bodyLimit));
        const wire = await serveWire(adapter, { method: request.method, path: input.path, ...readQuery(adapter, search), body }, input.getPrisma);
        return toFetchResponse(wire);
    } catch (err) {
        log(adapter.logger, 'error', `request failed in the adapter: ${describeError(err)}`, 'adapter-error');
        return toFetchResponse(toWire(adapter, renderAdapterError(adapter.handler, 500, INTERNAL_ERROR_MESSAGE)));
    }
}

/** The pathname of a request URL, still percent-encoded. */
export function pathnameOf(request: Request): string {
    return splitUrl(request.url).pathname;
}
