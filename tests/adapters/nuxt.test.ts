import { once } from 'node:events';
import http from 'node:http';
import { createApp, createRouter, defineEventHandler, readBody, toNodeListener, toWebHandler, useBase } from 'h3';
import request from 'supertest';
import { createEventHandler } from '../../src/adapters/nuxt';
import type { HandleRequestFn } from '../../src/types';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter } from './support/scenario';
import { supertestHarness } from './support/supertest';

/** RPC mounted with `app.use(prefix)`, REST as a router catch-all `/**` (what Nuxt's `[...].ts` files become). */
function h3App(f: AdapterFixture, unhandled: unknown[]) {
    const getPrisma = (event: Parameters<Parameters<typeof createEventHandler>[0]['getPrisma']>[0]) =>
        f.getPrisma(event.node.req.headers[USER_HEADER] as string | undefined);
    // what escapes an event handler reaches h3's onError (which logs it and answers 500)
    const app = createApp({ onError: (error) => void unhandled.push(error) });
    app.use(RPC_PREFIX, createEventHandler({ ...f.common, handler: f.rpc, getPrisma }));
    const router = createRouter();
    router.use(`${REST_PREFIX}/**`, createEventHandler({ ...f.common, handler: f.rest, getPrisma }));
    router.get('/hello', defineEventHandler(() => ({ hello: 'world' })));
    app.use(router);
    return app;
}

const unhandled: unknown[] = [];

