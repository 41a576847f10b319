import { Elysia } from 'elysia';
import { createElysiaHandler } from '../../src/adapters/elysia';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter, fromFetchResponse, type Harness } from './support/scenario';

function elysiaApp(f: AdapterFixture) {
    const getPrisma = (ctx: { request: Request }) => f.getPrisma(ctx.request.headers.get(USER_HEADER));
    return new Elysia()
        .get('/hello', () => ({ hello: 'world' }))
        .group(RPC_PREFIX, (app) => app.use(createElysiaHandler({ ...f.common, handler: f.rpc, getPrisma, basePath: RPC_PREFIX })))
        .group(REST_PREFIX, (app) => app.use(createElysiaHandler({ ...f.common, handler: f.rest, getPrisma })));
}

function elysiaHarness(app: { handle: (request: Request) => Promise<Response> }): Harness {
    return {
        async send({ method, url, body, headers }) {
            return fromFetchResponse(await app.handle(new Request(new URL(url, 'http://localhost'), { method, body, headers })));
        },
    };
}

describeAdapter('elysia adapter (group with basePath, and derived from the route)', async (f) => elysiaHarness(elysiaApp(f)), {}, ({ harness }) => {
    it('other routes of the app keep working next to the API', async () => {
        const res = await harness().send({ method: 'GET', url: '/hello' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ hello: 'world' });
    });
});
