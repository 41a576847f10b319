import http from 'node:http';
import request from 'supertest';
import { createNodeHandler } from '../../src/adapters/node';
import type { RequestContext } from '../../src/types';
import { REST_PREFIX, RPC_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { expectCompressedBodyRefused } from './support/compressed';
import { describeAdapter } from './support/scenario';
import { supertestHarness } from './support/supertest';

/** Plain `node:http`: two listeners chained through `next`, then the app's own 404. */
function nodeServer(f: AdapterFixture): http.Server {
    const getPrisma = (req: http.IncomingMessage) => f.getPrisma(req.headers[USER_HEADER] as string | undefined);
    const rpc = createNodeHandler({ ...f.common, prefix: RPC_PREFIX, handler: f.rpc, getPrisma });
    const rest = createNodeHandler({ ...f.common, prefix: REST_PREFIX, handler: f.rest, getPrisma });
    return http.createServer((req, res) => {
        void rpc(req, res, () =>
            rest(req, res, () => {
                res.statusCode = 404;
                res.end('app: not found');
            }),
        );
    });
}

describeAdapter('node base adapter (createNodeHandler on node:http)', async (f) => supertestHarness(nodeServer(f)), {}, ({ fixture }) => {
    it('hands repeated query keys over as arrays, and the raw path', async () => {
        const f = fixture();
        const seen: RequestContext[] = [];
        const handler = createNodeHandler({
            ...f.common,
            prefix: '/api/',
            handler: async (ctx) => {
                seen.push(ctx);
                return { status: 200, body: null };
            },
            getPrisma: () => f.getPrisma(undefined),
        });
        const res = await request(http.createServer((req, res) => void handler(req, res))).get('/api/a%20b/c?x=1&x=2&y=%E2%82%AC&filter%5Bname%5D=z');
        expect(res.status).toBe(200);
        expect(seen[0].path).toBe('/a%20b/c');
        expect(seen[0].query).toEqual({ x: ['1', '2'], y: '€', 'filter[name]': 'z' });
        expect(seen[0].method).toBe('GET');
        expect(seen[0].requestBody).toBeUndefined();
    });

    it('answers 404 in the protocol format outside its prefix when there is no next', async () => {
        const f = fixture();
        const handler = createNodeHandler({ ...f.common, prefix: '/api', getPrisma: () => f.getPrisma(undefined) });
        const res = await request(http.createServer((req, res) => void handler(req, res))).get('/other/post/findMany');
        expect(res.status).toBe(404);
        expect(res.body.error.message).toMatch(/mounted at \/api/);
    });

    it('answers a compressed body with 415 instead of reading it as JSON, writing nothing', async () => {
        const f = fixture();
        const handler = createNodeHandler({ ...f.common, getPrisma: () => f.getPrisma(undefined) });
        await expectCompressedBodyRefused(http.createServer((req, res) => void handler(req, res)), '/user/create', f);
    });

    it('ignores the body of a GET, as the Fetch adapters do (malformed or over the limit)', async () => {
        const f = fixture();
        const handler = createNodeHandler({ ...f.common, bodyLimit: 10, getPrisma: () => f.getPrisma(undefined) });
        const server = http.createServer((req, res) => void handler(req, res));
        for (const body of ['{"not json', 'x'.repeat(100)]) {
            const res = await request(server).get('/post/count').set('content-type', 'application/json').send(body);
            expect(res.status).toBe(200);
            expect(typeof res.body.data).toBe('number');
        }
    });

    it('refuses a declared Content-Length over the limit without reading the body', async () => {
        const f = fixture();
        const handler = createNodeHandler({ ...f.common, bodyLimit: 10, getPrisma: () => f.getPrisma(undefined) });
        const res = await request(http.createServer((req, res) => void handler(req, res)))
            .post('/post/create')
            .set('content-type', 'application/json')
            .send(JSON.stringify({ data: { title: 'too long for ten bytes' } }));
        expect(res.status).toBe(413);
        expect(res.body.error.message).toMatch(/10 bytes/);
    });
});
