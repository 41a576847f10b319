import type { Context, MiddlewareHandler } from 'hono';
import { parseBufferedBody } from '../fetch/body';
import { pathnameOf, serveFetchRequest } from '../fetch/serve';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { normalizePrefix, stripPatternSegments, stripPrefix } from '../shared/request';

/** Options of the Hono middleware (as in `@zenstackhq/server/hono`, plus `bodyLimit` and `prefix`). */
export interface HonoOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: ctx.get('user') })`. */
    getPrisma: (ctx: Context) => unknown | Promise<unknown>;
    /**
     * The mount point to strip from the URL path. Default: derived from the route the middleware is
     * registered on (`app.use('/api/*', …)` → `/api`).
     */
    prefix?: string;
}

/**
 * The route the middleware was registered on (`/api/*`). Hono 4 exposes it as `c.req.routePath` (deprecated
 * there in favour of a `hono/route` helper that older 4.x releases lack); without it, pass `prefix`.
 */
function routePattern(ctx: Context): string {
    const pattern = (ctx.req as { routePath?: unknown }).routePath;
    if (typeof pattern !== 'string') {
        throw new Error('createHonoHandler: cannot tell the mount point of this Hono version; pass the "prefix" option');
    }
    return pattern;
}

/**
 * A Hono middleware serving the API: `app.use('/api/*', createHonoHandler({ getPrisma: (ctx) => … }))`.
 * Works on every runtime Hono runs on (the body is read from the web-standard request).
 */
export function createHonoHandler(options: HonoOptions): MiddlewareHandler {
    requireFunction(options?.getPrisma, 'getPrisma', 'createHonoHandler');
    const adapter = resolveAdapter(options, 'createHonoHandler');
    const prefix = options.prefix === undefined ? undefined : normalizePrefix(options.prefix);
    return async (ctx) => {
        const pathname = pathnameOf(ctx.req.raw);
        const path = prefix !== undefined ? (stripPrefix(pathname, prefix) ?? pathname) : stripPatternSegments(pathname, routePattern(ctx));
        // When an earlier middleware already read the body (`await ctx.req.json()`), Hono keeps a copy.
        const readBody = ctx.req.raw.bodyUsed ? async () => parseBufferedBody(await ctx.req.arrayBuffer(), adapter.bodyLimit) : undefined;
        return serveFetchRequest(adapter, ctx.req.raw, { path, readBody, getPrisma: () => options.getPrisma(ctx) });
    };
}

export default createHonoHandler;
