import { createFixture, REST_PREFIX, RPC_PREFIX, USER_HEADER, BODY_LIMIT, QUERY_LIMIT, type AdapterFixture } from './fixture';

/** Response bodies are inspected freely in tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBody = any;

export interface SendInit {
    method: string;
    /** Path and query, e.g. `/api/rpc/post/findMany?q=...`. */
    url: string;
    body?: string;
    headers?: Record<string, string>;
}

export interface TestResponse {
    status: number;
    /** Lower-case header names. */
    headers: Record<string, string>;
    text: string;
    body: AnyBody;
}

/** One framework app under test, driven through the framework's own request mechanism. */
export interface Harness {
    send(init: SendInit): Promise<TestResponse>;
    close?(): Promise<void>;
}

export interface ScenarioOptions {
    /** Whether the adapter itself decides what is under its mount point (false for file-routed frameworks). */
    outsidePrefix?: boolean;
    /**
     * How the REST media type comes out: `exact` (default) is `application/vnd.api+json` for successes and errors;
     * `nest` is how NestJS sends what the service returns or throws: successes keep the media type (Express adds
     * `; charset=utf-8`), errors are rendered by Nest's exception layer as `application/json`.
     */
    restContentType?: 'exact' | 'nest';
}

/** Checks the content type of a JSON:API response (`kind`: a success or an error document). */
function expectJsonApiType(res: TestResponse, kind: 'success' | 'error', options: ScenarioOptions): void {
    const type = res.headers['content-type'];
    if (options.restContentType !== 'nest') {
        expect(type).toBe('application/vnd.api+json');
    } else if (kind === 'success') {
        expect(type).toMatch(/^application\/vnd\.api\+json(; charset=utf-8)?$/);
    } else {
        expect(type).toMatch(/^application\/json/);
    }
}

/** Builds a `TestResponse` from status, headers and text. */
export function testResponse(status: number, headers: Record<string, string>, text: string): TestResponse {
    const lower: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
    let body: AnyBody;
    try {
        body = text ? JSON.parse(text) : undefined;
    } catch {
        body = undefined;
    }
    return { status, headers: lower, text, body };
}

export async function fromFetchResponse(res: Response): Promise<TestResponse> {
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    return testResponse(res.status, headers, await res.text());
}

/** What the shared tests need besides the app: raw database access and the adapter's error log. */
export interface ScenarioData {
    /** The raw (policy-free) client, or a stand-in with the same calls. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    prisma: any;
    loggedErrors(): Promise<string[]>;
}

/** A started app: its data side, its request side, and how to stop both. */
export interface StartedScenario {
    data: ScenarioData;
    harness: Harness;
    stop(): Promise<void>;
}

export interface ScenarioContext {
    /** The in-process fixture (only for `describeAdapter`). */
    fixture: () => AdapterFixture;
    harness: () => Harness;
    send: (
        method: string,
        url: string,
        options?: { body?: unknown; raw?: string; user?: string | number; contentType?: string; headers?: Record<string, string> },
    ) => Promise<TestResponse>;
    seed: () => Promise<{ alice: number; bob: number; published: number; draft: number }>;
}

const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));

/**
 * The behaviour every adapter shares, checked through the real framework: RPC and REST reads and writes,
 * a policy denial for a per-request user, malformed and oversized bodies, 204, getPrisma failures, the mount prefix.
 * `extra` adds adapter-specific tests with the same app.
 */
export function describeAdapter(
    name: string,
    build: (fixture: AdapterFixture) => Promise<Harness>,
    options: ScenarioOptions = {},
    extra?: (ctx: ScenarioContext) => void,
): void {
    let fixture: AdapterFixture;
    const start = async (): Promise<StartedScenario> => {
        fixture = await createFixture();
        const harness = await build(fixture);
        return {
            data: { prisma: fixture.schema.prisma, loggedErrors: async () => fixture.errors },
            harness,
            stop: async () => {
                await harness.close?.();
                await fixture.schema.cleanup();
            },
        };
    };
    describeScenario(name, start, options, extra && ((ctx) => extra({ ...ctx, fixture: () => fixture })));
}

