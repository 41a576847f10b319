import { Hono, type Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';
import { createHonoHandler } from '../../src/adapters/hono';
import { BODY_LIMIT, RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter, fromFetchResponse, type Harness } from './support/scenario';

function honoHarness(app: Hono): Harness {
    return {
        async send({ method, url, body, headers }) {
            return fromFetchResponse(await app.request(url, { method, body, headers }));
        },
    };
}

function honoApp(f: AdapterFixture): Hono {
    const app = new Hono();
    const getPrisma = (ctx: Parameters<Parameters<typeof createHonoHandler>[0]['getPrisma']>[0]) => f.getPrisma(ctx.req.header(USER_HEADER));
    app.use(`${RPC_PREFIX}/*`, createHonoHandler({ ...f.common, handler: f.rpc, getPrisma }));
    app.use(`${REST_PREFIX}/*`, createHonoHandler({ ...f.common, handler: f.rest, getPrisma }));
    return app;
}

describeAdapter('hono adapter', async (f) => honoHarness(honoApp(f)), {}, ({ fixture, seed }) => {
    it('derives the mount point under basePath and route(), and with route parameters', async () => {
        const f = fixture();
        const api = new Hono();
        api.use('/:tenant/model/*', createHonoHandler({ ...f.common, getPrisma: () => f.getPrisma(undefined) }));
        const app = new Hono().basePath('/v1');
        app.route('/api', api);
        const res = await app.request('/v1/api/acme/model/user/count');
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ data: expect.any(Number) });
    });

    it('reads a body an earlier middleware already consumed', async () => {
        const f = fixture();
        const { alice } = await seed();
        const app = new Hono();
        const seen: unknown[] = [];
        app.use('*', async (ctx, next) => {
            if (ctx.req.method === 'POST') seen.push(await ctx.req.json());
            await next();
        });
        app.use('/api/*', createHonoHandler({ ...f.common, getPrisma: () => f.getPrisma(String(alice)) }));
        const body = { data: { title: 'consumed twice', authorId: alice } };
        const res = await app.request('/api/post/create', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        expect(seen).toEqual([body]);
        expect(res.status).toBe(201);
        expect((await res.json()).data.title).toBe('consumed twice');
    });

    it('an HTTPException with a response of its own goes back to Hono, which answers that response (WWW-Authenticate kept)', async () => {
        const f = fixture();
        const challenge = () => new HTTPException(401, { res: new Response('Unauthorized', { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="api"' } }) });
        const app = new Hono();
        app.use('/api/*', createHonoHandler({ ...f.common, getPrisma: () => { throw challenge(); } }));
        const res = await app.request('/api/post/findMany');
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
        expect(await res.text()).toBe('Unauthorized');
        // the app's onError sees it, as without the adapter
        const seen: unknown[] = [];
        const withHandler = new Hono();
        withHandler.onError((err, c) => {
            seen.push(err);
            return c.text('handled by the app', 401);
        });
        withHandler.use('/api/*', createHonoHandler({ ...f.common, getPrisma: () => { throw challenge(); } }));
        const handled = await withHandler.request('/api/post/findMany');
        expect([handled.status, await handled.text()]).toEqual([401, 'handled by the app']);
        expect(seen[0]).toBeInstanceOf(HTTPException);
        // one with a status only is answered in the API's format, its status and message kept
        const plain = new Hono();
        plain.use('/api/*', createHonoHandler({ ...f.common, getPrisma: () => { throw new HTTPException(403, { message: 'no entry' }); } }));
        const forbidden = await plain.request('/api/post/findMany');
        expect(forbidden.status).toBe(403);
        expect(await forbidden.json()).toEqual({ error: { message: 'no entry' } });
    });

    it('getPrisma may read the body through Hono (await ctx.req.json()), as in 2.x; the body checks still apply', async () => {
        const f = fixture();
        const { alice } = await seed();
        const app = new Hono();
        const seen: unknown[] = [];
        app.use('/api/*', createHonoHandler({ ...f.common, getPrisma: async (ctx) => {
            if (ctx.req.header('x-read-body')) {
                const body = await ctx.req.json();
                seen.push(body);
                return f.getPrisma(String(body.data.authorId));
            }
            return f.getPrisma(String(alice));
        } }));
        const post = (body: string, headers: Record<string, string> = {}) =>
            app.request('/api/post/create', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
        const body = { data: { title: 'read by getPrisma', authorId: alice } };
        const res = await post(JSON.stringify(body), { 'x-read-body': '1' });
        expect(res.status).toBe(201);
        expect((await res.json()).data.title).toBe('read by getPrisma');
        expect(seen).toEqual([body]);
        // malformed JSON the adapter reads, and a body over the limit, are still refused
        const malformed = await post('{"data": ');
        expect(malformed.status).toBe(400);
        const large = JSON.stringify({ data: { title: 'x'.repeat(BODY_LIMIT), authorId: alice } });
        expect((await post(large)).status).toBe(413);
        // one declared over the limit before getPrisma may read it
        const declared = await post(large, { 'x-read-body': '1', 'content-length': String(large.length) });
        expect(declared.status).toBe(413);
        expect(seen).toHaveLength(1);
        // one read by getPrisma is measured too
        expect((await post(large, { 'x-read-body': '1' })).status).toBe(413);
    });

    it('a middleware may read the body through Hono after the adapter served it (await next(), then ctx.req.json()), as with 2.x; the limit still applies', async () => {
        const f = fixture();
        const { alice } = await seed();
        const app = new Hono();
        const seen: unknown[] = [];
        app.use('*', async (ctx, next) => {
            await next();
            if (ctx.res.status === 201) seen.push(await ctx.req.json(), await ctx.req.text());
        });
        app.use('/api/*', createHonoHandler({ ...f.common, getPrisma: () => f.getPrisma(String(alice)) }));
        const post = (body: string) => app.request('/api/post/create', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
        const body = JSON.stringify({ data: { title: 'read after the adapter', authorId: alice } });
        const res = await post(body);
        expect(res.status).toBe(201);
        expect((await res.json()).data.title).toBe('read after the adapter');
        expect(seen).toEqual([JSON.parse(body), body]);
        // the adapter still reads the stream itself, within the limit (no Content-Length here)
        expect((await post(JSON.stringify({ data: { title: 'x'.repeat(BODY_LIMIT), authorId: alice } }))).status).toBe(413);
    });

    it('headers and cookies set on the context first (an earlier middleware, getPrisma) are on the answer, as with 2.x; status, content type and body stay ours', async () => {
        const f = fixture();
        const { alice, draft, bob } = await seed();
        const app = new Hono();
        app.use('*', async (c, next) => {
            c.header('x-request-id', 'abc');
            setCookie(c, 'seen', '1', { path: '/' });
            await next();
        });
        // a session refreshed while authenticating, as session libraries do
        const getPrisma = (c: Context) => {
            setCookie(c, 'session', 'refreshed', { path: '/', httpOnly: true });
            return f.getPrisma(c.req.header(USER_HEADER));
        };
        app.use(`${RPC_PREFIX}/*`, createHonoHandler({ ...f.common, handler: f.rpc, getPrisma }));
        app.use(`${REST_PREFIX}/*`, createHonoHandler({ ...f.common, handler: f.rest, getPrisma }));
        const kept = (res: Response) => [res.headers.get('x-request-id'), res.headers.getSetCookie()];
        const both = ['abc', ['seen=1; Path=/', 'session=refreshed; Path=/; HttpOnly']];

        const read = await app.request(`${RPC_PREFIX}/post/count?q=${encodeURIComponent(JSON.stringify({ where: { authorId: alice } }))}`);
        expect([read.status, read.headers.get('content-type'), await read.json()]).toEqual([200, 'application/json; charset=utf-8', { data: 1 }]);
        expect(kept(read)).toEqual(both);
        const body = { data: { type: 'post', attributes: { title: 'with cookies' }, relationships: { author: { data: { type: 'user', id: String(alice) } } } } };
        const created = await app.request(`${REST_PREFIX}/post`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/vnd.api+json', [USER_HEADER]: String(alice) } });
        expect([created.status, created.headers.get('content-type'), (await created.json()).data.attributes.title]).toEqual([201, 'application/vnd.api+json', 'with cookies']);
        expect(kept(created)).toEqual(both);
        const hidden = await app.request(`${REST_PREFIX}/post/${draft}`, { headers: { [USER_HEADER]: String(bob) } });
        expect([hidden.status, hidden.headers.get('content-type')]).toEqual([404, 'application/vnd.api+json']);
        expect(kept(hidden)).toEqual(both);
        const deleted = await app.request(`${REST_PREFIX}/post/${draft}`, { method: 'DELETE', headers: { [USER_HEADER]: String(alice) } });
        expect([deleted.status, await deleted.text()]).toEqual([204, '']);
        expect(kept(deleted)).toEqual(both);
        // refused before getPrisma runs: the middleware's are there
        const crossSite = await app.request(`${RPC_PREFIX}/post/create`, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' } });
        expect(crossSite.status).toBe(403);
        expect(kept(crossSite)).toEqual(['abc', ['seen=1; Path=/']]);
    });

    it("with a custom getPath (Hono's routing on host and path), the path after the mount pattern is served; an encoded slash stays in its segment", async () => {
        const f = fixture();
        await f.schema.prisma.allTypes.create({ data: { id: 'host/routed', string: 'by host' } });
        const app = new Hono({ getPath: (req) => `/${new URL(req.url).host}${new URL(req.url).pathname}` });
        app.use('/api.example.com/model/*', createHonoHandler({ ...f.common, getPrisma: () => f.getPrisma(undefined) }));
        app.use('/rest.example.com/:version/*', createHonoHandler({ ...f.common, handler: f.rest, getPrisma: () => f.getPrisma(undefined) }));
        const count = await app.request('http://api.example.com/model/user/count');
        expect([count.status, await count.json()]).toEqual([200, { data: expect.any(Number) }]);
        const read = await app.request('http://rest.example.com/v1/allTypes/host%2Frouted');
        expect([read.status, (await read.json()).data?.id]).toEqual([200, 'host/routed']);
        // another host is not the API's
        expect((await app.request('http://www.example.com/model/user/count')).status).toBe(404);
    });

    it("under strict: false, a trailing slash is handed on as it was sent (Hono's path has it trimmed)", async () => {
        const f = fixture();
        const seen: string[] = [];
        const handler = async ({ path }: { path: string }) => {
            seen.push(path);
            return { status: 200, body: { path } };
        };
        const app = new Hono({ strict: false });
        app.use('/api/:tenant/*', createHonoHandler({ ...f.common, handler, getPrisma: () => f.getPrisma(undefined) }));
        for (const url of ['/api/acme/post/count/', '/api/acme/post/a%2Fb', '/api/acme/']) expect((await app.request(url)).status).toBe(200);
        expect(seen).toEqual(['post/count/', 'post/a%2Fb', '']);
    });

    it('an explicit prefix option wins over the route pattern', async () => {
        const f = fixture();
        const app = new Hono();
        app.all('*', createHonoHandler({ ...f.common, prefix: '/data', getPrisma: () => f.getPrisma(undefined) }));
        const res = await app.request('/data/user/count');
        expect(res.status).toBe(200);
        // outside it, Hono answers (its 404): the API is not served at the root
        expect((await app.request('/user/count')).status).toBe(404);
    });

    it('with a prefix, a request outside it goes on to the routes after the middleware (next()), without getPrisma', async () => {
        const f = fixture();
        let called = 0;
        const app = new Hono();
        app.use('*', createHonoHandler({ ...f.common, prefix: '/api/model', getPrisma: () => {
            called++;
            return f.getPrisma(undefined);
        } }));
        app.get('/health', (c) => c.text('ok'));
        const health = await app.request('/health');
        expect([health.status, await health.text()]).toEqual([200, 'ok']);
        // neither the root nor a path that only starts like the prefix is the API
        for (const url of ['/user/count', '/api/modelx/user/count']) {
            const res = await app.request(url);
            expect({ url, status: res.status, text: await res.text() }).toEqual({ url, status: 404, text: '404 Not Found' });
        }
        expect(called).toBe(0);
        const api = await app.request('/api/model/user/count');
        expect([api.status, await api.json()]).toEqual([200, { data: expect.any(Number) }]);
        expect(called).toBe(1);
    });
});
