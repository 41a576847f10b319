import { Elysia, status } from 'elysia';
import { createElysiaHandler } from '../../src/adapters/elysia';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter, fromFetchResponse, type Harness } from './support/scenario';

function elysiaApp(f: AdapterFixture) {
    const getPrisma = (ctx: { request: Request }) => f.getPrisma(ctx.request.headers.get(USER_HEADER));
    return new Elysia()
        .get('/hello', () => ({ hello: 'world' }))
        .group(RPC_PREFIX, (app) => app.use(createElysiaHandler({ ...f.common, handler: f.rpc, getPrisma, basePath: RPC_PREFIX })))
        .group(REST_PREFIX, (app) => app.use(createElysiaHandler({ ...f.common, handler: f.rest, getPrisma })));
}

function elysiaHarness(app: { handle: (request: Request) => Promise<Response> }): Harness {
    return {
        async send({ method, url, body, headers }) {
            return fromFetchResponse(await app.handle(new Request(new URL(url, 'http://localhost'), { method, body, headers })));
        },
    };
}

describeAdapter('elysia adapter (group with basePath, and derived from the route)', async (f) => elysiaHarness(elysiaApp(f)), {}, ({ harness, fixture, seed }) => {
    it('other routes of the app keep working next to the API', async () => {
        const res = await harness().send({ method: 'GET', url: '/hello' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ hello: 'world' });
    });

    it("2.x's documented shape, an app prefix plus a group, is served with the basePath it named and without one", async () => {
        const f = fixture();
        const { alice } = await seed();
        for (const basePath of ['/api/crud', undefined]) {
            const app = new Elysia({ prefix: '/api' }).group('/crud', (a) => a.use(createElysiaHandler({ ...f.common, basePath, getPrisma: () => f.getPrisma(String(alice)) })));
            const res = await app.handle(new Request(`http://localhost/api/crud/post/count?q=${encodeURIComponent(JSON.stringify({ where: { authorId: alice } }))}`));
            expect([basePath, res.status, (await res.json()).data]).toEqual([basePath, 200, 2]);
        }
    });

    it('a status(…) thrown by getPrisma goes back to Elysia, which answers it (onError hooks included), as in 2.x', async () => {
        const f = fixture();
        const app = new Elysia().group('/api', (a) => a.use(createElysiaHandler({ ...f.common, basePath: '/api', getPrisma: () => { throw status(401, 'Unauthorized'); } })));
        const res = await app.handle(new Request('http://localhost/api/post/findMany'));
        expect(res.status).toBe(401);
        expect(await res.text()).toBe('Unauthorized');
        const seen: unknown[] = [];
        const hooked = new Elysia()
            .onError(({ error }) => {
                seen.push(error);
            })
            .group('/api', (a) => a.use(createElysiaHandler({ ...f.common, basePath: '/api', getPrisma: () => { throw status(403, { reason: 'suspended' }); } })));
        const forbidden = await hooked.handle(new Request('http://localhost/api/post/findMany'));
        expect(forbidden.status).toBe(403);
        expect(await forbidden.json()).toEqual({ reason: 'suspended' });
        expect(seen).toHaveLength(1);
    });

    it('getPrisma finds the parsed body in ctx.body, as the Elysia parser left it in 2.x; a malformed one is answered before it', async () => {
        const f = fixture();
        const { alice } = await seed();
        const seen: unknown[] = [];
        const app = new Elysia().group('/api', (a) =>
            a.use(
                createElysiaHandler({
                    ...f.common,
                    basePath: '/api',
                    getPrisma: (ctx) => {
                        seen.push(ctx.body);
                        return f.getPrisma(String((ctx.body as { data: { authorId: number } }).data.authorId));
                    },
                }),
            ),
        );
        const post = (body: string) => app.handle(new Request('http://localhost/api/post/create', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
        const body = { data: { title: 'from ctx.body', authorId: alice } };
        const res = await post(JSON.stringify(body));
        expect(res.status).toBe(201);
        expect((await res.json()).data.title).toBe('from ctx.body');
        expect(seen).toEqual([body]);
        const malformed = await post('{"data": ');
        expect(malformed.status).toBe(400);
        expect(seen).toHaveLength(1);
    });
});
