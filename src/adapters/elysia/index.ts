import type { Context as ElysiaContext, Elysia } from 'elysia';
import { readFetchBody } from '../fetch/body';
import { pathnameOf, serveFetchRequest } from '../fetch/serve';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { fromParsedBody, normalizePrefix, stripPatternSegments, stripPrefix, type BodyResult } from '../shared/request';

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
 * What the plugin's parser made of a request's body, for its handler: the result, or `'unread'` when reading
 * threw (the stream was used up before the plugin saw it).
 */
const parsedBodies = new WeakMap<Request, BodyResult | 'unread'>();

/**
 * An Elysia plugin serving the API under the current group:
 * `app.group('/api', (app) => app.use(createElysiaHandler({ getPrisma: (ctx) => …, basePath: '/api' })))`.
 * Its catch-all route parses the body with the plugin's own parser instead of Elysia's: every body is JSON
 * (`application/vnd.api+json` included), within `bodyLimit`, and a malformed or oversized one is answered in the
 * API's error format rather than Elysia's. The parser runs in Elysia's parse phase, so the app's hooks
 * (`derive`, `resolve`, `beforeHandle` …) see the parsed body in `ctx.body`, as they see Elysia's with 2.x.
 */
export function createElysiaHandler(options: ElysiaOptions): <App extends Elysia>(app: App) => App {
    requireFunction(options?.getPrisma, 'getPrisma', 'createElysiaHandler');
    const adapter = resolveAdapter(options, 'createElysiaHandler');
    const basePath = options.basePath === undefined ? undefined : normalizePrefix(options.basePath);

    /**
     * The route's parser (Elysia's parse phase, before the app's hooks). Never throws, which Elysia would answer
     * in its own format: a body it cannot read is noted for the handler to answer. What it returns becomes
     * `ctx.body`; `undefined` (no value) would let Elysia parse the body it has already read, so a request with a
     * body stream but no value (an empty, malformed or oversized body) gives `null` until the handler runs.
     */
    const parse = async (ctx: { request: Request }): Promise<unknown> => {
        let body: BodyResult | 'unread';
        try {
            body = await readFetchBody(ctx.request, adapter.bodyLimit);
        } catch {
            body = 'unread';
        }
        parsedBodies.set(ctx.request, body);
        if (body !== 'unread' && body.ok && body.value !== undefined) return body.value;
        return ctx.request.body === null ? undefined : null;
    };

    const handle = async (ctx: ElysiaContext): Promise<Response> => {
        const pathname = pathnameOf(ctx.request);
        const path = basePath !== undefined ? (stripPrefix(pathname, basePath) ?? pathname) : stripPatternSegments(pathname, ctx.route);
        // read in the parse phase, as Elysia's own parser would have (else here), so that getPrisma finds the parsed
        // body in `ctx.body` (as in 2.x)
        let body = parsedBodies.get(ctx.request);
        const appParsed = (ctx as { body?: unknown }).body;
        if (body === undefined && ctx.request.bodyUsed && appParsed !== undefined) {
            // a parse hook of the app's claimed the body before the plugin's parser: its value, as 2.x takes it
            body = fromParsedBody(appParsed, adapter.bodyLimit, ctx.request.headers.get('content-type') ?? undefined);
        } else if (body === undefined) {
            try {
                body = await readFetchBody(ctx.request, adapter.bodyLimit);
            } catch {
                body = 'unread';
            }
        }
        const result = body === 'unread' ? undefined : body; // a used-up stream: served as the base adapter answers it
        (ctx as { body: unknown }).body = result?.ok ? result.value : undefined;
        return serveFetchRequest(adapter, ctx.request, { path, body: result, rethrow: isStatusResponse, getPrisma: () => options.getPrisma(ctx) });
    };

    return <App extends Elysia>(app: App): App => app.all('/*', (ctx) => handle(ctx as unknown as ElysiaContext), { parse }) as unknown as App;
}

export default createElysiaHandler;
