import { isThrownResponse, pathnameOf, serveFetchRequest, unmatchedPathResponse } from '../fetch/serve';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { restParamPath } from '../shared/request';

/** Options of the TanStack Start server-route handler (as in `@zenstackhq/server/tanstack-start`, plus `bodyLimit`). */
export interface TanStackStartOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: await getUser(request) })`. */
    getPrisma: (request: Request, params: Record<string, string>) => unknown | Promise<unknown>;
}

/** What TanStack Start passes to a server-route method handler. */
export interface ServerRouteContext {
    request: Request;
    params: Record<string, string>;
}

/**
 * A handler for a splat server route (`src/routes/api/model/$.ts`):
 * `const handler = TanStackStartHandler({ getPrisma: (request) => … })`, then use it for every method
 * (`server: { handlers: { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler } }`).
 * The path is the splat (`params._splat`). A `Response` thrown by `getPrisma` (`throw redirect({ to: '/login' })`)
 * goes back to TanStack Start, which answers it, as with 2.x.
 */
export function TanStackStartHandler(options: TanStackStartOptions): (context: ServerRouteContext) => Promise<Response> {
    requireFunction(options?.getPrisma, 'getPrisma', 'TanStackStartHandler');
    const adapter = resolveAdapter(options, 'TanStackStartHandler');
    return async ({ request, params }) => {
        const path = restParamPath(pathnameOf(request), params?._splat);
        if (path === undefined) {
            return unmatchedPathResponse(adapter);
        }
        return serveFetchRequest(adapter, request, { path, rethrow: isThrownResponse, getPrisma: () => options.getPrisma(request, params ?? {}) });
    };
}

export default TanStackStartHandler;
