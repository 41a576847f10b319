import { EventEmitter } from 'node:events';
import http from 'node:http';
import { forbidden, notFound, permanentRedirect, redirect, unauthorized } from 'next/navigation';
import { getRedirectStatusCodeFromError, getURLFromRedirectError } from 'next/dist/client/components/redirect';
import { isRedirectError } from 'next/dist/client/components/redirect-error';
import { NextRequest, NextResponse } from 'next/server';
import { apiResolver } from 'next/dist/server/api-utils/node/api-resolver';
import { NextRequestHandler } from '../../src/adapters/next';
import type { HandleRequestFn } from '../../src/types';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter, fromFetchResponse, testResponse, type Harness } from './support/scenario';
import { supertestHarness } from './support/supertest';

/** Next's catch-all routing: `app/api/rpc/[...path]` gets the decoded segments after `/api/rpc`. */
function catchAll(pathname: string, prefix: string): string[] | undefined {
    if (!pathname.startsWith(`${prefix}/`)) return undefined;
    const segments = pathname.slice(prefix.length + 1).split('/').filter(Boolean);
    return segments.length > 0 ? segments.map(decodeURIComponent) : undefined;
}

function appRouter(f: AdapterFixture): Harness {
    const route = (handler: HandleRequestFn) =>
        NextRequestHandler({ ...f.common, handler, useAppDir: true, getPrisma: (req) => f.getPrisma(req.headers.get(USER_HEADER)) });
    const routes: [string, ReturnType<typeof route>][] = [
        [RPC_PREFIX, route(f.rpc)],
        [REST_PREFIX, route(f.rest)],
    ];
    return {
        async send({ method, url, body, headers }) {
            const full = new URL(url, 'http://localhost');
            for (const [prefix, handler] of routes) {
                const path = catchAll(full.pathname, prefix);
                if (path) {
                    const req = new NextRequest(full, { method, headers, body });
                    return fromFetchResponse(await handler(req, { params: Promise.resolve({ path }) }));
                }
            }
            return testResponse(404, {}, 'not found');
        },
    };
}

/** `req.query` as Next.js builds it: the URL's query string (a repeated key is an array), then the route parameter. */
function nextQuery(searchParams: URLSearchParams, param: string, segments: string[]): Record<string, string | string[]> {
    const query: Record<string, string | string[]> = {};
    for (const [key, value] of searchParams) query[key] = key in query ? ([] as string[]).concat(query[key], value) : value;
    query[param] = segments;
    return query;
}

/** A real Next.js Pages Router API runtime (`apiResolver`) behind a Node server; the catch-all is `[...<param>]`. */
function pagesRouter(f: AdapterFixture, bodyParser: boolean, param = 'path'): Harness {
    const page = (handler: HandleRequestFn) => ({
        default: NextRequestHandler({ ...f.common, handler, getPrisma: (req) => f.getPrisma(req.headers[USER_HEADER] as string | undefined) }),
        config: bodyParser ? {} : { api: { bodyParser: false } },
    });
    const pages: [string, ReturnType<typeof page>][] = [
        [RPC_PREFIX, page(f.rpc)],
        [REST_PREFIX, page(f.rest)],
    ];
    const server = http.createServer((req, res) => {
        const full = new URL(req.url ?? '/', 'http://localhost');
        for (const [prefix, mod] of pages) {
            const path = catchAll(full.pathname, prefix);
            if (path) {
                const query = nextQuery(full.searchParams, param, path);
                void apiResolver(req, res, query, mod, { previewModeId: '', previewModeEncryptionKey: '', previewModeSigningKey: '', dev: false }, false, false, `${prefix}/[...${param}]`);
                return;
            }
        }
        res.statusCode = 404;
        res.end('not found');
    });
    return supertestHarness(server);
}

