import http from 'node:http';
import express from 'express';
import { Hono } from 'hono';
import { methodOverride } from 'hono/method-override';
import request from 'supertest';
import { ZenStackMiddleware } from '../../src/adapters/express';
import { createHonoHandler } from '../../src/adapters/hono';
import { createNodeHandler } from '../../src/adapters/node';
import { createFetchHandler } from '../../src/adapters/fetch';
import { isCrossSiteForgery } from '../../src/adapters/shared/cross-site';
import { resolveAdapter } from '../../src/adapters/shared/options';
import { createFixture, RPC_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';

/** The server's own host, as the adapters hand it over (asked for only when needed). */
const host = (name: string | undefined) => () => name;
/** A header lookup over a plain object, as a framework would hand headers over. */
const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('isCrossSiteForgery: which requests a browser sent from another site without asking CORS first', () => {
    it('Sec-Fetch-Site decides when the browser sends it: another site (a sibling subdomain too) is refused', () => {
        const text = { 'content-type': 'text/plain;charset=UTF-8' };
        expect(isCrossSiteForgery('POST', headers({ ...text, 'sec-fetch-site': 'cross-site' }), host('api.example.com'))).toBe(true);
        expect(isCrossSiteForgery('post', headers({ ...text, 'sec-fetch-site': 'Same-Site' }), host('api.example.com'))).toBe(true);
        expect(isCrossSiteForgery('POST', headers({ ...text, 'sec-fetch-site': 'same-origin' }), host('api.example.com'))).toBe(false);
        // typed in the address bar, or a bookmark: the user's own doing
        expect(isCrossSiteForgery('POST', headers({ ...text, 'sec-fetch-site': 'none' }), host('api.example.com'))).toBe(false);
        // it outranks Origin: a same-origin request behind a proxy that rewrites Host is served
        expect(isCrossSiteForgery('POST', headers({ ...text, 'sec-fetch-site': 'same-origin', origin: 'https://app.example.com' }), host('internal:3000'))).toBe(false);
    });

    it('every body a form or a no-cors fetch can send counts, and so does none; any JSON media type does not', () => {
        const cross = { 'sec-fetch-site': 'cross-site' };
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json']) {
            expect(isCrossSiteForgery('POST', headers({ ...cross, 'content-type': type }), host('h'))).toBe(true);
        }
        expect(isCrossSiteForgery('POST', headers(cross), host('h'))).toBe(true);
        for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.api+json', 'application/merge-patch+json']) {
            expect(isCrossSiteForgery('POST', headers({ ...cross, 'content-type': type }), host('h'))).toBe(false);
        }
    });

    it('only POST: reads cannot write, and any other write needs a preflight in the browser', () => {
        for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
            expect(isCrossSiteForgery(method, headers({ 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' }), host('h'))).toBe(false);
        }
    });

    it('a write the browser sent from another site without a preflight is refused whatever its method now says (a method override)', () => {
        const forged = (mode: string) => headers({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': mode, 'content-type': 'text/plain' });
        for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
            // a form (navigate) or a no-cors fetch: a POST on the wire, rewritten by the app's middleware
            expect(isCrossSiteForgery(method, forged('navigate'), host('h'))).toBe(true);
            expect(isCrossSiteForgery(method, forged('no-cors'), host('h'))).toBe(true);
            // preflighted: CORS decided (a text/plain POST is a simple request: refused as above)
            expect(isCrossSiteForgery(method, forged('cors'), host('h'))).toBe(method === 'POST');
        }
        expect(isCrossSiteForgery('DELETE', headers({ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' }), host('h'))).toBe(false);
        expect(isCrossSiteForgery('GET', forged('navigate'), host('h'))).toBe(false);
        expect(isCrossSiteForgery('DELETE', headers({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }), host('h'))).toBe(true);
        // a body declared JSON: no form or no-cors fetch sends one; a server's own fetch passing a page's headers on does
        const ssr = headers({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'content-type': 'application/json' });
        expect(isCrossSiteForgery('POST', ssr, host('h'))).toBe(false);
        expect(isCrossSiteForgery('PUT', ssr, host('h'))).toBe(false);
        // an older browser (Origin only): the method the client sent, as Express keeps it in req.originalMethod
        const old = headers({ origin: 'https://evil.example', 'content-type': 'text/plain' });
        expect(isCrossSiteForgery('DELETE', old, host('api.example.com'), 'POST')).toBe(true);
        expect(isCrossSiteForgery('DELETE', old, host('api.example.com'), 'DELETE')).toBe(false);
    });

    it('without Sec-Fetch-Site (an older browser, or plain HTTP), Origin is compared with the server host', () => {
        const text = { 'content-type': 'text/plain' };
        expect(isCrossSiteForgery('POST', headers({ ...text, origin: 'https://evil.example' }), host('api.example.com'))).toBe(true);
        expect(isCrossSiteForgery('POST', headers({ ...text, origin: 'https://api.example.com' }), host('API.example.com'))).toBe(false);
        // default ports are the same host; another port is another origin
        expect(isCrossSiteForgery('POST', headers({ ...text, origin: 'https://api.example.com' }), host('api.example.com:443'))).toBe(false);
        expect(isCrossSiteForgery('POST', headers({ ...text, origin: 'http://localhost:5173' }), host('localhost:3000'))).toBe(true);
        // a sandboxed page or a privacy redirect sends `null`; a server that cannot say who it is refuses
        expect(isCrossSiteForgery('POST', headers({ ...text, origin: 'null' }), host('api.example.com'))).toBe(true);
        expect(isCrossSiteForgery('POST', headers({ ...text, origin: 'https://api.example.com' }), host(undefined))).toBe(true);
        // curl, another server, a test client: no browser, no ambient cookies to abuse
        expect(isCrossSiteForgery('POST', headers(text), host('api.example.com'))).toBe(false);
    });

    it('crossSiteProtection must be a boolean, and is on unless turned off', () => {
        expect(resolveAdapter({}, 'test').crossSiteProtection).toBe(true);
        expect(resolveAdapter({ crossSiteProtection: false }, 'test').crossSiteProtection).toBe(false);
        expect(() => resolveAdapter({ crossSiteProtection: 'no' as never }, 'test')).toThrow(/"crossSiteProtection" must be true or false/);
    });
});

describe('cross-site protection through the base adapters', () => {
    let f: AdapterFixture;
    beforeAll(async () => {
        f = await createFixture();
    });
    afterAll(async () => {
        await f?.schema.cleanup();
    });

    const newUser = async (email: string) => (await f.schema.prisma.user.create({ data: { email } })).id as number;
    const count = (title: string) => f.schema.prisma.post.count({ where: { title } });

    it('Node: an older browser on another origin is refused before getPrisma runs; turned off, it is served as 2.x did', async () => {
        const alice = await newUser('cross-node@x.io');
        let asked = 0;
        const server = (crossSiteProtection?: boolean) => {
            const handler = createNodeHandler({
                ...f.common,
                crossSiteProtection,
                prefix: RPC_PREFIX,
                getPrisma: (req) => (asked++, f.getPrisma(req.headers[USER_HEADER] as string | undefined)),
            });
            return http.createServer((req, res) => void handler(req, res));
        };
        const body = JSON.stringify({ data: { title: 'node form post', authorId: alice } });
        const post = (app: http.Server, origin: string) =>
            request(app).post(`${RPC_PREFIX}/post/create`).set(USER_HEADER, String(alice)).set('content-type', 'text/plain').set('origin', origin).send(body);

        const guarded = server();
        const refused = await post(guarded, 'https://evil.example');
        expect(refused.status).toBe(403);
        expect(refused.body.error.message).toMatch(/^cross-site request refused/);
        expect(asked).toBe(0);
        expect(await count('node form post')).toBe(0);
        // the server's own origin, as the Host header names it
        const own = await request(guarded).post(`${RPC_PREFIX}/post/create`).set(USER_HEADER, String(alice)).set('content-type', 'text/plain').set('host', 'api.example.com').set('origin', 'https://api.example.com').send(body);
        expect(own.status).toBe(201);

        const open = await post(server(false), 'https://evil.example');
        expect(open.status).toBe(201);
        expect(await count('node form post')).toBe(2);
    });

    it('Fetch: the request URL names the server (no Host header needed); a no-cors fetch of a typeless blob is refused', async () => {
        const alice = await newUser('cross-fetch@x.io');
        let asked = 0;
        const handler = createFetchHandler({ ...f.common, prefix: RPC_PREFIX, getPrisma: (req: Request) => (asked++, f.getPrisma(req.headers.get(USER_HEADER))) });
        const body = JSON.stringify({ data: { title: 'fetch form post', authorId: alice } });
        const request = (init: Record<string, string>) =>
            new Request(`https://api.example.com${RPC_PREFIX}/post/create`, { method: 'POST', headers: { [USER_HEADER]: String(alice), ...init }, body: new Blob([body]) });
        const post = (init: Record<string, string>) => handler(request(init));

        const forged = request({ origin: 'https://evil.example' });
        const blob = await handler(forged);
        expect(blob.status).toBe(403);
        // refused from the head alone: neither getPrisma nor the body was touched
        expect([asked, forged.bodyUsed]).toEqual([0, false]);
        expect(blob.headers.get('content-type')).toMatch(/^application\/json/);
        expect((await blob.json()).error.message).toMatch(/^cross-site request refused/);
        expect(await count('fetch form post')).toBe(0);
        expect((await post({ origin: 'https://api.example.com' })).status).toBe(201);
        expect((await post({ origin: 'https://evil.example', 'content-type': 'application/json' })).status).toBe(201);
        expect(await count('fetch form post')).toBe(2);
    });

    /**
     * Express's `method-override` and Hono's `methodOverride` turn `POST …?_method=DELETE` into a DELETE before the
     * adapter sees it: a cross-site form can then delete. The middleware below does what `method-override` does
     * (`methodOverride('_method')`), keeping the method sent in `req.originalMethod`.
     */
    const overrideMethod: express.RequestHandler = (req, _res, next) => {
        const wanted = req.query._method;
        const sent = req as { originalMethod?: string; method: string };
        sent.originalMethod = sent.originalMethod ?? req.method;
        if (req.method === 'POST' && typeof wanted === 'string') req.method = wanted.toUpperCase();
        next();
    };

    it('Express behind a method override: a forged POST turned DELETE is refused, from an older browser too', async () => {
        const alice = await newUser('cross-override-express@x.io');
        await f.schema.prisma.post.createMany({ data: [{ title: 'kept express', authorId: alice }, { title: 'kept express', authorId: alice }] });
        const app = express();
        app.use(overrideMethod);
        app.use(RPC_PREFIX, ZenStackMiddleware({ ...f.common, handler: f.rpc, getPrisma: (req) => f.getPrisma(req.header(USER_HEADER)) }));
        const q = encodeURIComponent(JSON.stringify({ where: { title: 'kept express' } }));
        const forged = (extra: Record<string, string>) =>
            request(app).post(`${RPC_PREFIX}/post/deleteMany?_method=DELETE&q=${q}`).set(USER_HEADER, String(alice)).set('content-type', 'text/plain').set(extra).send('');

        const browsers: Array<Record<string, string>> = [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, { origin: 'https://evil.example' }];
        for (const browser of browsers) {
            const res = await forged(browser);
            expect([res.status, res.body.error?.message]).toEqual([403, expect.stringMatching(/^cross-site request refused/)]);
        }
        expect(await count('kept express')).toBe(2);
        // the application's own page, and a preflighted cross-site DELETE, are served
        const own = await forged({ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' });
        expect([own.status, own.body.data]).toEqual([200, { count: 2 }]);
    });

    it('Hono behind its methodOverride: a forged POST turned PUT or DELETE is refused; a preflighted one is served', async () => {
        const alice = await newUser('cross-override-hono@x.io');
        const post = await f.schema.prisma.post.create({ data: { title: 'hono original', authorId: alice } });
        const app = new Hono();
        app.use('/api/*', methodOverride({ app, query: '_method' }));
        app.use(`${RPC_PREFIX}/*`, createHonoHandler({ ...f.common, handler: f.rpc, getPrisma: (c) => f.getPrisma(c.req.header(USER_HEADER)) }));
        const send = (path: string, mode: string, body?: string) =>
            app.request(`https://api.example.com${RPC_PREFIX}${path}`, {
                method: 'POST',
                headers: { [USER_HEADER]: String(alice), 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': mode },
                body,
            });
        const update = JSON.stringify({ where: { id: post.id }, data: { title: 'hono forged' } });
        const q = encodeURIComponent(JSON.stringify({ where: { id: post.id } }));
        for (const mode of ['navigate', 'no-cors']) {
            expect((await send('/post/update?_method=PUT', mode, update)).status).toBe(403);
            expect((await send(`/post/deleteMany?_method=DELETE&q=${q}`, mode)).status).toBe(403);
        }
        expect(await f.schema.prisma.post.findUnique({ where: { id: post.id } })).toMatchObject({ title: 'hono original' });
        const preflighted = await send('/post/update?_method=PUT', 'cors', update);
        expect(preflighted.status).toBe(200);
        expect(await count('hono forged')).toBe(1);
    });
});