/** The shared tests against an app started by `start` (in this process or another one). */
export function describeScenario(
    name: string,
    start: () => Promise<StartedScenario>,
    options: ScenarioOptions = {},
    extra?: (ctx: ScenarioContext) => void,
): void {
    describe(name, () => {
        let started: StartedScenario | undefined;
        let n = 0;
        /** The raw database (policy-free). */
        const db = () => started!.data.prisma;

        beforeAll(async () => {
            started = await start();
        });
        afterAll(async () => {
            await started?.stop();
        });

        const send: ScenarioContext['send'] = (method, url, opts = {}) => {
            const headers: Record<string, string> = { ...opts.headers };
            if (opts.user !== undefined) headers[USER_HEADER] = String(opts.user);
            let body: string | undefined;
            if (opts.raw !== undefined || opts.body !== undefined) {
                body = opts.raw ?? JSON.stringify(opts.body);
                headers['content-type'] = opts.contentType ?? 'application/json';
            }
            return started!.harness.send({ method, url, body, headers });
        };

        const seed: ScenarioContext['seed'] = async () => {
            n++;
            const prisma = db();
            const alice = await prisma.user.create({ data: { email: `alice${n}@x.io`, name: 'Alice' } });
            const bob = await prisma.user.create({ data: { email: `bob${n}@x.io`, name: 'Bob' } });
            const published = await prisma.post.create({ data: { title: 'hello', published: true, authorId: alice.id } });
            const draft = await prisma.post.create({ data: { title: 'secret draft', authorId: alice.id } });
            return { alice: alice.id, bob: bob.id, published: published.id, draft: draft.id };
        };

        it('RPC read: the mount prefix is stripped, q is decoded, the per-request user decides what is visible', async () => {
            const { alice } = await seed();
            const url = `${RPC_PREFIX}/post/findMany?q=${q({ where: { authorId: alice }, orderBy: { id: 'asc' } })}`;
            const anonymous = await send('GET', url);
            expect(anonymous.status).toBe(200);
            expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
            expect(anonymous.body.data.map((p: AnyBody) => p.title)).toEqual(['hello']);
            const owner = await send('GET', url, { user: alice });
            expect(owner.body.data.map((p: AnyBody) => p.title)).toEqual(['hello', 'secret draft']);
        });

        it('RPC write: create answers 201 and persists', async () => {
            const { alice } = await seed();
            const res = await send('POST', `${RPC_PREFIX}/post/create`, { user: alice, body: { data: { title: 'via rpc', authorId: alice } } });
            expect(res.status).toBe(201);
            expect(res.body.data).toMatchObject({ title: 'via rpc', authorId: alice });
            expect(await db().post.count({ where: { title: 'via rpc', authorId: alice } })).toBe(1);
        });

        it('RPC policy denial: 403 for this user, nothing written', async () => {
            const { alice, bob } = await seed();
            const res = await send('POST', `${RPC_PREFIX}/post/create`, { user: bob, body: { data: { title: 'forged', authorId: alice } } });
            expect(res.status).toBe(403);
            expect(res.body.error.rejectedByPolicy).toBe(true);
            expect(await db().post.count({ where: { title: 'forged' } })).toBe(0);
        });

        it('RPC malformed body: 400 in the RPC error format, nothing written', async () => {
            const { alice } = await seed();
            const res = await send('POST', `${RPC_PREFIX}/post/create`, { user: alice, raw: '{"data": {"title": "half' });
            expect(res.status).toBe(400);
            expect(res.headers['content-type']).toMatch(/json/);
            expect(res.body.error.message).toMatch(/JSON/);
            expect(await db().post.count({ where: { title: { startsWith: 'half' } } })).toBe(0);
        });

        it('RPC body that is a JSON string literal holding arguments: 400, not run as them (2.x refuses it too)', async () => {
            const { alice } = await seed();
            const res = await send('POST', `${RPC_PREFIX}/post/create`, { user: alice, raw: JSON.stringify(JSON.stringify({ data: { title: 'in a string', authorId: alice } })) });
            expect(res.status).toBe(400);
            expect(await db().post.count({ where: { title: 'in a string' } })).toBe(0);
        });

        it('a POST a browser sends from another site without a preflight is refused 403, nothing written', async () => {
            const { alice } = await seed();
            const crossSite = { 'sec-fetch-site': 'cross-site' };
            // an HTML form with enctype="text/plain" whose one field spells out a JSON body
            const rpcBody = JSON.stringify({ data: { title: 'forged by a form', authorId: alice } });
            const rpc = await send('POST', `${RPC_PREFIX}/post/create`, { user: alice, raw: rpcBody, contentType: 'text/plain', headers: crossSite });
            expect(rpc.status).toBe(403);
            expect(rpc.body.error.message).toMatch(/^cross-site request refused/);
            // a page on a sibling subdomain is another site too
            const restBody = JSON.stringify({ data: { type: 'post', attributes: { title: 'forged by a form' }, relationships: { author: { data: { type: 'user', id: String(alice) } } } } });
            const rest = await send('POST', `${REST_PREFIX}/post`, { user: alice, raw: restBody, contentType: 'text/plain;charset=UTF-8', headers: { 'sec-fetch-site': 'same-site' } });
            expect(rest.status).toBe(403);
            expectJsonApiType(rest, 'error', options);
            expect(rest.body.errors[0]).toMatchObject({ status: 403 });
            expect(await db().post.count({ where: { title: 'forged by a form' } })).toBe(0);
            // the same text from the application's own pages is served, as is JSON from another site (the browser asked CORS first)
            const own = await send('POST', `${RPC_PREFIX}/post/create`, { user: alice, raw: rpcBody, contentType: 'text/plain', headers: { 'sec-fetch-site': 'same-origin' } });
            expect(own.status).toBe(201);
            const declared = await send('POST', `${REST_PREFIX}/post`, { user: alice, raw: restBody, contentType: 'application/vnd.api+json', headers: crossSite });
            expect(declared.status).toBe(201);
            expect(await db().post.count({ where: { title: 'forged by a form' } })).toBe(2);
        });

        it('REST read: JSON:API document with application/vnd.api+json; drafts hidden from others', async () => {
            const { published, draft, bob } = await seed();
            const res = await send('GET', `${REST_PREFIX}/post/${published}`);
            expect(res.status).toBe(200);
            expectJsonApiType(res, 'success', options);
            expect(String(res.body.data.id)).toBe(String(published));
            expect(res.body.data.attributes.title).toBe('hello');
            const hidden = await send('GET', `${REST_PREFIX}/post/${draft}`, { user: bob });
            expect(hidden.status).toBe(404);
        });

        it('REST write: a body sent as application/vnd.api+json is accepted (201)', async () => {
            const { alice } = await seed();
            const res = await send('POST', `${REST_PREFIX}/post`, {
                user: alice,
                contentType: 'application/vnd.api+json',
                body: { data: { type: 'post', attributes: { title: 'via rest' }, relationships: { author: { data: { type: 'user', id: String(alice) } } } } },
            });
            expect(res.status).toBe(201);
            expectJsonApiType(res, 'success', options);
            expect(res.body.data.attributes.title).toBe('via rest');
            expect(await db().post.count({ where: { title: 'via rest', authorId: alice } })).toBe(1);
        });

        it('REST delete: 204 with no body; another user is denied with 403', async () => {
            const { alice, bob, draft, published } = await seed();
            const denied = await send('DELETE', `${REST_PREFIX}/post/${published}`, { user: bob });
            expect(denied.status).toBe(403);
            expect(denied.body.errors[0]).toMatchObject({ status: 403 });
            const res = await send('DELETE', `${REST_PREFIX}/post/${draft}`, { user: alice });
            expect(res.status).toBe(204);
            expect(res.text).toBe('');
            expect(await db().post.findUnique({ where: { id: draft } })).toBeNull();
            expect(await db().post.findUnique({ where: { id: published } })).not.toBeNull();
        });

        it('HEAD is answered as GET without a body (RFC 9110 9.3.2), not refused as an unsupported verb', async () => {
            const { alice, published, draft, bob } = await seed();
            const rpc = await send('HEAD', `${RPC_PREFIX}/post/findMany?q=${q({ where: { authorId: alice } })}`);
            expect([rpc.status, rpc.text]).toEqual([200, '']);
            expect(rpc.headers['content-type']).toMatch(/^application\/json/);
            const rest = await send('HEAD', `${REST_PREFIX}/post/${published}`);
            expect([rest.status, rest.text]).toEqual([200, '']);
            expect(rest.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
            // what GET would answer, for this user: the draft is hidden from Bob
            expect((await send('HEAD', `${REST_PREFIX}/post/${draft}`, { user: bob })).status).toBe(404);
            expect((await send('HEAD', `${REST_PREFIX}/post/${draft}`, { user: alice })).status).toBe(200);
        });

        it('REST malformed body: 400 in the JSON:API error format', async () => {
            const { alice, published } = await seed();
            const res = await send('PATCH', `${REST_PREFIX}/post/${published}`, { user: alice, raw: '{"data":', contentType: 'application/vnd.api+json' });
            expect(res.status).toBe(400);
            expectJsonApiType(res, 'error', options);
            expect(res.body.errors[0]).toMatchObject({ status: 400 });
            expect((await db().post.findUnique({ where: { id: published } })).title).toBe('hello');
        });

        it('keeps the path percent-encoded: an id with an encoded slash, space, ?, # and ; stays one segment', async () => {
            const id = `a/b c?d#e;f${++n}`;
            await db().allTypes.create({ data: { id, string: 'odd id' } });
            const res = await send('GET', `${REST_PREFIX}/allTypes/${encodeURIComponent(id)}`);
            expect(res.status).toBe(200);
            expect(res.body.data.id).toBe(id);
            expect(res.body.data.attributes.string).toBe('odd id');
        });

        it('a body over the limit is answered 413 in the protocol format, nothing written', async () => {
            const { alice } = await seed();
            const title = 'x'.repeat(BODY_LIMIT + 100);
            const res = await send('POST', `${RPC_PREFIX}/post/create`, { user: alice, body: { data: { title, authorId: alice } } });
            expect(res.status).toBe(413);
            expect(typeof res.body.error.message).toBe('string');
            expect(await db().post.count({ where: { title } })).toBe(0);
        });

        it('a query string over the limit is answered 414 in the protocol format', async () => {
            const { alice } = await seed();
            const long = encodeURIComponent(JSON.stringify({ where: { title: 'y'.repeat(QUERY_LIMIT) } }));
            const rpc = await send('GET', `${RPC_PREFIX}/post/findMany?q=${long}`, { user: alice });
            expect(rpc.status).toBe(414);
            expect(rpc.body.error.message).toMatch(/query string too long/);
            const rest = await send('GET', `${REST_PREFIX}/post?filter[title]=${'y'.repeat(QUERY_LIMIT)}`, { user: alice });
            expect(rest.status).toBe(414);
            expect(rest.body.errors[0]).toMatchObject({ status: 414, code: 'uri-too-long' });
            // just under the limit is served
            const short = await send('GET', `${REST_PREFIX}/post?filter[title]=${'y'.repeat(QUERY_LIMIT - 40)}`, { user: alice });
            expect(short.status).toBe(200);
        });

        it('getPrisma failures: a thrown status is honoured, anything else is a generic 500', async () => {
            const url = `${RPC_PREFIX}/post/findMany`;
            const unauthorized = await send('GET', url, { user: 'invalid' });
            expect(unauthorized.status).toBe(401);
            expect(unauthorized.body.error.message).toBe('invalid credentials');
            // a 503 says when to retry, whoever answered it
            const maintenance = await send('GET', url, { user: 'maintenance' });
            expect([maintenance.status, maintenance.headers['retry-after']]).toEqual([503, '1']);
            expect(unauthorized.headers['retry-after']).toBeUndefined();
            const crash = await send('GET', url, { user: 'crash' });
            expect(crash.status).toBe(500);
            expect(crash.text).not.toContain('hunter2');
            expect((await started!.data.loggedErrors()).some((e) => e.includes('hunter2'))).toBe(true);
            const none = await send('GET', url, { user: 'none' });
            expect(none.status).toBe(500);
            expect(none.body.error.message).toBe('unable to get prisma from request context');
        });

        if (options.outsidePrefix !== false) {
            it('does not serve paths outside its mount point', async () => {
                const res = await send('GET', `${RPC_PREFIX}x/post/findMany`);
                expect(res.status).toBe(404);
                expect(res.body?.data).toBeUndefined();
                // the framework's own 404, or the adapter saying so itself; never a handler serving `x/post/findMany`
                const message = res.body?.error?.message;
                expect(message === undefined || /no API route at this path/.test(message)).toBe(true);
            });
        }

        extra?.({
            fixture: () => {
                throw new Error('no in-process fixture in this scenario');
            },
            harness: () => started!.harness,
            send,
            seed,
        });
    });
}
