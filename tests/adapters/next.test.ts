import http from 'node:http';
import { NextRequest } from 'next/server';
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

/** A real Next.js Pages Router API runtime (`apiResolver`) behind a Node server. */
function pagesRouter(f: AdapterFixture, bodyParser: boolean): Harness {
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
                const query = { ...Object.fromEntries(full.searchParams), path };
                void apiResolver(req, res, query, mod, { previewModeId: '', previewModeEncryptionKey: '', previewModeSigningKey: '', dev: false }, false, false, `${prefix}/[...path]`);
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

    it('the route parameter does not leak into the query (REST rejects unknown parameters)', async () => {
        const res = await h.send({ method: 'GET', url: `${REST_PREFIX}/post?page[limit]=1` });
        expect(res.status).toBe(200);
        expect(Array.isArray(res.body.data)).toBe(true);
        const unknown = await h.send({ method: 'GET', url: `${REST_PREFIX}/post?path=x` });
        expect(unknown.status).toBe(400);
    });
});
