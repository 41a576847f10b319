import type { Context as ElysiaContext, Elysia } from 'elysia';
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
 * An Elysia plugin serving the API under the current group:
 * `app.group('/api', (app) => app.use(createElysiaHandler({ getPrisma: (ctx) => …, basePath: '/api' })))`.
 * It registers a catch-all route that leaves the body unparsed, so that a malformed one is answered in the
 * API's error format rather than Elysia's.
 */
export function createElysiaHandler(options: ElysiaOptions): <App extends Elysia>(app: App) => App {
    requireFunction(options?.getPrisma, 'getPrisma', 'createElysiaHandler');
    const adapter = resolveAdapter(options, 'createElysiaHandler');
    const basePath = options.basePath === undefined ? undefined : normalizePrefix(options.basePath);

    const handle = (ctx: ElysiaContext): Promise<Response> => {
        const pathname = pathnameOf(ctx.request);
        const path = basePath !== undefined ? (stripPrefix(pathname, basePath) ?? pathname) : stripPatternSegments(pathname, ctx.route);
        return serveFetchRequest(adapter, ctx.request, { path, getPrisma: () => options.getPrisma(ctx) });
    };

    return <App extends Elysia>(app: App): App => app.all('/*', (ctx) => handle(ctx as unknown as ElysiaContext), { parse: 'none' }) as unknown as App;
}

export default createElysiaHandler;
