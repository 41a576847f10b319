import { gzipSync } from 'node:zlib';
import { createFetchHandler } from '../../src/adapters/fetch';
import type { Response as ApiResponse } from '../../src/types';
import { BODY_LIMIT, REST_PREFIX, RPC_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter, fromFetchResponse, type Harness } from './support/scenario';

/** Two `(request) => Response` functions, as a Deno/Bun/Workers app would route to them. */
function fetchApp(f: AdapterFixture): Harness {
    const getPrisma = (request: Request) => f.getPrisma(request.headers.get(USER_HEADER));
    const rpc = createFetchHandler({ ...f.common, prefix: RPC_PREFIX, handler: f.rpc, getPrisma });
    const rest = createFetchHandler({ ...f.common, prefix: REST_PREFIX, handler: f.rest, getPrisma });
    return {
        async send({ method, url, body, headers }) {
            const request = new Request(new URL(url, 'http://localhost'), { method, body, headers });
            return fromFetchResponse(await (url.startsWith(REST_PREFIX) ? rest : rpc)(request));
        },
    };
}

describeAdapter('fetch base adapter (createFetchHandler)', async (f) => fetchApp(f), {}, ({ fixture, seed }) => {
    it('answers 404 in the protocol format outside its prefix', async () => {
        const f = fixture();
        const handler = createFetchHandler({ ...f.common, prefix: '/api', getPrisma: () => f.getPrisma(undefined) });
        const res = await handler(new Request('http://localhost/apix/post/findMany'));
        expect(res.status).toBe(404);
        expect((await res.json()).error.message).toMatch(/mounted at \/api/);
    });

    it('serves from the root without a prefix, and streams a body without Content-Length', async () => {
        const f = fixture();
        const { alice } = await seed();
        const handler = createFetchHandler({ ...f.common, getPrisma: () => f.getPrisma(String(alice)) });
        const text = JSON.stringify({ data: { title: 'streamed', authorId: alice } });
        const body = new ReadableStream<Uint8Array>({
            start(controller) {
                const bytes = new TextEncoder().encode(text);
                controller.enqueue(bytes.slice(0, 10));
                controller.enqueue(bytes.slice(10));
                controller.close();
            },
        });
        const res = await handler(new Request('http://localhost/post/create', { method: 'POST', body, duplex: 'half' } as RequestInit));
        expect(res.status).toBe(201);
        expect((await res.json()).data.title).toBe('streamed');
    });

    it('a streamed body over the limit is cut off with 413', async () => {
        const f = fixture();
        const handler = createFetchHandler({ ...f.common, bodyLimit: 8, getPrisma: () => f.getPrisma(undefined) });
        let pulled = 0;
        const body = new ReadableStream<Uint8Array>({
            pull(controller) {
                pulled++;
                controller.enqueue(new TextEncoder().encode('"0123456789"'));
                if (pulled > 1000) controller.close();
            },
        });
        const res = await handler(new Request('http://localhost/post/create', { method: 'POST', body, duplex: 'half' } as RequestInit));
        expect(res.status).toBe(413);
        expect(pulled).toBeLessThan(10);
    });

    it('answers a compressed body with 415 instead of reading it as JSON', async () => {
        const f = fixture();
        const handler = createFetchHandler({ ...f.common, getPrisma: () => f.getPrisma(undefined) });
        const body = gzipSync(JSON.stringify({ data: { email: 'gzip@x.io' } }));
        const res = await handler(new Request('http://localhost/user/create', { method: 'POST', body, headers: { 'content-encoding': 'gzip' } }));
        expect(res.status).toBe(415);
        expect((await res.json()).error.message).toMatch(/unsupported content encoding "gzip"/);
        expect(await f.schema.prisma.user.count({ where: { email: 'gzip@x.io' } })).toBe(0);
    });

    it('rejects a body that is not UTF-8 with 400', async () => {
        const f = fixture();
        const handler = createFetchHandler({ ...f.common, getPrisma: () => f.getPrisma(undefined) });
        const res = await handler(new Request('http://localhost/post/create', { method: 'POST', body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }));
        expect(res.status).toBe(400);
        expect((await res.json()).error.message).toMatch(/UTF-8/);
    });

    it('validates its options when created', () => {
        const f = fixture();
        expect(() => createFetchHandler({} as never)).toThrow(/getPrisma/);
        expect(() => createFetchHandler({ getPrisma: () => f.getPrisma(undefined), bodyLimit: -1 })).toThrow(/bodyLimit/);
        expect(() => createFetchHandler({ getPrisma: () => f.getPrisma(undefined), handler: 'rest' as never })).toThrow(/handler/);
    });

    it('a handler that throws or answers nonsense becomes a logged, generic 500', async () => {
        const f = fixture();
        const errors: string[] = [];
        const broken = createFetchHandler({
            ...f.common,
            logger: { error: (m) => errors.push(m) },
            handler: async () => {
                throw new Error('handler exploded with secret');
            },
            getPrisma: () => f.getPrisma(undefined),
        });
        const res = await broken(new Request('http://localhost/post/findMany'));
        expect(res.status).toBe(500);
        expect(await res.text()).not.toContain('secret');
        expect(errors.join()).toContain('handler exploded with secret');
        const unserializable = createFetchHandler({ ...f.common, handler: async () => ({ status: 200, body: { n: BigInt(1) } }), getPrisma: () => f.getPrisma(undefined) });
        expect((await unserializable(new Request('http://localhost/x'))).status).toBe(500);
    });

    it('applies handler headers and sends no body for 204', async () => {
        const f = fixture();
        const handler = createFetchHandler({
            ...f.common,
            handler: async (ctx): Promise<ApiResponse> =>
                ctx.method === 'DELETE' ? { status: 204, body: { ignored: true }, headers: { 'content-type': 'x/y' } } : { status: 201, body: { ok: true }, headers: { Location: 'http://localhost/thing/1' } },
            getPrisma: () => f.getPrisma(undefined),
        });
        const created = await handler(new Request('http://localhost/thing', { method: 'POST', body: '{}' }));
        expect(created.status).toBe(201);
        expect(created.headers.get('location')).toBe('http://localhost/thing/1');
        const deleted = await handler(new Request('http://localhost/thing/1', { method: 'DELETE' }));
        expect(deleted.status).toBe(204);
        expect(deleted.headers.get('content-type')).toBeNull();
        expect(await deleted.text()).toBe('');
    });

    it('calls getPrisma before reading the body (as 2.x): it may read a copy; a refusal the head tells comes first', async () => {
        const f = fixture();
        const { alice } = await seed();
        const calls: string[] = [];
        const errors: string[] = [];
        const handler = createFetchHandler({
            ...f.common,
            logger: { error: (m) => errors.push(m) },
            getPrisma: async (request) => {
                const how = request.headers.get('x-how') ?? 'none';
                calls.push(how);
                if (how === 'clone') return f.getPrisma(String((await request.clone().json()).data.authorId));
                if (how === 'consume') await request.json();
                return f.getPrisma(request.headers.get(USER_HEADER));
            },
        });
        const post = (body: string, headers: Record<string, string>) => handler(new Request('http://localhost/post/create', { method: 'POST', body, headers }));
        const res = await post(JSON.stringify({ data: { title: 'copied', authorId: alice } }), { 'x-how': 'clone' });
        expect(res.status).toBe(201);
        // a getPrisma that rejects the request is answered before a malformed body is noticed
        expect((await post('{"data": ', { [USER_HEADER]: 'invalid' })).status).toBe(401);
        // a body declared over the limit is refused without calling getPrisma
        calls.length = 0;
        const large = 'x'.repeat(BODY_LIMIT + 1);
        expect((await post(large, { 'x-how': 'clone', 'content-length': String(large.length) })).status).toBe(413);
        expect(calls).toEqual([]);
        // a getPrisma that consumes the body itself leaves nothing to read: a logged 500 that says so
        expect((await post('{}', { 'x-how': 'consume' })).status).toBe(500);
        expect(errors.join()).toMatch(/already read \(by getPrisma.*request\.clone\(\)\.json\(\)/);
    });
    it('answers a Response thrown by getPrisma as it is (a redirect to a login page, a 401 with its headers)', async () => {
        const f = fixture();
        const handler = createFetchHandler({
            ...f.common,
            getPrisma: (request) => {
                if (request.headers.get('x-how') === 'redirect') throw new Response(null, { status: 302, headers: { location: '/login' } });
                throw new Response('sign in', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
            },
        });
        const redirected = await handler(new Request('http://localhost/post/findMany', { headers: { 'x-how': 'redirect' } }));
        expect(redirected.status).toBe(302);
        expect(redirected.headers.get('location')).toBe('/login');
        const refused = await handler(new Request('http://localhost/post/create', { method: 'POST', body: '{"data":' }));
        expect(refused.status).toBe(401);
        expect(refused.headers.get('www-authenticate')).toBe('Bearer');
        expect(await refused.text()).toBe('sign in');
    });

    it('without limit options takes bodies up to 1 MiB (413 above) and query strings up to 16 KiB (414 above), as documented', async () => {
        const f = fixture();
        const { alice } = await seed();
        const handler = createFetchHandler({ logger: f.common.logger, modelMeta: f.common.modelMeta, handler: f.rpc, getPrisma: () => f.getPrisma(String(alice)) });
        // padded with JSON whitespace: the schema bounds the title's length
        const bodyOf = (bytes: number) => {
            const json = JSON.stringify({ data: { title: 'sized', authorId: alice } });
            return json + ' '.repeat(bytes - json.length);
        };
        const post = (body: string) => handler(new Request('http://localhost/post/create', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
        expect((await post(bodyOf(1024 * 1024))).status).toBe(201);
        const over = await post(bodyOf(1024 * 1024 + 1));
        expect(over.status).toBe(413);
        expect(typeof (await over.json()).error.message).toBe('string');
        const queryOf = (chars: number) => {
            const empty = `q=${encodeURIComponent(JSON.stringify({ where: { title: '' } }))}`;
            return `q=${encodeURIComponent(JSON.stringify({ where: { title: 'q'.repeat(chars - empty.length) } }))}`;
        };
        expect(queryOf(16 * 1024)).toHaveLength(16 * 1024);
        expect((await handler(new Request(`http://localhost/post/count?${queryOf(16 * 1024)}`))).status).toBe(200);
        expect((await handler(new Request(`http://localhost/post/count?${queryOf(16 * 1024 + 1)}`))).status).toBe(414);
    });

    it('bodyLimit and queryLimit: Infinity turn the limits off, as documented; a negative or NaN limit is refused when created', async () => {
        const f = fixture();
        const { alice } = await seed();
        const handler = createFetchHandler({ ...f.common, bodyLimit: Infinity, queryLimit: Infinity, handler: f.rpc, getPrisma: () => f.getPrisma(String(alice)) });
        // streamed (no Content-Length), padded with JSON whitespace past the default 1 MiB
        const body = JSON.stringify({ data: { title: 'no limit', authorId: alice } }) + ' '.repeat(1024 * 1024 + 1);
        const created = await handler(new Request('http://localhost/post/create', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
        expect(created.status).toBe(201);
        const query = `q=${encodeURIComponent(JSON.stringify({ where: { title: 'q'.repeat(16 * 1024) } }))}`;
        expect((await handler(new Request(`http://localhost/post/count?${query}`))).status).toBe(200);
        for (const limit of [-1, NaN, '1' as never]) {
            expect(() => createFetchHandler({ getPrisma: () => f.getPrisma(undefined), bodyLimit: limit })).toThrow(/"bodyLimit" must be a non-negative number of bytes \(Infinity: no limit\)/);
            expect(() => createFetchHandler({ getPrisma: () => f.getPrisma(undefined), queryLimit: limit })).toThrow(/"queryLimit" must be a non-negative number of characters \(Infinity: no limit\)/);
        }
    });
});
