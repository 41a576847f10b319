import path from 'node:path';
import request from 'supertest';
import { startChildApp, stopChildApp, type ChildApp } from './support/child-app';
import { USER_HEADER } from './support/fixture';

/**
 * zenstackhq/zenstack#2048 asked for the NestJS integration on NestJS's Fastify platform, which 2.x documented but
 * never ran. The app (tests/adapters/nestjs/fastify-app.ts: ZenStackModule + ApiHandlerService behind
 * `@nestjs/platform-fastify`) runs in a child process, as the Express-platform one does; each claim docs/adapters.md
 * makes about this platform is checked over real HTTP.
 */
let app: ChildApp<{ bare: number; parser: number }> | undefined;
const url = (which: 'bare' | 'parser') => `http://127.0.0.1:${app!.ports[which]}`;
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function raw(model: string, op: string, args: unknown): Promise<any> {
    const res = await request(url('bare')).post(`/__raw/${model}/${op}`).send(args as object);
    if (res.status >= 300) throw new Error(`raw ${model}.${op}: ${res.status} ${res.text}`);
    return res.body.result;
}

let n = 0;
async function seed(): Promise<{ alice: number; bob: number; draft: number }> {
    n++;
    const alice = await raw('user', 'create', { data: { email: `fa-alice${n}@x.io` } });
    const bob = await raw('user', 'create', { data: { email: `fa-bob${n}@x.io` } });
    const draft = await raw('post', 'create', { data: { title: `fa draft ${n}`, authorId: alice.id } });
    return { alice: alice.id, bob: bob.id, draft: draft.id };
}

const asJsonApi = (alice: number, title: string) =>
    JSON.stringify({ data: { type: 'post', attributes: { title }, relationships: { author: { data: { type: 'user', id: String(alice) } } } } });

beforeAll(async () => {
    app = await startChildApp(path.join(__dirname, 'nestjs', 'fastify-app.ts'));
});
afterAll(async () => {
    if (app) await stopChildApp(app.child);
});

