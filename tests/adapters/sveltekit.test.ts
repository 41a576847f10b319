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

describeAdapter('sveltekit adapter (server hook and +server.ts route)', async (f) => sveltekitApp(f), {}, ({ fixture }) => {
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
});
