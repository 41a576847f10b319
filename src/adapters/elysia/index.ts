import type { Context as ElysiaContext, Elysia } from 'elysia';
import { readFetchBody } from '../fetch/body';
import { pathnameOf, serveFetchRequest } from '../fetch/serve';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { normalizePrefix, stripPatternSegments, stripPrefix } from '../shared/request';

/** Options of the Elysia plugin (as in `@zenstackhq/server/elysia`, plus `bodyLimit`). */
export interface ElysiaOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: ctx.store.user })`. */
    getPrisma: (context: ElysiaContext) => unknown | Promise<unknown>;
    /**
     * The mount point to strip from the URL path (e.g. the `group` prefix `/api`). Default: derived from
     * the route the plugin's catch-all was registered as (`/api/*` → `/api`).
     */
    basePath?: string;
}

/**
 * What Elysia's `status(401, 'Unauthorized')` (`error()` before Elysia 1.3) makes: an `ElysiaCustomStatusResponse`,
 * `{ code, response }`, not an `Error`. Thrown from getPrisma it goes back to Elysia, which answers it (with the
 * app's `onError` hooks) as it would without the plugin, as 2.x lets it. Recognised by its shape: the plugin does
 * not load Elysia.
 */
function isStatusResponse(err: unknown): boolean {
    const e = err as { code?: unknown };
    return typeof err === 'object' && err !== null && !(err instanceof Error) && typeof e.code === 'number' && 'response' in err;
}

/**
 * An Elysia plugin serving the API under the current group:
 * `app.group('/api', (app) => app.use(createElysiaHandler({ getPrisma: (ctx) => …, basePath: '/api' })))`.
 * It registers a catch-all route that leaves the body unparsed, so that a malformed one is answered in the
 * API's error format rather than Elysia's.
 */
export function createElysiaHandler(options: ElysiaOptions): <App extends Elysia>(app: App) => App {
    requireFunction(options?.getPrisma, 'getPrisma', 'createElysiaHandler');
    const adapter = resolveAdapter(options, 'createElysiaHandler');
    const basePath = options.basePath === undefined ? undefined : normalizePrefix(options.basePath);

    const handle = async (ctx: ElysiaContext): Promise<Response> => {
        const pathname = pathnameOf(ctx.request);
        const path = basePath !== undefined ? (stripPrefix(pathname, basePath) ?? pathname) : stripPatternSegments(pathname, ctx.route);
        // Read first, as Elysia's own parser would have, so that getPrisma finds the parsed body in `ctx.body` (as in 2.x).
        let body;
        try {
            body = await readFetchBody(ctx.request, adapter.bodyLimit);
        } catch {
            body = undefined; // the request's stream was used up: served as the base adapter answers it
        }
        if (body?.ok) {
            (ctx as { body: unknown }).body = body.value;
        }
        return serveFetchRequest(adapter, ctx.request, { path, body, rethrow: isStatusResponse, getPrisma: () => options.getPrisma(ctx) });
    };

    return <App extends Elysia>(app: App): App => app.all('/*', (ctx) => handle(ctx as unknown as ElysiaContext), { parse: 'none' }) as unknown as App;
}

export default createElysiaHandler;
