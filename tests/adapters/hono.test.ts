import { Hono } from 'hono';
import { createHonoHandler } from '../../src/adapters/hono';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
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

    it('an explicit prefix option wins over the route pattern', async () => {
        const f = fixture();
        const app = new Hono();
        app.all('*', createHonoHandler({ ...f.common, prefix: '/data', getPrisma: () => f.getPrisma(undefined) }));
        const res = await app.request('/data/user/count');
        expect(res.status).toBe(200);
    });
});
