import type { Context, MiddlewareHandler } from 'hono';
import { parseBufferedBody, readFetchBody } from '../fetch/body';
import { pathnameOf, serveFetchRequest } from '../fetch/serve';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { normalizePrefix, stripPrefix, withoutLeadingSlash, type BodyResult } from '../shared/request';

/** Options of the Hono middleware (as in `@zenstackhq/server/hono`, plus `bodyLimit` and `prefix`). */
export interface HonoOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: ctx.get('user') })`. */
    getPrisma: (ctx: Context) => unknown | Promise<unknown>;
    /**
     * The mount point to strip from the URL path. Default: derived from the route the middleware is
     * registered on (`app.use('/api/*', …)` → `/api`). A request outside it goes on to the app (`next()`).
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

/** The segments of the pattern a path must have: `/api/:tenant/*` → 2 (a wildcard may match none). */
function patternSegmentCount(pattern: string): number {
    return pattern.split('/').filter((s) => s.length > 0 && !s.startsWith('*')).length;
}

/**
 * The part of the raw (percent-encoded) URL pathname after the mount pattern. The pattern matched Hono's
 * `ctx.req.path`, which is not always that pathname: an app's `getPath` may route on another path (the host and the
 * pathname, say), and under `strict: false` Hono trims a trailing slash. What follows the pattern's segments there is
 * the end of the pathname: as many of its last segments, with the trailing slash Hono trimmed, taken raw (Hono's
 * path is partly decoded, or as a custom `getPath` made it), so that an encoded `/` stays inside its segment.
 */
function restAfterPattern(pathname: string, routedPath: string, pattern: string): string {
    const raw = pathname.split('/').slice(1);
    let count = Math.max(0, routedPath.split('/').length - 1 - patternSegmentCount(pattern));
    if (pathname.length > 1 && pathname.endsWith('/') && !routedPath.endsWith('/')) count++;
    return `/${raw.slice(Math.max(0, raw.length - count)).join('/')}`;
}

/**
 * Hono's `HTTPException` thrown with a response of its own (`new HTTPException(401, { res })`, e.g. with a
 * `WWW-Authenticate` header): it goes back to Hono, which answers it with that response (`getResponse()`), or to
 * the app's `onError`, as 2.x lets it. (One with a status only is answered in the API's format, its status kept.)
 * Recognised by its shape: the adapter does not load Hono.
 */
function isExceptionWithResponse(err: unknown): boolean {
    const e = err as { res?: unknown; getResponse?: unknown };
    return err instanceof Error && typeof e.getResponse === 'function' && typeof e.res === 'object' && e.res !== null;
}

/**
 * The body, read through Hono's body cache as 2.x's `ctx.req.json()` read it. Read after getPrisma: when it (or an
 * earlier middleware) read the body through Hono (`await ctx.req.json()`), the request's stream is used up and Hono
 * keeps a copy, which is taken. Otherwise the stream is read within `limit` and the bytes are left in that cache, for
 * whoever reads the body after the adapter (a middleware's `await ctx.req.json()` once `next()` returns).
 */
async function readThroughHono(ctx: Context, limit: number): Promise<BodyResult> {
    const req = ctx.req;
    if (req.raw.bodyUsed || Object.keys(req.bodyCache).length > 0) {
        return parseBufferedBody(await req.arrayBuffer(), limit);
    }
    return readFetchBody(req.raw, limit, (bytes) => {
        // as Hono caches a body it read: a promise (its types say a value) of an ArrayBuffer, from which it also
        // makes `json()` and `text()`; a copy, as the bytes may be a view into a larger buffer (a Node `Buffer`)
        req.bodyCache.arrayBuffer = Promise.resolve(new Uint8Array(bytes).buffer) as unknown as ArrayBuffer;
    });
}

/**
 * A Hono middleware serving the API: `app.use('/api/*', createHonoHandler({ getPrisma: (ctx) => … }))`.
 * Works on every runtime Hono runs on (the body is read from the web-standard request).
 */
export function createHonoHandler(options: HonoOptions): MiddlewareHandler {
    requireFunction(options?.getPrisma, 'getPrisma', 'createHonoHandler');
    const adapter = resolveAdapter(options, 'createHonoHandler');
    const prefix = options.prefix === undefined ? undefined : normalizePrefix(options.prefix);
    return async (ctx, next) => {
        const pathname = pathnameOf(ctx.req.raw);
        const rest = prefix !== undefined ? stripPrefix(pathname, prefix) : restAfterPattern(pathname, ctx.req.path, routePattern(ctx));
        if (rest === undefined) {
            // outside `prefix` (`app.use('*', …)`): not the API's, the app's later routes answer it (or Hono's 404)
            await next();
            return;
        }
        const path = withoutLeadingSlash(rest);
        const readBody = () => readThroughHono(ctx, adapter.bodyLimit);
        const res = await serveFetchRequest(adapter, ctx.req.raw, { path, readBody, rethrow: isExceptionWithResponse, getPrisma: () => options.getPrisma(ctx) });
        // Built by the context, as 2.x's `ctx.json()` was: Hono adds the headers set on it before (`ctx.header()`,
        // `setCookie(ctx, …)` in getPrisma or an earlier middleware) to ours; a response built apart would drop them.
        return ctx.newResponse(res.body, res);
    };
}

export default createHonoHandler;
