import type { Handle, RequestEvent, RequestHandler } from '@sveltejs/kit';
import { serveFetchRequest, unmatchedPathResponse } from '../fetch/serve';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { normalizePrefix, pathFromRestParam, stripPrefix } from '../shared/request';

/** Options of the SvelteKit server hook (as in `@zenstackhq/server/sveltekit`, plus `bodyLimit`). */
export interface HandlerOptions extends CommonAdapterOptions {
    /** The URL prefix the API is served under, e.g. `/api/model`. */
    prefix: string;
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: event.locals.user })`. */
    getPrisma: (event: RequestEvent) => unknown | Promise<unknown>;
}

/** Options of the `+server.ts` route form. */
export interface RouteHandlerOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: event.locals.user })`. */
    getPrisma: (event: RequestEvent) => unknown | Promise<unknown>;
    /** Name of the rest parameter of the route directory (`[...path]`); default `path`. */
    param?: string;
}

/**
 * SvelteKit's `Redirect` (`throw redirect(303, '/login')`): `{ status, location }` with a 3xx status. Thrown from
 * getPrisma it goes back to SvelteKit, which answers the redirect, as 2.x lets it. (Its `HttpError`, from
 * `error(401, …)`, carries a 4xx/5xx status: answered in the API's format, status kept, as other such errors.)
 * Recognised by its shape: `@sveltejs/kit` is ES modules only, and the adapter uses its types only.
 */
function isRedirect(err: unknown): boolean {
    const e = err as { status?: unknown; location?: unknown };
    return typeof err === 'object' && err !== null && typeof e.location === 'string' && Number.isInteger(e.status) && (e.status as number) >= 300 && (e.status as number) <= 399;
}

/**
 * A server hook serving the API under `prefix`; other requests go on to `resolve`.
 * `src/hooks.server.ts`: `export const handle = SvelteKitHandler({ prefix: '/api/model', getPrisma: (event) => … })`
 * (combine with other hooks with `sequence` from `@sveltejs/kit/hooks`).
 */
export function SvelteKitHandler(options: HandlerOptions): Handle {
    requireFunction(options?.getPrisma, 'getPrisma', 'SvelteKitHandler');
    if (typeof options.prefix !== 'string') {
        throw new TypeError('SvelteKitHandler: the "prefix" option is required (e.g. "/api/model")');
    }
    const adapter = resolveAdapter(options, 'SvelteKitHandler');
    const prefix = normalizePrefix(options.prefix);
    return async ({ event, resolve }) => {
        const path = stripPrefix(event.url.pathname, prefix);
        if (path === undefined) {
            return resolve(event);
        }
        return serveFetchRequest(adapter, event.request, { path, rethrow: isRedirect, getPrisma: () => options.getPrisma(event) });
    };
}

/**
 * A route handler for `src/routes/api/model/[...path]/+server.ts`:
 * `const handler = SvelteKitRouteHandler({ getPrisma: (event) => … }); export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE }`.
 */
export function SvelteKitRouteHandler(options: RouteHandlerOptions): RequestHandler {
    requireFunction(options?.getPrisma, 'getPrisma', 'SvelteKitRouteHandler');
    const adapter = resolveAdapter(options, 'SvelteKitRouteHandler');
    const param = options.param ?? 'path';
    return async (event) => {
        const path = pathFromRestParam(event.url.pathname, (event.params as Record<string, string | undefined>)[param]);
        if (path === undefined) {
            return unmatchedPathResponse(adapter);
        }
        return serveFetchRequest(adapter, event.request, { path, rethrow: isRedirect, getPrisma: () => options.getPrisma(event) });
    };
}

export { SvelteKitHandler as createHandler };
export default SvelteKitHandler;
