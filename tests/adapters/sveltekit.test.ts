import type { RequestEvent } from '@sveltejs/kit';
import { SvelteKitHandler, SvelteKitRouteHandler } from '../../src/adapters/sveltekit';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter, fromFetchResponse, type Harness } from './support/scenario';

/** A SvelteKit `RequestEvent` as the runtime builds it for one request (rest parameters decoded). */
function requestEvent(request: Request, params: Record<string, string> = {}, routeId: string | null = null): RequestEvent {
    return {
        request,
        url: new URL(request.url),
        params,
        route: { id: routeId },
        locals: {},
        platform: undefined,
        cookies: { get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, serialize: () => '' },
        fetch,
        getClientAddress: () => '127.0.0.1',
        setHeaders: () => undefined,
        isDataRequest: false,
        isSubRequest: false,
    } as unknown as RequestEvent;
}

/** What `redirect(303, '/login')` from `@sveltejs/kit` throws (`@sveltejs/kit` is ES modules only: not loadable here). */
class Redirect {
    constructor(
        public status: 300 | 301 | 302 | 303 | 304 | 305 | 306 | 307 | 308,
        public location: string,
    ) {}
}

/** What `error(401, 'login first')` from `@sveltejs/kit` throws. */
class HttpError {
    constructor(
        public status: number,
        public body: { message: string },
    ) {}
    toString(): string {
        return JSON.stringify(this.body);
    }
}

/**
 * The hook form serves RPC under its prefix; the `+server.ts` form serves REST as
 * `src/routes/api/rest/[...path]/+server.ts`; anything else is resolved by the app (404 here).
 */
function sveltekitApp(f: AdapterFixture): Harness {
    const getPrisma = (event: RequestEvent) => f.getPrisma(event.request.headers.get(USER_HEADER));
    const handle = SvelteKitHandler({ ...f.common, prefix: RPC_PREFIX, handler: f.rpc, getPrisma });
    const route = SvelteKitRouteHandler({ ...f.common, handler: f.rest, getPrisma });
    const resolve = async (event: RequestEvent): Promise<Response> => {
        const { pathname } = event.url;
        if (pathname.startsWith(`${REST_PREFIX}/`)) {
            const path = decodeURIComponent(pathname.slice(REST_PREFIX.length + 1));
            return route(requestEvent(event.request, { path }, `${REST_PREFIX}/[...path]`) as Parameters<typeof route>[0]);
        }
        return new Response('page not found', { status: 404 });
    };
    return {
        async send({ method, url, body, headers }) {
            const request = new Request(new URL(url, 'http://localhost'), { method, headers, body });
            return fromFetchResponse(await handle({ event: requestEvent(request), resolve }));
        },
    };
}

describeAdapter('sveltekit adapter (server hook and +server.ts route)', async (f) => sveltekitApp(f), {}, ({ fixture, seed }) => {
    it('requires a prefix for the hook form', () => {
        const f = fixture();
        expect(() => SvelteKitHandler({ getPrisma: () => f.getPrisma(undefined) } as never)).toThrow(/prefix/);
    });

    it('the route form reads a differently named rest parameter', async () => {
        const f = fixture();
        const route = SvelteKitRouteHandler({ ...f.common, param: 'rest', getPrisma: () => f.getPrisma(undefined) });
        const request = new Request('http://localhost/data/user/count');
        const res = await route(requestEvent(request, { rest: 'user/count' }) as Parameters<typeof route>[0]);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ data: expect.any(Number) });
    });

    it('the route form takes the path from the URL; a rest parameter the URL does not end with (a reroute hook changed that part) is refused 400, not re-encoded', async () => {
        const f = fixture();
        await f.schema.prisma.allTypes.create({ data: { id: 'reroute/1', string: 'slash' } });
        const route = SvelteKitRouteHandler({ ...f.common, handler: f.rest, getPrisma: () => f.getPrisma(undefined) });
        const serve = (url: string, path: string) => route(requestEvent(new Request(url), { path }, '/api/rest/[...path]') as Parameters<typeof route>[0]);
        // a reroute of the prefix only (`/de/api/…` → `/api/…`): the URL still ends with the parameter's segments
        const prefixed = await serve('http://localhost/de/api/rest/allTypes/reroute%2F1', 'allTypes/reroute/1');
        expect([prefixed.status, (await prefixed.json()).data.id]).toEqual([200, 'reroute/1']);
        // SvelteKit decodes the parameter: `allTypes/reroute/1` could be one id or an id and a relationship
        const renamed = await serve('http://localhost/api/rest/allTypesAlias/reroute%2F1', 'allTypes/reroute/1');
        expect(renamed.status).toBe(400);
        expect((await renamed.json()).errors[0].detail).toMatch(/does not match the path the framework routed/);
    });

    it('a redirect() thrown by getPrisma goes back to SvelteKit (hook and route); an error() keeps its status in the API format', async () => {
        const f = fixture();
        const redirect = new Redirect(303, '/login');
        const resolve = async () => new Response('app');
        const hook = SvelteKitHandler({ ...f.common, prefix: '/api', getPrisma: () => { throw redirect; } });
        const request = new Request('http://localhost/api/post/findMany');
        await expect(hook({ event: requestEvent(request), resolve })).rejects.toBe(redirect);
        const route = SvelteKitRouteHandler({ ...f.common, getPrisma: () => { throw redirect; } });
        await expect(route(requestEvent(request, { path: 'post/findMany' }) as Parameters<typeof route>[0])).rejects.toBe(redirect);
        const denied = SvelteKitHandler({ ...f.common, prefix: '/api', getPrisma: () => { throw new HttpError(401, { message: 'login first' }); } });
        const res = await denied({ event: requestEvent(request), resolve });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ error: { message: 'login first' } });
    });

    it('getPrisma may read a copy of the body (event.request.clone().json()), as in 2.x', async () => {
        const f = fixture();
        const { alice } = await seed();
        const getPrisma = async (event: RequestEvent) => f.getPrisma(String((await event.request.clone().json()).data.authorId));
        const hook = SvelteKitHandler({ ...f.common, prefix: '/api', getPrisma });
        const route = SvelteKitRouteHandler({ ...f.common, getPrisma });
        const post = (title: string) =>
            new Request('http://localhost/api/post/create', { method: 'POST', body: JSON.stringify({ data: { title, authorId: alice } }), headers: { 'content-type': 'application/json' } });
        const viaHook = await hook({ event: requestEvent(post('via the hook')), resolve: async () => new Response('app') });
        expect(viaHook.status).toBe(201);
        const viaRoute = await route(requestEvent(post('via the route'), { path: 'post/create' }) as Parameters<typeof route>[0]);
        expect(viaRoute.status).toBe(201);
        expect(await f.schema.prisma.post.count({ where: { authorId: alice, title: { startsWith: 'via the' } } })).toBe(2);
    });
});
