import { renderAdapterError } from '../shared/errors';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { toWire } from '../shared/pipeline';
import { normalizePrefix, stripPrefix } from '../shared/request';
import { isThrownResponse, pathnameOf, serveFetchRequest, toFetchResponse } from './serve';

export { serveFetchRequest, toFetchResponse, pathnameOf, isThrownResponse, type FetchRequestInput } from './serve';
export { readFetchBody } from './body';
export type { CommonAdapterOptions } from '../shared/options';

/** Options of the web-standard (Fetch API) adapter. */
export interface FetchHandlerOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for a request, e.g. `enhance(prisma, { user: await getUser(request) })`. */
    getPrisma: (request: Request) => unknown | Promise<unknown>;
    /** The mount point stripped from the URL path, e.g. `/api/model` (default: none). */
    prefix?: string;
}

/**
 * A `(request: Request) => Promise<Response>` function serving the API, for any runtime or framework
 * that speaks the Fetch API (Deno, Bun, Cloudflare Workers, Remix, Astro …). Requests outside `prefix` get 404.
 * A web `Response` thrown by `getPrisma` (a redirect to a login page …) is answered as it is.
 */
export function createFetchHandler(options: FetchHandlerOptions): (request: Request) => Promise<Response> {
    requireFunction(options?.getPrisma, 'getPrisma', 'createFetchHandler');
    const adapter = resolveAdapter(options, 'createFetchHandler');
    const prefix = normalizePrefix(options.prefix);
    return async (request: Request): Promise<Response> => {
        const path = stripPrefix(pathnameOf(request), prefix);
        if (path === undefined) {
            return toFetchResponse(toWire(adapter, renderAdapterError(adapter.handler, 404, `no API route at this path (the API is mounted at ${prefix})`)));
        }
        try {
            return await serveFetchRequest(adapter, request, { path, rethrow: isThrownResponse, getPrisma: () => options.getPrisma(request) });
        } catch (thrown) {
            // a `Response` thrown by `getPrisma` (`throw redirect('/login')` in Remix, React Router …) is the answer
            if (isThrownResponse(thrown)) {
                return thrown as Response;
            }
            throw thrown;
        }
    };
}

export default createFetchHandler;
