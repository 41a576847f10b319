import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { ZenStackFastifyPlugin } from '../../src/adapters/fastify';
import { createFixture, REST_PREFIX, RPC_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { supertestHarness } from './support/supertest';

/**
 * The plugin among the application's own hooks and error handler, as 2.x's (a fastify-plugin) lived there:
 * what the application throws is the application's to answer, and its app-wide hooks see the plugin's payloads.
 */
describe('fastify adapter inside an application with its own hooks and error handler', () => {
    let f: AdapterFixture;
    let alice: number;
    beforeAll(async () => {
        f = await createFixture();
        alice = (await f.schema.prisma.user.create({ data: { email: 'hooks-app@x.io' } })).id;
        await f.schema.prisma.post.create({ data: { title: 'published', published: true, authorId: alice } });
    });
    afterAll(() => f.schema.cleanup());

    /** An app whose auth hook refuses a request without `x-token: ok` with a 401, and whose preHandler may crash. */
    async function appWith(setup: (app: FastifyInstance) => void): Promise<FastifyInstance> {
        const app = Fastify();
        setup(app);
        app.addHook('onRequest', async (request) => {
            if (request.headers['x-token'] !== 'ok') throw Object.assign(new Error('missing token'), { statusCode: 401 });
        });
        app.addHook('preHandler', async (request) => {
            if (request.headers['x-crash']) throw new Error('the audit log is down');
        });
        const getPrisma = (request: { headers: Record<string, unknown> }) => f.getPrisma(request.headers[USER_HEADER] as string | undefined);
        await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: RPC_PREFIX, handler: f.rpc, getPrisma });
        await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: REST_PREFIX, handler: f.rest, getPrisma });
        await app.ready();
        return app;
    }

    it("an error thrown by the application's hooks on the plugin's routes is answered by the application's error handler", async () => {
        const app = await appWith((a) =>
            a.setErrorHandler((error: FastifyError, _request, reply) => reply.code(error.statusCode ?? 500).send({ handledByApp: error.message })),
        );
        try {
            const http = supertestHarness(app.server);
            const refused = await http.send({ method: 'GET', url: `${RPC_PREFIX}/post/count` });
            expect([refused.status, refused.body]).toEqual([401, { handledByApp: 'missing token' }]);
            const crashed = await http.send({ method: 'GET', url: `${REST_PREFIX}/post`, headers: { 'x-token': 'ok', 'x-crash': '1' } });
            expect([crashed.status, crashed.body]).toEqual([500, { handledByApp: 'the audit log is down' }]);
            // the plugin's own refusals of a body stay in the API's format
            const malformed = await http.send({ method: 'POST', url: `${RPC_PREFIX}/post/create`, body: '{"data":', headers: { 'x-token': 'ok', 'content-type': 'application/json' } });
            expect(malformed.status).toBe(400);
            expect(malformed.body.error.message).toMatch(/invalid JSON/);
            const large = JSON.stringify({ data: { title: 'x'.repeat(f.common.bodyLimit), authorId: alice } });
            const tooLarge = await http.send({ method: 'POST', url: `${RPC_PREFIX}/post/create`, body: large, headers: { 'x-token': 'ok', 'content-type': 'application/json' } });
            expect(tooLarge.status).toBe(413);
            expect(tooLarge.body.error.message).toMatch(/exceeds the limit/);
            const rest = await http.send({ method: 'PATCH', url: `${REST_PREFIX}/post/1`, body: '{"data":', headers: { 'x-token': 'ok', 'content-type': 'application/vnd.api+json' } });
            expect([rest.status, rest.headers['content-type'], rest.body.errors[0].status]).toEqual([400, 'application/vnd.api+json', 400]);
            // and a request the hooks let through is served
            const served = await http.send({ method: 'GET', url: `${RPC_PREFIX}/post/count`, headers: { 'x-token': 'ok' } });
            expect([served.status, served.body]).toEqual([200, { data: 1 }]);
        } finally {
            await app.close();
        }
    });

    it("without an application error handler, Fastify's default one answers the application's errors, as with 2.x", async () => {
        const app = await appWith(() => undefined);
        try {
            const refused = await supertestHarness(app.server).send({ method: 'GET', url: `${RPC_PREFIX}/post/count` });
            expect([refused.status, refused.body]).toEqual([401, { statusCode: 401, error: 'Unauthorized', message: 'missing token' }]);
        } finally {
            await app.close();
        }
    });

    it("the application's preSerialization hooks see the handler's payload; the JSON:API media type keeps no charset parameter", async () => {
        const app = await appWith((a) => a.addHook('preSerialization', async (request, _reply, payload: object) => ({ ...payload, requestId: request.id })));
        try {
            const http = supertestHarness(app.server);
            const rpc = await http.send({ method: 'GET', url: `${RPC_PREFIX}/post/count`, headers: { 'x-token': 'ok' } });
            expect([rpc.status, rpc.headers['content-type'], rpc.body]).toEqual([200, 'application/json; charset=utf-8', { data: 1, requestId: expect.any(String) }]);
            const rest = await http.send({ method: 'GET', url: `${REST_PREFIX}/post`, headers: { 'x-token': 'ok' } });
            expect([rest.status, rest.headers['content-type']]).toEqual([200, 'application/vnd.api+json']);
            expect(rest.body).toMatchObject({ data: [{ type: 'post', attributes: { title: 'published' } }], requestId: expect.any(String) });
            expect(rest.headers['content-length']).toBe(String(Buffer.byteLength(rest.text)));
            // an answer of the plugin's own (a refused body) goes through them too
            const malformed = await http.send({ method: 'POST', url: `${RPC_PREFIX}/post/create`, body: '{"data":', headers: { 'x-token': 'ok', 'content-type': 'application/json' } });
            expect([malformed.status, typeof malformed.body.requestId]).toEqual([400, 'string']);
            // a 204 has no payload to see
            const post = await f.schema.prisma.post.create({ data: { title: 'to delete', authorId: alice } });
            const deleted = await http.send({ method: 'DELETE', url: `${REST_PREFIX}/post/${post.id}`, headers: { 'x-token': 'ok', [USER_HEADER]: String(alice) } });
            expect([deleted.status, deleted.text, deleted.headers['content-type']]).toEqual([204, '', undefined]);
        } finally {
            await app.close();
        }
    });

    it('a preSerialization hook that changes the payload in place is seen too', async () => {
        const app = await appWith((a) =>
            a.addHook('preSerialization', async (_request, _reply, payload: Record<string, unknown>) => {
                payload.stamped = true;
                return payload;
            }),
        );
        try {
            const res = await supertestHarness(app.server).send({ method: 'GET', url: `${RPC_PREFIX}/post/count`, headers: { 'x-token': 'ok' } });
            expect([res.status, res.body]).toEqual([200, { data: 1, stamped: true }]);
        } finally {
            await app.close();
        }
    });

    it('without such hooks, the bytes are the compact JSON text of the payload, as before', async () => {
        const app = await appWith(() => undefined);
        try {
            const res = await supertestHarness(app.server).send({ method: 'GET', url: `${REST_PREFIX}/post`, headers: { 'x-token': 'ok' } });
            expect([res.status, res.headers['content-type']]).toEqual([200, 'application/vnd.api+json']);
            expect(res.text).toBe(JSON.stringify(res.body));
            expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
        } finally {
            await app.close();
        }
    });
});
