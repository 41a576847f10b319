import path from 'node:path';
import request from 'supertest';
import { startChildApp, stopChildApp, type ChildApp } from './support/child-app';
import { headerOf, USER_HEADER } from './support/fixture';
import { describeScenario, type StartedScenario } from './support/scenario';
import { supertestHarness } from './support/supertest';

/**
 * The application (tests/adapters/nestjs/app.ts: Nest's testing module, ZenStackModule, ApiHandlerService) runs
 * in a child Node process (NestJS 12 is ES modules only: see startChildApp), and these tests talk to it over real HTTP.
 */
type NestChild = ChildApp<{ plain: number; parsed: number }>;

let nest: NestChild | undefined;
const base = (which: 'plain' | 'parsed') => `http://127.0.0.1:${nest!.ports[which]}`;

/** The raw client of the child, one HTTP call per `prisma.<model>.<op>(args)`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const rawPrisma: any = new Proxy(
    {},
    {
        get: (_t, model: string) =>
            new Proxy(
                {},
                {
                    get: (_m, op: string) => async (args: unknown) => {
                        const res = await request(base('parsed')).post(`/__raw/${model}/${op}`).send(args ?? {});
                        if (res.status >= 300) throw new Error(`raw ${model}.${op} failed: ${res.status} ${res.text}`);
                        return res.body.result;
                    },
                },
            ),
    },
);

async function startNest(): Promise<StartedScenario> {
    nest ??= await startChildApp(path.join(__dirname, 'nestjs', 'app.ts'));
    return {
        data: {
            prisma: rawPrisma,
            loggedErrors: async () => (await request(base('parsed')).get('/__raw/errors')).body,
        },
        harness: supertestHarness(base('plain')),
        stop: async () => undefined,
    };
}

afterAll(async () => {
    if (nest) await stopChildApp(nest.child);
});

describeScenario("nestjs adapter (ZenStackModule + ApiHandlerService, Nest's body parser off)", startNest, { restContentType: 'nest' }, ({ seed }) => {
    it('handleRequest() returns the response body, so interceptors reshape the API document itself', async () => {
        const { published } = await seed();
        const app = supertestHarness(base('plain'));
        const res = await app.send({ method: 'GET', url: `/custom/enveloped/post/${published}` });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
        expect(res.body.envelope.data).toMatchObject({ type: 'post', id: published, attributes: { title: 'hello' } });
        // an API error is thrown, so it skips the interceptor and reaches Nest's exception layer with its status and body
        const missing = await app.send({ method: 'GET', url: '/custom/enveloped/post/999999' });
        expect(missing.status).toBe(404);
        expect(missing.body.errors[0]).toMatchObject({ status: 404, code: 'not-found' });
    });

    it('API errors are HttpExceptions carrying the status and body: try/catch and exception filters see them', async () => {
        const { alice, bob } = await seed();
        const app = supertestHarness(base('plain'));
        const forged = JSON.stringify({ data: { title: 'forged', authorId: alice } });
        const caught = await app.send({ method: 'POST', url: '/custom/caught/post/create', headers: { [USER_HEADER]: String(bob) }, body: forged });
        expect(caught.status).toBe(200);
        expect(caught.headers['content-type']).toMatch(/^application\/json/);
        expect(caught.body).toMatchObject({ caught: 403, api: { error: { rejectedByPolicy: true } } });
        const filtered = await app.send({ method: 'POST', url: '/custom/filtered/post/create', headers: { [USER_HEADER]: String(bob) }, body: forged });
        expect(filtered.status).toBe(403);
        expect(filtered.body).toMatchObject({ filtered: 403, api: { error: { rejectedByPolicy: true } } });
        expect(await rawPrisma.post.count({ where: { title: 'forged' } })).toBe(0);
        // a success passes through both untouched, with the handler's status
        const created = await app.send({
            method: 'POST',
            url: '/custom/filtered/post/create',
            headers: { [USER_HEADER]: String(alice) },
            body: JSON.stringify({ data: { title: 'through the filter', authorId: alice } }),
        });
        expect(created.status).toBe(201);
        expect(created.body.data).toMatchObject({ title: 'through the filter' });
    });

    it('the returned body can be sent by hand with res.json()', async () => {
        const { published } = await seed();
        const res = await supertestHarness(base('plain')).send({ method: 'GET', url: `/custom/by-hand/post/${published}` });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ type: 'post', id: published, attributes: { title: 'hello' } });
    });

    it("with Nest's body parser on, JSON bodies it parsed and vnd.api+json bodies it left are both served", async () => {
        const { alice } = await seed();
        const app = supertestHarness(base('parsed'));
        const rpc = await app.send({
            method: 'POST',
            url: '/api/rpc/post/create',
            headers: { 'content-type': 'application/json', [USER_HEADER]: String(alice) },
            body: JSON.stringify({ data: { title: 'parsed by nest', authorId: alice } }),
        });
        expect(rpc.status).toBe(201);
        const rest = await app.send({
            method: 'POST',
            url: '/api/rest/post',
            headers: { 'content-type': 'application/vnd.api+json', [USER_HEADER]: String(alice) },
            body: JSON.stringify({ data: { type: 'post', attributes: { title: 'left to the adapter' }, relationships: { author: { data: { type: 'user', id: String(alice) } } } } }),
        });
        expect(rest.status).toBe(201);
        expect(await rawPrisma.post.count({ where: { authorId: alice } })).toBe(4);
    });

    it("with Nest's body parser on, a malformed JSON body is still a JSON 400 (Nest's own format)", async () => {
        const res = await supertestHarness(base('parsed')).send({
            method: 'POST',
            url: '/api/rpc/post/create',
            headers: { 'content-type': 'application/json' },
            body: '{"data":',
        });
        // documented: create the app with `bodyParser: false` to get the API's own error format instead
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body.statusCode).toBe(400);
    });

    it("a Nest HttpException thrown by the app's getEnhancedPrisma reaches Nest and its filters as it is", async () => {
        const app = supertestHarness(base('plain'));
        const plain = await app.send({ method: 'GET', url: `/api/rpc/post/findMany`, headers: { [USER_HEADER]: 'nest-401' } });
        expect({ status: plain.status, body: plain.body }).toEqual({ status: 401, body: { message: 'bad token', error: 'Unauthorized', statusCode: 401 } });
        const filtered = await app.send({ method: 'GET', url: '/custom/filtered/post/findMany', headers: { [USER_HEADER]: 'nest-401' } });
        expect(filtered.body).toEqual({ filtered: 401, api: { message: 'bad token', error: 'Unauthorized', statusCode: 401 } });
    });

    it('a Nest HttpException thrown by a custom handler reaches Nest as it is (its status and body), as with 2.x', async () => {
        const errorsBefore = ((await request(base('parsed')).get('/__raw/errors')).body as string[]).length;
        const res = await supertestHarness(base('plain')).send({ method: 'GET', url: '/custom/refused/post/findMany' });
        expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { message: 'not yours', error: 'Forbidden', statusCode: 403 } });
        // an answer the app chose, not a failure: nothing logged as an error
        expect(((await request(base('parsed')).get('/__raw/errors')).body as string[]).length).toBe(errorsBefore);
    });

    it("a custom handler's string body goes back to Nest as text, typed by Nest as with 2.x (not labelled JSON)", async () => {
        const res = await supertestHarness(base('plain')).send({ method: 'GET', url: '/custom/text/anything' });
        expect([res.status, res.text, headerOf(res.headers, 'content-type')]).toEqual([200, 'hello', 'text/html; charset=utf-8']);
        // and a null body is an empty answer that does not claim to be JSON
        const nothing = await supertestHarness(base('plain')).send({ method: 'GET', url: '/custom/null/anything' });
        expect([nothing.status, nothing.text, headerOf(nothing.headers, 'content-type')]).toEqual([200, '', undefined]);
    });

    it("a custom handler's response header that cannot be sent is a logged, generic 500, as in every adapter", async () => {
        const logged = async () => (await request(base('parsed')).get('/__raw/errors')).body as string[];
        const before = (await logged()).length;
        const res = await supertestHarness(base('plain')).send({ method: 'GET', url: '/custom/bad-header/anything' });
        expect({ status: res.status, body: res.body }).toEqual({ status: 500, body: { error: { message: 'an unexpected error occurred' } } });
        expect((await logged()).slice(before)).toEqual([expect.stringMatching(/invalid response header/)]);
    });

    it('ApiHandlerService serves a REQUEST that is a plain object (an app unit-testing it with a stand-in HTTP adapter)', async () => {
        const { alice } = await seed();
        const app = supertestHarness(base('parsed'));
        const run = async (input: Record<string, unknown>) =>
            (await app.send({ method: 'POST', url: '/__standalone', body: JSON.stringify(input), headers: { 'content-type': 'application/json' } })).body;
        const created = await run({ method: 'POST', url: '/post/create', user: String(alice), body: { data: { title: 'standalone', authorId: alice } } });
        expect(created.resolved.data).toMatchObject({ title: 'standalone', authorId: alice });
        const read = await run({ method: 'GET', url: `/post/findFirst?q=${encodeURIComponent(JSON.stringify({ where: { title: 'standalone' } }))}`, user: String(alice) });
        expect(read.resolved.data).toMatchObject({ id: created.resolved.data.id });
        const missing = await run({ method: 'POST', url: '/post/create', user: String(alice) });
        expect(missing).toMatchObject({ threw: 400, body: { error: { message: 'missing request body' } } });

        // a mock request (node-mocks-http's kind: an event emitter that never streams) is served from its body too
        const mocked = await run({ mock: true, method: 'POST', url: '/post/create', user: String(alice), body: { data: { title: 'mocked', authorId: alice } } });
        expect(mocked.resolved.data).toMatchObject({ title: 'mocked', authorId: alice });
        const mockedRead = await run({ mock: true, method: 'GET', url: `/post/findFirst?q=${encodeURIComponent(JSON.stringify({ where: { title: 'mocked' } }))}`, user: String(alice) });
        expect(mockedRead.resolved.data).toMatchObject({ id: mocked.resolved.data.id });

        // a string under a JSON content type is a JSON string literal a parser has read already (Nest on Fastify hands
        // such a value over): the string is the body, not a document parsed out of it a second time
        const document = { data: { type: 'post', attributes: { title: 'twice' }, relationships: { author: { data: { type: 'user', id: String(alice) } } } } };
        const literal = await run({ mock: true, rest: true, method: 'POST', url: '/post', user: String(alice), body: JSON.stringify(document) });
        expect(literal).toMatchObject({ threw: 400, body: { errors: [{ code: 'invalid-payload' }] } });
        expect(await rawPrisma.post.count({ where: { title: 'twice' } })).toBe(0);

        // a getEnhancedPrisma(model) refusing one model with Nest's exception: thrown when the handler reaches that
        // model, it still reaches the caller (and Nest) as it is, not as a 500 of the handler (nor 2.x's 400)
        const refused = await run({ method: 'GET', url: '/post/findMany', user: String(alice), refuseModel: 'post' });
        expect(refused).toEqual({ threw: 403, body: { message: 'no post for you', error: 'Forbidden', statusCode: 403 } });
        const otherModel = await run({ method: 'GET', url: '/user/count', user: String(alice), refuseModel: 'post' });
        expect(otherModel.resolved.data).toEqual(expect.any(Number));
    });

    it('getEnhancedPrisma is only called with the member accessed, as 2.x calls it: a getter that needs the model serves every request', async () => {
        const { alice } = await seed();
        const app = supertestHarness(base('parsed'));
        const run = async (input: Record<string, unknown>) =>
            (await app.send({ method: 'POST', url: '/__standalone', body: JSON.stringify(input), headers: { 'content-type': 'application/json' } })).body;
        // a getter that throws, or returns nothing, when it is not told the model (2.22.3 serves all of these)
        for (const needsModel of ['throw', 'undefined']) {
            const created = await run({ needsModel, method: 'POST', url: '/post/create', user: String(alice), body: { data: { title: `needs ${needsModel}`, authorId: alice } } });
            expect(created).toMatchObject({ resolved: { data: { title: `needs ${needsModel}`, authorId: alice } } });
            const read = await run({ needsModel, method: 'GET', url: `/post/findFirst?q=${encodeURIComponent(JSON.stringify({ where: { title: `needs ${needsModel}` } }))}`, user: String(alice) });
            expect(read).toMatchObject({ resolved: { data: { id: created.resolved.data.id } } });
            // a REST collection (page and total) and a transaction
            const page = await run({ needsModel, rest: true, method: 'GET', url: '/post?page[limit]=1', user: String(alice) });
            expect(page).toMatchObject({ resolved: { meta: { total: expect.any(Number) } } });
            const tx = await run({ needsModel, method: 'POST', url: '/$transaction/sequential', user: String(alice), body: [{ model: 'post', op: 'count', args: { where: { authorId: alice } } }] });
            expect(tx).toMatchObject({ resolved: { data: [expect.any(Number)] } });
        }
    });

    it("a failing getEnhancedPrisma is logged as a failing getPrisma is, not once more as the handler's failure", async () => {
        const app = supertestHarness(base('plain'));
        const logged = async () => (await request(base('parsed')).get('/__raw/errors')).body as string[];
        for (const url of ['/api/rpc/post/findMany', '/api/rest/post']) {
            const before = (await logged()).length;
            // the app's 401: answered with its status, nothing logged
            expect((await app.send({ method: 'GET', url, headers: { [USER_HEADER]: 'invalid' } })).status).toBe(401);
            expect((await logged()).slice(before)).toEqual([]);
            // an unexpected error: a generic 500, logged once, as getPrisma's
            expect((await app.send({ method: 'GET', url, headers: { [USER_HEADER]: 'crash' } })).status).toBe(500);
            expect((await logged()).slice(before)).toEqual([expect.stringMatching(/^getPrisma failed: Error: database password is hunter2/)]);
        }
    });

    it('the exported ENHANCED_PRISMA client follows the per-request user', async () => {
        const { alice } = await seed();
        const app = supertestHarness(base('plain'));
        const anonymous = (await app.send({ method: 'GET', url: '/mine/posts' })).body;
        const owner = (await app.send({ method: 'GET', url: '/mine/posts', headers: { [USER_HEADER]: String(alice) } })).body;
        expect(owner).toBe(anonymous + 1);
    });
});
