import http from 'node:http';
import express from 'express';
import { apiResolver } from 'next/dist/server/api-utils/node/api-resolver';
import { ZenStackMiddleware } from '../../src/adapters/express';
import { NextRequestHandler } from '../../src/adapters/next';
import { createFixture, REST_PREFIX, RPC_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import type { Harness } from './support/scenario';
import { supertestHarness } from './support/supertest';

/**
 * Conditional GETs through the frameworks whose own `send` 2.x answered with (Express's `res.json()`, Next.js's
 * `res.send()`): a 200 to a GET or HEAD carries an ETag, and a matching `If-None-Match` is answered 304 without a
 * body. Other answers are written as they were (no 304 for a write, an error or a 201).
 */

function expressApp(f: AdapterFixture, etag?: boolean | string): Harness {
    const app = express();
    if (etag !== undefined) app.set('etag', etag);
    const getPrisma = (req: express.Request) => f.getPrisma(req.header(USER_HEADER));
    app.use(RPC_PREFIX, ZenStackMiddleware({ ...f.common, handler: f.rpc, getPrisma }));
    app.use(REST_PREFIX, ZenStackMiddleware({ ...f.common, handler: f.rest, getPrisma }));
    return supertestHarness(app);
}

/** A real Next.js Pages Router API runtime (`apiResolver`) behind a Node server, for `pages/api/{rpc,rest}/[...path].ts`. */
function nextPagesApp(f: AdapterFixture): Harness {
    const page = (handler: AdapterFixture['rpc']) => ({
        default: NextRequestHandler({ ...f.common, handler, getPrisma: (req) => f.getPrisma(req.headers[USER_HEADER] as string | undefined) }),
        config: { api: { bodyParser: false } },
    });
    const pages = [
        [RPC_PREFIX, page(f.rpc)],
        [REST_PREFIX, page(f.rest)],
    ] as const;
    return supertestHarness(
        http.createServer((req, res) => {
            const url = new URL(req.url ?? '/', 'http://localhost');
            for (const [prefix, mod] of pages) {
                if (url.pathname.startsWith(`${prefix}/`)) {
                    const path = url.pathname.slice(prefix.length + 1).split('/').map(decodeURIComponent);
                    const query = { ...Object.fromEntries(url.searchParams), path };
                    const preview = { previewModeId: '', previewModeEncryptionKey: '', previewModeSigningKey: '', dev: false };
                    void apiResolver(req, res, query, mod, preview, false, false, `${prefix}/[...path]`);
                    return;
                }
            }
            res.statusCode = 404;
            res.end();
        }),
    );
}

describe.each([
    ['express', expressApp, /^W\/"[^"]+"$/],
    ['next.js pages router', nextPagesApp, /^"[^"]+"$/],
] as const)('conditional GET through %s', (_name, build, etagForm) => {
    let f: AdapterFixture;
    let app: Harness;
    let alice: number;
    beforeAll(async () => {
        f = await createFixture();
        app = build(f);
        alice = (await f.schema.prisma.user.create({ data: { email: 'etag@x.io' } })).id;
        await f.schema.prisma.post.create({ data: { title: 'cached', published: true, authorId: alice } });
    });
    afterAll(() => f.schema.cleanup());

    it('a 200 to a GET carries an ETag of the framework; a matching If-None-Match is answered 304 without a body', async () => {
        for (const [url, type] of [
            [`${RPC_PREFIX}/post/findMany`, 'application/json; charset=utf-8'],
            [`${REST_PREFIX}/post`, 'application/vnd.api+json'],
        ]) {
            const first = await app.send({ method: 'GET', url });
            expect([first.status, first.headers['content-type'], first.headers['content-length']]).toEqual([200, type, String(Buffer.byteLength(first.text))]);
            const etag = first.headers['etag'];
            expect(etag).toMatch(etagForm);
            const again = await app.send({ method: 'GET', url, headers: { 'if-none-match': etag } });
            expect([again.status, again.text, again.headers['etag']]).toEqual([304, '', etag]);
            const head = await app.send({ method: 'HEAD', url, headers: { 'if-none-match': etag } });
            expect([head.status, head.text]).toEqual([304, '']);
            // another representation (what another user sees, data that changed) is sent whole
            const other = await app.send({ method: 'GET', url, headers: { 'if-none-match': '"stale"' } });
            expect([other.status, other.text, other.headers['etag']]).toEqual([200, first.text, etag]);
        }
    });

    it('HEAD is still answered as GET without a body, with the same ETag', async () => {
        const url = `${REST_PREFIX}/post`;
        const get = await app.send({ method: 'GET', url });
        const head = await app.send({ method: 'HEAD', url });
        expect(get.headers['etag']).toMatch(etagForm);
        expect([head.status, head.text, head.headers['content-type'], head.headers['etag']]).toEqual([200, '', 'application/vnd.api+json', get.headers['etag']]);
    });

    it('only a 200 to a GET or HEAD is answered 304: a write, a 404 and a refused request are sent as they are', async () => {
        const created = await app.send({
            method: 'POST',
            url: `${RPC_PREFIX}/post/create`,
            body: JSON.stringify({ data: { title: 'fresh write', authorId: alice } }),
            headers: { 'content-type': 'application/json', 'if-none-match': '*', [USER_HEADER]: String(alice) },
        });
        expect([created.status, created.body.data.title]).toEqual([201, 'fresh write']);
        const missing = await app.send({ method: 'GET', url: `${REST_PREFIX}/post/999999`, headers: { 'if-none-match': '*' } });
        expect([missing.status, missing.body.errors[0].status]).toEqual([404, 404]);
        const refused = await app.send({ method: 'GET', url: `${RPC_PREFIX}/post/findMany`, headers: { 'if-none-match': '*', [USER_HEADER]: 'invalid' } });
        expect([refused.status, refused.body.error.message]).toEqual([401, 'invalid credentials']);
    });
});

describe('conditional GET through express, per the application', () => {
    let f: AdapterFixture;
    beforeAll(async () => {
        f = await createFixture();
    });
    afterAll(() => f.schema.cleanup());

    it("follows the app's etag setting: none when it is off, a strong one when asked", async () => {
        const url = `${RPC_PREFIX}/post/count`;
        const off = await expressApp(f, false).send({ method: 'GET', url, headers: { 'if-none-match': 'W/"x"' } });
        expect([off.status, off.body, off.headers['etag']]).toEqual([200, { data: 0 }, undefined]);
        const strong = await expressApp(f, 'strong').send({ method: 'GET', url });
        expect(strong.headers['etag']).toMatch(/^"[^"]+"$/);
    });
});