describe('nestjs adapter on the Fastify platform (#2048)', () => {
    it('RPC reads: q and meta are decoded from the URL, the per-request user decides what is visible', async () => {
        const { alice, bob, draft } = await seed();
        // a Date filter travels in meta.serialization, as the generated hooks send it
        const since = { where: { authorId: alice, createdAt: { gte: '2000-01-01T00:00:00.000Z' } } };
        const meta = q({ serialization: { values: { 'where.createdAt.gte': ['Date'] } } });
        const find = (user: number) => request(url('bare')).get(`/api/rpc/post/findMany?q=${q(since)}&meta=${meta}`).set(USER_HEADER, String(user));
        const owner = await find(alice);
        expect(owner.status).toBe(200);
        expect(owner.body.data.map((p: { id: number }) => p.id)).toEqual([draft]);
        expect(owner.body.meta.serialization.values['0.createdAt']).toEqual(['Date']);
        expect((await find(bob)).body.data).toEqual([]);
    });

    it("RPC writes run as the user; a success gets Nest's route status and application/json, errors the API's status and body", async () => {
        const { alice, bob, draft } = await seed();
        const created = await request(url('bare'))
            .post('/api/rpc/post/create')
            .set(USER_HEADER, String(alice))
            .send({ data: { title: 'fastify create', authorId: alice } });
        // documented: on this platform Nest sets the status of an @All route (200), not the handler's 201
        expect([created.status, created.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
        expect(created.body.data).toMatchObject({ title: 'fastify create', authorId: alice });

        const denied = await request(url('bare')).post('/api/rpc/post/create').set(USER_HEADER, String(bob)).send({ data: { title: 'forged', authorId: alice } });
        expect(denied.status).toBe(403);
        expect(denied.body.error).toMatchObject({ rejectedByPolicy: true, code: 'P2004' });

        // the hooks' DELETE: arguments in q; another user's draft is hidden from Bob, so it is not found
        const hidden = await request(url('bare')).delete(`/api/rpc/post/delete?q=${q({ where: { id: draft } })}`).set(USER_HEADER, String(bob));
        expect(hidden.status).toBe(404);
        expect(await raw('post', 'count', { where: { title: { in: ['forged'] } } })).toBe(0);
        expect(await raw('post', 'count', { where: { id: draft } })).toBe(1);
    });

    it("a malformed JSON body is answered by Fastify's parser (its 400, before the controller runs)", async () => {
        const { alice } = await seed();
        const res = await request(url('bare')).post('/api/rpc/post/create').set(USER_HEADER, String(alice)).set('content-type', 'application/json').send('{"data":');
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400 });
    });

    it('a JSON:API body is 415 until the documented parser is registered; with it, served, and a malformed one is a JSON:API 400', async () => {
        const { alice } = await seed();
        const post = (which: 'bare' | 'parser', body: string) =>
            request(url(which)).post('/api/rest/post').set(USER_HEADER, String(alice)).set('content-type', 'application/vnd.api+json').send(body);
        expect((await post('bare', asJsonApi(alice, 'fastify rest'))).status).toBe(415);
        const served = await post('parser', asJsonApi(alice, 'fastify rest'));
        expect(served.status).toBe(200);
        expect(served.body.data).toMatchObject({ type: 'post', attributes: { title: 'fastify rest' } });
        const malformed = await post('parser', '{"data":');
        expect(malformed.status).toBe(400);
        expect(malformed.body.errors[0]).toMatchObject({ status: 400, code: 'invalid-payload' });
        expect(await raw('post', 'count', { where: { title: 'fastify rest' } })).toBe(1);
    });

    it("#2048's other way, the Fastify plugin registered on Nest's Fastify instance, serves beside Nest's routes with its own statuses", async () => {
        const { alice, bob } = await seed();
        const send = (user: number, body: string) =>
            request(url('bare')).post('/plugin/rpc/post/create').set(USER_HEADER, String(user)).set('content-type', 'application/json').send(body);
        const created = await send(alice, JSON.stringify({ data: { title: 'through the plugin', authorId: alice } }));
        expect([created.status, created.body.data.title]).toEqual([201, 'through the plugin']);
        expect((await send(bob, JSON.stringify({ data: { title: 'forged', authorId: alice } }))).status).toBe(403);
        // the plugin reads its own bodies: a malformed one is the API's 400, not Fastify's
        const malformed = await send(alice, '{"data":');
        expect([malformed.status, malformed.body.error.message]).toEqual([400, expect.stringMatching(/^invalid JSON/)]);
    });

    it('the path stays percent-encoded: an id with an encoded slash and ? is one segment', async () => {
        const id = `x/y?z${++n}`;
        await raw('allTypes', 'create', { data: { id, string: 'odd id on fastify' } });
        const res = await request(url('bare')).get(`/api/rest/allTypes/${encodeURIComponent(id)}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ id, attributes: { string: 'odd id on fastify' } });
    });

    it("a Nest HttpException thrown by getEnhancedPrisma reaches Nest's exception layer as it is; other failures keep the API's answer", async () => {
        const get = (user: string) => request(url('bare')).get('/api/rpc/post/findMany').set(USER_HEADER, user);
        const nest = await get('nest-401');
        expect({ status: nest.status, body: nest.body }).toEqual({ status: 401, body: { message: 'bad token', error: 'Unauthorized', statusCode: 401 } });
        const app401 = await get('invalid');
        expect({ status: app401.status, body: app401.body }).toEqual({ status: 401, body: { error: { message: 'invalid credentials' } } });
        const crash = await get('crash');
        expect({ status: crash.status, body: crash.body }).toEqual({ status: 500, body: { error: { message: 'an unexpected error occurred' } } });
        // documented: without Fastify's reply the service cannot add Retry-After to a 503 here
        const down = await get('maintenance');
        expect([down.status, down.body, down.headers['retry-after']]).toEqual([503, { error: { message: 'down for maintenance' } }, undefined]);
    });

    it("a custom handler's response header that cannot be sent is a generic 500, not a request left hanging", async () => {
        const res = await request(url('bare')).get('/bad-header/post/findMany').timeout(5000);
        expect({ status: res.status, body: res.body }).toEqual({ status: 500, body: { error: { message: 'an unexpected error occurred' } } });
    });
});