describeAdapter('nuxt (h3) adapter', async (f) => supertestHarness(http.createServer(toNodeListener(h3App(f, unhandled)))), {}, ({ harness, send, fixture, seed }) => {
    it('other routes of the app keep working next to the API', async () => {
        const res = await harness().send({ method: 'GET', url: '/hello' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ hello: 'world' });
    });

    it('a catch-all of any name works, as Nuxt names it after the file ([...slug].ts → /**:slug)', async () => {
        const f = fixture();
        const app = createApp();
        const router = createRouter();
        router.use('/api/named/**:slug', createEventHandler({ ...f.common, handler: f.rpc, getPrisma: () => f.getPrisma(undefined) }));
        app.use(router);
        const res = await supertestHarness(http.createServer(toNodeListener(app))).send({ method: 'GET', url: '/api/named/post/count' });
        expect(res.status).toBe(200);
        expect(typeof res.body.data).toBe('number');
    });

    it('an id with an encoded "?" under the router catch-all is that record, for reading and deleting (h3 ends the catch-all parameter at the decoded "?")', async () => {
        const db = fixture().schema.prisma;
        await db.allTypes.create({ data: { id: 'qm', string: 'plain' } });
        await db.allTypes.create({ data: { id: 'qm?x', string: 'with a question mark' } });
        const url = `${REST_PREFIX}/allTypes/${encodeURIComponent('qm?x')}`;
        const read = await send('GET', url);
        expect(read.status).toBe(200);
        expect([read.body.data.id, read.body.data.attributes.string]).toEqual(['qm?x', 'with a question mark']);
        const deleted = await send('DELETE', url);
        expect(deleted.status).toBe(204);
        expect(await db.allTypes.findUnique({ where: { id: 'qm?x' } })).toBeNull();
        expect(await db.allTypes.findUnique({ where: { id: 'qm' } })).not.toBeNull();
    });

    it('the path is taken from the request URL under every mount: named catch-all, a router under a base (Nitro\'s baseURL), useBase, app.use', async () => {
        const f = fixture();
        const id = 'q/1?2#3 4';
        await f.schema.prisma.allTypes.create({ data: { id, string: 'odd id' } });
        const handler = () => createEventHandler({ ...f.common, handler: f.rest, getPrisma: () => f.getPrisma(undefined) });
        const app = createApp();
        const based = createRouter();
        based.use('/api/model/**', handler());
        app.use('/base', based.handler);
        app.use('/ub', useBase('/ub', based.handler));
        app.use('/api/use', handler());
        const router = createRouter();
        router.use('/api/named/**:slug', handler());
        router.use('/api/:tenant/model/**', handler());
        app.use(router);
        const h = supertestHarness(http.createServer(toNodeListener(app)));
        for (const mount of ['/api/named', '/base/api/model', '/ub/api/model', '/api/use', '/api/acme/model']) {
            const res = await h.send({ method: 'GET', url: `${mount}/allTypes/${encodeURIComponent(id)}?fields[allTypes]=string` });
            expect({ mount, status: res.status, id: res.body?.data?.id, attributes: res.body?.data?.attributes }).toEqual({ mount, status: 200, id, attributes: { string: 'odd id' } });
        }
        // `/api/usex` is not under `/api/use` (h3 matches the prefix as a string): the app's 404
        expect((await h.send({ method: 'GET', url: `/api/usex/allTypes/${encodeURIComponent(id)}` })).status).toBe(404);
    });

    it('a path rewritten in front of the handler so that the URL no longer names it is refused 400, without calling getPrisma', async () => {
        const f = fixture();
        let called = 0;
        const api = createEventHandler({ ...f.common, handler: f.rest, getPrisma: () => {
                called++;
                return f.getPrisma(undefined);
            },
        });
        const app = createApp();
        const router = createRouter();
        // an alias route that renames the model in the path before handing the event over
        router.use('/api/model/**', defineEventHandler((event) => {
            event._path = event.path.replace('/allTypesAlias/', '/allTypes/');
            return api(event);
        }));
        app.use(router);
        const res = await supertestHarness(http.createServer(toNodeListener(app))).send({ method: 'GET', url: '/api/model/allTypesAlias/x' });
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toMatchObject({ status: 400, detail: expect.stringMatching(/does not match the path the framework routed/) });
        expect(called).toBe(0);
    });

    it('a malformed Host header is a 400 in the API format, not an error escaping to h3', async () => {
        unhandled.length = 0;
        for (const host of ['exa mple.com', '[::1']) {
            const rpc = await harness().send({ method: 'GET', url: `${RPC_PREFIX}/post/count`, headers: { host } });
            expect({ host, status: rpc.status }).toEqual({ host, status: 400 });
            expect(rpc.body.error.message).toMatch(/Host/);
            const rest = await harness().send({ method: 'GET', url: `${REST_PREFIX}/post`, headers: { host } });
            expect({ host, status: rest.status }).toEqual({ host, status: 400 });
            expect(rest.body.errors[0]).toMatchObject({ status: 400 });
            expect(rest.headers['content-type']).toBe('application/vnd.api+json');
        }
        expect(unhandled).toEqual([]);
        // a well-formed one still works
        expect((await send('GET', `${RPC_PREFIX}/post/count`)).status).toBe(200);
    });

    it('a TRACE request (a method no web Request can carry) reaches the handler, which refuses the method, as with 2.x', async () => {
        unhandled.length = 0;
        const rpc = await harness().send({ method: 'TRACE', url: `${RPC_PREFIX}/post/findMany` });
        expect(rpc.status).toBe(400);
        expect(rpc.body.error.message).toMatch(/request method/);
        const rest = await harness().send({ method: 'TRACE', url: `${REST_PREFIX}/post` });
        expect(rest.status).toBe(400);
        expect(rest.body.errors[0]).toMatchObject({ status: 400, code: 'invalid-verb' });
        expect(unhandled).toEqual([]);
    });

    it('getPrisma may read the body with h3 (await readBody(event)), as in 2.x; the adapter then reads the copy h3 keeps', async () => {
        const f = fixture();
        const { alice } = await seed();
        const seen: unknown[] = [];
        const app = createApp();
        app.use(
            '/api',
            createEventHandler({
                ...f.common,
                getPrisma: async (event) => {
                    const body = await readBody(event);
                    seen.push(body);
                    return f.getPrisma(String(body.data.authorId));
                },
            }),
        );
        const h = supertestHarness(http.createServer(toNodeListener(app)));
        const body = { data: { title: 'read by getPrisma', authorId: alice } };
        const res = await h.send({ method: 'POST', url: '/api/post/create', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        expect(res.status).toBe(201);
        expect(res.body.data.title).toBe('read by getPrisma');
        expect(seen).toEqual([body]);
    }, 15000);
});

describe("nuxt (h3) adapter: h3's body readers before and after it, as with 2.x (which read the body with readBody)", () => {
    /** A custom handler echoing the body it was given; the client is a stub (the handler never reaches it). */
    const echo = (async (ctx: { requestBody: unknown }) => ({ status: 201, body: ctx.requestBody ?? null })) as unknown as HandleRequestFn;
    const post = (body: string) => ({ method: 'POST', body, headers: { 'content-type': 'application/json' } });

    it("under toWebHandler (Bun, Deno, Workers), getPrisma may read the body with readBody(event): the adapter takes h3's value", async () => {
        const seen: unknown[] = [];
        const app = createApp();
        app.use('/api', createEventHandler({ modelMeta: {} as never, logger: null, handler: echo, getPrisma: async (event) => {
                seen.push(await readBody(event));
                return {};
            },
        }));
        const res = await toWebHandler(app)(new Request('http://localhost/api/post/create', post('{"a":1}')));
        expect({ status: res.status, body: await res.json() }).toEqual({ status: 201, body: { a: 1 } });
        expect(seen).toEqual([{ a: 1 }]);
    });

    it('readBody(event) after the adapter served a POST gets the body, on Node and under toWebHandler (the adapter leaves its copy to h3)', async () => {
        const seen: unknown[] = [];
        const api = createEventHandler({ modelMeta: {} as never, logger: null, handler: echo, getPrisma: () => ({}) });
        const router = createRouter();
        router.use('/api/**', defineEventHandler(async (event) => {
            const answer = await api(event);
            seen.push(await readBody(event));
            return answer;
        }));
        const app = createApp().use(router);
        const res = await request(http.createServer(toNodeListener(app))).post('/api/post/create').set('content-type', 'application/json').send('{"a":1}').timeout(5000);
        expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: { a: 1 } });
        const web = await toWebHandler(app)(new Request('http://localhost/api/post/create', post('{"b":2}')));
        expect({ status: web.status, body: await web.json() }).toEqual({ status: 201, body: { b: 2 } });
        expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
    });

    it('a streamed body over the limit is cut off with 413 on Node; readBody(event) after the adapter gets that refusal instead of waiting for ever', async () => {
        const refusals: unknown[] = [];
        const api = createEventHandler({ modelMeta: {} as never, logger: null, bodyLimit: 100, handler: echo, getPrisma: () => ({}) });
        const app = createApp().use('/api', defineEventHandler(async (event) => {
            const answer = await api(event);
            await readBody(event).catch((err: { statusCode?: number }) => refusals.push(err.statusCode));
            return answer;
        }));
        const server = http.createServer(toNodeListener(app)).listen(0);
        try {
            await once(server, 'listening');
            // chunked, without a Content-Length: the adapter reads the stream and stops at the limit
            const req = http.request({ port: (server.address() as { port: number }).port, method: 'POST', path: '/api/post/create', headers: { 'content-type': 'application/json' } });
            req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
            req.write(`{"a":"${'x'.repeat(200)}`);
            setTimeout(() => req.end(`${'x'.repeat(200)}"}`), 50);
            const [res] = (await once(req, 'response')) as [http.IncomingMessage];
            let text = '';
            for await (const chunk of res) text += String(chunk);
            expect({ status: res.statusCode, body: JSON.parse(text) }).toEqual({ status: 413, body: { error: { message: 'request body exceeds the limit of 100 bytes' } } });
            expect(refusals).toEqual([413]);
        } finally {
            server.close();
        }
    });
});