describeAdapter('next adapter: App Router', async (f) => appRouter(f), { outsidePrefix: false }, ({ seed }) => {
    it('accepts Next 14 style (non-Promise) params too', async () => {
        const { alice } = await seed();
        const f = await import('./support/fixture').then((m) => m.createFixture());
        try {
            const handler = NextRequestHandler({ ...f.common, useAppDir: true, getPrisma: () => f.getPrisma(String(alice)) });
            const res = await handler(new NextRequest('http://localhost/api/model/user/count'), { params: { path: ['user', 'count'] } as never });
            expect(res.status).toBe(200);
            expect(await res.json()).toEqual({ data: 0 });
        } finally {
            await f.schema.cleanup();
        }
    });

    it('answers with a NextResponse, so the route can still set cookies on it', async () => {
        const f = await import('./support/fixture').then((m) => m.createFixture());
        try {
            const handler = NextRequestHandler({ ...f.common, useAppDir: true, getPrisma: () => f.getPrisma(undefined) });
            const res = await handler(new NextRequest('http://localhost/api/model/user/count'), { params: Promise.resolve({ path: ['user', 'count'] }) });
            expect(res).toBeInstanceOf(NextResponse);
            res.cookies.set('visited', 'yes', { path: '/' });
            expect(res.headers.get('set-cookie')).toMatch(/^visited=yes; Path=\//);
            expect(res.status).toBe(200);
            expect(res.headers.get('content-type')).toMatch(/^application\/json/);
            expect(await res.json()).toEqual({ data: 0 });
        } finally {
            await f.schema.cleanup();
        }
    });
});

describeAdapter('next adapter: Pages Router (bodyParser off)', async (f) => pagesRouter(f, false), { outsidePrefix: false });

describe('next adapter: Pages Router with Next.js body parsing on', () => {
    let f: AdapterFixture;
    let h: Harness;
    beforeAll(async () => {
        f = await import('./support/fixture').then((m) => m.createFixture());
        h = pagesRouter(f, true);
    });
    afterAll(() => f.schema.cleanup());

    it('uses the body Next.js parsed (JSON) and the text it left (application/vnd.api+json)', async () => {
        const alice = await f.schema.prisma.user.create({ data: { email: 'parsed@x.io' } });
        const headers = { 'content-type': 'application/json', [USER_HEADER]: String(alice.id) };
        const rpc = await h.send({ method: 'POST', url: `${RPC_PREFIX}/post/create`, headers, body: JSON.stringify({ data: { title: 'parsed', authorId: alice.id } }) });
        expect(rpc.status).toBe(201);
        const rest = await h.send({
            method: 'POST',
            url: `${REST_PREFIX}/post`,
            headers: { ...headers, 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify({ data: { type: 'post', attributes: { title: 'as text' }, relationships: { author: { data: { type: 'user', id: String(alice.id) } } } } }),
        });
        expect(rest.status).toBe(201);
        expect(await f.schema.prisma.post.count({ where: { authorId: alice.id } })).toBe(2);
    });

    it('a JSON string literal holding a JSON:API document is a string body (400), not parsed a second time', async () => {
        const alice = await f.schema.prisma.user.create({ data: { email: 'literal@x.io' } });
        const document = { data: { type: 'post', attributes: { title: 'twice' }, relationships: { author: { data: { type: 'user', id: String(alice.id) } } } } };
        // the client sent a string (double-encoded JSON); Next.js's parser hands the adapter its value, the text inside
        const res = await h.send({
            method: 'POST',
            url: `${REST_PREFIX}/post`,
            headers: { 'content-type': 'application/json', [USER_HEADER]: String(alice.id) },
            body: JSON.stringify(JSON.stringify(document)),
        });
        expect([res.status, res.headers['content-type']]).toEqual([400, 'application/vnd.api+json']);
        expect(res.body.errors[0].code).toBe('invalid-payload');
        expect(await f.schema.prisma.post.count({ where: { authorId: alice.id } })).toBe(0);
    });

    it('the route parameter does not leak into the query (REST rejects unknown parameters)', async () => {
        const res = await h.send({ method: 'GET', url: `${REST_PREFIX}/post?page[limit]=1` });
        expect(res.status).toBe(200);
        expect(Array.isArray(res.body.data)).toBe(true);
        const unknown = await h.send({ method: 'GET', url: `${REST_PREFIX}/post?path=x` });
        expect(unknown.status).toBe(400);
    });
});

describe('next adapter: Pages Router, a JSON string literal Next.js has parsed', () => {
    it('reaches a custom handler as the string, as with 2.x (not parsed a second time into a 400)', async () => {
        const f = await import('./support/fixture').then((m) => m.createFixture());
        try {
            const echo: HandleRequestFn = async (ctx) => ({ status: 200, body: { requestBody: ctx.requestBody } });
            const mod = { default: NextRequestHandler({ ...f.common, handler: echo, getPrisma: () => f.getPrisma(undefined) }), config: {} };
            const server = http.createServer((req, res) => {
                void apiResolver(req, res, { path: ['x', 'y'] }, mod, { previewModeId: '', previewModeEncryptionKey: '', previewModeSigningKey: '', dev: false }, false, false, '/api/[...path]');
            });
            const h = supertestHarness(server);
            for (const [body, expected] of [
                ['"hello"', 'hello'],
                ['{"a":1}', { a: 1 }],
                ['[1,2]', [1, 2]],
            ] as const) {
                const res = await h.send({ method: 'POST', url: '/api/x/y', headers: { 'content-type': 'application/json' }, body });
                expect([body, res.status, res.body]).toEqual([body, 200, { requestBody: expected }]);
            }
        } finally {
            await f.schema.cleanup();
        }
    });
});

describe('next adapter: Pages Router with a mock request (as an app unit-tests its API route)', () => {
    let f: AdapterFixture;
    beforeAll(async () => {
        f = await import('./support/fixture').then((m) => m.createFixture());
    });
    afterAll(() => f.schema.cleanup());

    /** node-mocks-http's kind of request: an event emitter with the request's fields that never streams, and a recording response. */
    async function callMock(method: string, url: string, query: Record<string, string | string[]>, user: number, body?: unknown) {
        const handler = NextRequestHandler({ ...f.common, handler: f.rpc, getPrisma: (req) => f.getPrisma(req.headers[USER_HEADER] as string | undefined) });
        const req = Object.assign(new EventEmitter(), { method, url, query, body, headers: { 'content-type': 'application/json', [USER_HEADER]: String(user) } });
        const res = {
            statusCode: 200,
            headersSent: false,
            headers: {} as Record<string, unknown>,
            text: '',
            setHeader(name: string, value: unknown) {
                this.headers[name.toLowerCase()] = value;
            },
            end(chunk?: string) {
                this.text = chunk ?? '';
            },
        };
        await handler(req as never, res as never);
        return { status: res.statusCode, body: res.text ? JSON.parse(res.text) : undefined };
    }

    it('serves a POST from the parsed body and a GET without a stream to drain', async () => {
        const alice = await f.schema.prisma.user.create({ data: { email: 'mock@x.io' } });
        const created = await callMock('POST', `${RPC_PREFIX}/post/create`, { path: ['post', 'create'] }, alice.id, { data: { title: 'mocked', authorId: alice.id } });
        expect([created.status, created.body.data.title]).toEqual([201, 'mocked']);
        const q = JSON.stringify({ where: { title: 'mocked' } });
        const read = await callMock('GET', `${RPC_PREFIX}/post/findFirst?q=${encodeURIComponent(q)}`, { path: ['post', 'findFirst'], q }, alice.id);
        expect([read.status, read.body.data.id]).toEqual([200, created.body.data.id]);
    });
});

describe('next adapter: Pages Router with a catch-all named slug', () => {
    let f: AdapterFixture;
    let h: Harness;
    beforeAll(async () => {
        f = await import('./support/fixture').then((m) => m.createFixture());
        h = pagesRouter(f, false, 'slug');
    });
    afterAll(() => f.schema.cleanup());

    it('a key repeated in the query string is not taken for the catch-all parameter', async () => {
        const alice = await f.schema.prisma.user.create({ data: { email: 'slug@x.io' } });
        await f.schema.prisma.post.create({ data: { title: 'hello', published: true, authorId: alice.id } });
        const single = await h.send({ method: 'GET', url: `${REST_PREFIX}/post?filter[title]=hello` });
        expect(single.status).toBe(200);
        expect(single.body.data).toHaveLength(1);
        const repeated = await h.send({ method: 'GET', url: `${REST_PREFIX}/post?filter[title]=hello&filter[title]=world` });
        expect(repeated.status).toBe(200);
        expect(Array.isArray(repeated.body.data)).toBe(true);
        const rpc = await h.send({ method: 'GET', url: `${RPC_PREFIX}/post/count?x=1&x=2` });
        expect(rpc.status).toBe(200);
        expect(rpc.body).toEqual({ data: 1 });
    });
});

describe('next adapter: Pages Router, a query string that repeats the catch-all path', () => {
    let f: AdapterFixture;
    let h: Harness;
    beforeAll(async () => {
        f = await import('./support/fixture').then((m) => m.createFixture());
        h = pagesRouter(f, false);
    });
    afterAll(() => f.schema.cleanup());

    it('?path=post&path=count on /post/count still serves post/count, as with 2.x', async () => {
        const alice = await f.schema.prisma.user.create({ data: { email: 'repeat@x.io' } });
        await f.schema.prisma.post.create({ data: { title: 'hello', published: true, authorId: alice.id } });
        const rpc = await h.send({ method: 'GET', url: `${RPC_PREFIX}/post/count?path=post&path=count` });
        expect([rpc.status, rpc.body]).toEqual([200, { data: 1 }]);
    });
});

describe('next adapter: App Router, getPrisma and Next.js control flow', () => {
    let f: AdapterFixture;
    beforeAll(async () => {
        f = await import('./support/fixture').then((m) => m.createFixture());
    });
    afterAll(() => f.schema.cleanup());

    const call = (getPrisma: (req: NextRequest) => unknown, init?: { method: string; body: string }) => {
        const handler = NextRequestHandler({ ...f.common, useAppDir: true, getPrisma });
        const url = `http://localhost/api/model/post/${init ? 'create' : 'findMany'}`;
        return handler(new NextRequest(url, init && { ...init, headers: { 'content-type': 'application/json' } }), { params: Promise.resolve({ path: ['post', init ? 'create' : 'findMany'] }) });
    };

    /** What the call threw (Next.js answers it: 307 + Location for a redirect, its not-found page …). */
    async function thrown(getPrisma: () => unknown): Promise<unknown> {
        try {
            await call(getPrisma);
        } catch (err) {
            return err;
        }
        throw new Error('the handler answered instead of letting the error through');
    }

    it('redirect(), permanentRedirect() and notFound() from next/navigation go back to Next.js as they are', async () => {
        const redirectError = await thrown(() => redirect('/login'));
        expect(isRedirectError(redirectError)).toBe(true);
        expect([getURLFromRedirectError(redirectError as never), getRedirectStatusCodeFromError(redirectError as never)]).toEqual(['/login', 307]);
        const permanent = await thrown(() => permanentRedirect('/moved'));
        expect(getRedirectStatusCodeFromError(permanent as never)).toBe(308);
        const missing = await thrown(() => notFound());
        expect((missing as { digest: string }).digest).toBe('NEXT_HTTP_ERROR_FALLBACK;404');
        // notFound() of Next.js 13 and 14
        const legacy = Object.assign(new Error('NEXT_NOT_FOUND'), { digest: 'NEXT_NOT_FOUND' });
        expect(await thrown(() => Promise.reject(legacy))).toBe(legacy);
    });

    it('forbidden() and unauthorized() (experimental.authInterrupts) go back to Next.js too', async () => {
        const saved = process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS;
        process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS = 'true';
        try {
            expect(((await thrown(() => forbidden())) as { digest: string }).digest).toBe('NEXT_HTTP_ERROR_FALLBACK;403');
            expect(((await thrown(() => unauthorized())) as { digest: string }).digest).toBe('NEXT_HTTP_ERROR_FALLBACK;401');
        } finally {
            if (saved === undefined) delete process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS;
            else process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS = saved;
        }
    });

    it('other errors are still answered: a digest Next.js does not own is no control flow', async () => {
        const res = await call(() => {
            throw Object.assign(new Error('boom'), { digest: 'SOMETHING_ELSE' });
        });
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ error: { message: 'an unexpected error occurred' } });
    });

    it('getPrisma may read a copy of the body (req.clone().json()), as in 2.x', async () => {
        const alice = await f.schema.prisma.user.create({ data: { email: 'clone@x.io' } });
        const res = await call(async (req) => f.getPrisma(String((await req.clone().json()).data.authorId)), {
            method: 'POST',
            body: JSON.stringify({ data: { title: 'cloned', authorId: alice.id } }),
        });
        expect(res.status).toBe(201);
        expect((await res.json()).data.title).toBe('cloned');
    });
});
