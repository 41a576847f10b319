import { Elysia, status } from 'elysia';
import { createElysiaHandler } from '../../src/adapters/elysia';
import { BODY_LIMIT, RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
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

    it("the app's hooks (derive, resolve, beforeHandle) see the parsed body in ctx.body, as with 2.x; bad bodies are still the API's answers", async () => {
        const f = fixture();
        const { alice } = await seed();
        const seen: Record<string, unknown[]> = {};
        const record = (hook: string, ctx: { body: unknown }) => void (seen[hook] ??= []).push(ctx.body);
        const app = new Elysia()
            .onTransform({ as: 'global' }, (ctx) => record('transform', ctx))
            .derive({ as: 'global' }, (ctx) => (record('derive', ctx), {}))
            .resolve({ as: 'global' }, (ctx) => (record('resolve', ctx), {}))
            .onBeforeHandle({ as: 'global' }, (ctx) => record('beforeHandle', ctx))
            .group('/api', (a) =>
                a
                    // an audit hook of the group, before the plugin
                    .onBeforeHandle((ctx) => record('group beforeHandle', ctx))
                    .use(createElysiaHandler({ ...f.common, basePath: '/api', getPrisma: (ctx) => (record('getPrisma', ctx), f.getPrisma(String(alice))) })),
            );
        const send = (body: string, contentType = 'application/json', method = 'POST', url = '/api/post/create') =>
            app.handle(new Request(`http://localhost${url}`, { method, body: method === 'GET' ? undefined : body, headers: { 'content-type': contentType } }));
        const hooks = ['transform', 'derive', 'resolve', 'beforeHandle', 'group beforeHandle'];
        const reset = () => Object.keys(seen).forEach((k) => delete seen[k]);

        for (const contentType of ['application/json', 'application/vnd.api+json']) {
            reset();
            const body = { data: { title: `hooked ${contentType}`, authorId: alice } };
            const res = await send(JSON.stringify(body), contentType);
            expect(res.status).toBe(201);
            expect(Object.fromEntries(hooks.map((h) => [h, seen[h]]))).toEqual(Object.fromEntries(hooks.map((h) => [h, [body]])));
            expect(seen.getPrisma).toEqual([body]);
        }

        // a GET has no body
        reset();
        const read = await send('', 'application/json', 'GET', `/api/post/count?q=${encodeURIComponent(JSON.stringify({ where: { authorId: alice } }))}`);
        expect(read.status).toBe(200);
        expect(seen.beforeHandle).toEqual([undefined]);

        // still the plugin's own reading: malformed JSON and a body over the limit are the API's answers, getPrisma not called
        reset();
        const malformed = await send('{"data":');
        expect([malformed.status, ((await malformed.json()) as { error: { message: string } }).error.message]).toEqual([400, expect.stringMatching(/^invalid JSON/)]);
        const tooLarge = await send(JSON.stringify({ data: { title: 'x'.repeat(BODY_LIMIT), authorId: alice } }));
        expect(tooLarge.status).toBe(413);
        expect(typeof ((await tooLarge.json()) as { error: { message: string } }).error.message).toBe('string');
        expect(seen.getPrisma).toBeUndefined();
    });

    it("an app's own parse hook (onParse) leaves the API served; a body it claims reaches the handler as it parsed it, as with 2.x", async () => {
        const f = fixture();
        const { alice } = await seed();
        const app = new Elysia()
            // the app's parser of its own media type: a form of its own, turned into the API's arguments
            .onParse({ as: 'global' }, async ({ request }, contentType) => {
                if (contentType === 'application/x-title') return { data: { title: await request.text(), authorId: alice } };
            })
            .group('/api', (a) => a.use(createElysiaHandler({ ...f.common, basePath: '/api', getPrisma: () => f.getPrisma(String(alice)) })));
        const send = (body: string, contentType: string) =>
            app.handle(new Request('http://localhost/api/post/create', { method: 'POST', body, headers: { 'content-type': contentType } }));
        const json = await send(JSON.stringify({ data: { title: 'json next to onParse', authorId: alice } }), 'application/json');
        expect([json.status, await json.text()]).toEqual([201, expect.stringContaining('"title":"json next to onParse"')]);
        const own = await send('parsed by the app', 'application/x-title');
        expect([own.status, await own.text()]).toEqual([201, expect.stringContaining('"title":"parsed by the app"')]);
        const read = await app.handle(new Request(`http://localhost/api/post/count?q=${encodeURIComponent(JSON.stringify({ where: { authorId: alice } }))}`));
        expect(read.status).toBe(200);
        const malformed = await send('{"data":', 'application/json');
        expect([malformed.status, ((await malformed.json()) as { error: { message: string } }).error.message]).toEqual([400, expect.stringMatching(/^invalid JSON/)]);
    });

    it('without ahead-of-time compilation (aot: false) JSON bodies are served too, and hooks see them', async () => {
        const f = fixture();
        const { alice } = await seed();
        const seen: unknown[] = [];
        const app = new Elysia({ aot: false })
            .onBeforeHandle({ as: 'global' }, ({ body }) => void seen.push(body))
            .group('/api', (a) => a.use(createElysiaHandler({ ...f.common, basePath: '/api', getPrisma: () => f.getPrisma(String(alice)) })));
        const body = { data: { title: 'interpreted', authorId: alice } };
        const res = await app.handle(new Request('http://localhost/api/post/create', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));
        expect([res.status, await res.text()]).toEqual([201, expect.stringContaining('"title":"interpreted"')]);
        expect(seen).toEqual([body]);
    });
});
