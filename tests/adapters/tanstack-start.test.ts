import { TanStackStartHandler } from '../../src/adapters/tanstack-start';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter, fromFetchResponse, testResponse, type Harness } from './support/scenario';

/**
 * TanStack Start's server routing for `src/routes/api/rpc/$.ts` and `src/routes/api/rest/$.ts`: the
 * handler gets `{ request, params: { _splat } }`, with the splat decoded.
 */
function startApp(f: AdapterFixture): Harness {
    const route = (handler: AdapterFixture['rpc']) =>
        TanStackStartHandler({ ...f.common, handler, getPrisma: (request) => f.getPrisma(request.headers.get(USER_HEADER)) });
    const routes: [string, ReturnType<typeof route>][] = [
        [RPC_PREFIX, route(f.rpc)],
        [REST_PREFIX, route(f.rest)],
    ];
    return {
        async send({ method, url, body, headers }) {
            const request = new Request(new URL(url, 'http://localhost'), { method, body, headers });
            const { pathname } = new URL(request.url);
            for (const [prefix, handler] of routes) {
                if (pathname.startsWith(`${prefix}/`)) {
                    const _splat = decodeURIComponent(pathname.slice(prefix.length + 1));
                    return fromFetchResponse(await handler({ request, params: { _splat } }));
                }
            }
            return testResponse(404, {}, 'not found');
        },
    };
}

describeAdapter('tanstack-start adapter', async (f) => startApp(f), { outsidePrefix: false }, ({ fixture }) => {
    it('getPrisma receives the request and the route params', async () => {
        const f = fixture();
        const seen: unknown[] = [];
        const handler = TanStackStartHandler({
            ...f.common,
            getPrisma: (request, params) => {
                seen.push([request.url, params]);
                return f.getPrisma(undefined);
            },
        });
        const res = await handler({ request: new Request('http://localhost/api/model/user/count'), params: { _splat: 'user/count' } });
        expect(res.status).toBe(200);
        expect(seen).toEqual([['http://localhost/api/model/user/count', { _splat: 'user/count' }]]);
    });
    it('a splat the URL does not end with (a rewrite of that part of the path) is refused 400, not re-encoded: a decoded slash in it could be a separator', async () => {
        const f = fixture();
        let called = 0;
        const handler = TanStackStartHandler({
            ...f.common,
            getPrisma: () => {
                called++;
                return f.getPrisma(undefined);
            },
        });
        const res = await handler({ request: new Request('http://localhost/api/model/users/count'), params: { _splat: 'user/count' } });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error: { message: 'the request URL does not match the path the framework routed' } });
        expect(called).toBe(0);
        // a trailing slash the router left out of the splat is found in the URL
        const trailing = await handler({ request: new Request('http://localhost/api/model/user/count/'), params: { _splat: 'user/count' } });
        expect(trailing.status).toBe(200);
    });

    it('a Response thrown by getPrisma (a redirect) goes back to TanStack Start as it is, as with 2.x', async () => {
        const f = fixture();
        const redirect = new Response(null, { status: 307, headers: { location: '/login' } });
        const handler = TanStackStartHandler({
            ...f.common,
            getPrisma: () => {
                throw redirect;
            },
        });
        const request = new Request('http://localhost/api/model/post/create', { method: 'POST', body: '{"data":{}}' });
        await expect(handler({ request, params: { _splat: 'post/create' } })).rejects.toBe(redirect);
        // other errors with a status are still answered in the API's format
        const refusing = TanStackStartHandler({
            ...f.common,
            getPrisma: () => {
                throw Object.assign(new Error('who are you'), { status: 401 });
            },
        });
        const res = await refusing({ request: new Request('http://localhost/api/model/post/findMany'), params: { _splat: 'post/findMany' } });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ error: { message: 'who are you' } });
    });
});
