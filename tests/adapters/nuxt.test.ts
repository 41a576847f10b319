import http from 'node:http';
import { createApp, createRouter, defineEventHandler, toNodeListener } from 'h3';
import { createEventHandler } from '../../src/adapters/nuxt';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER, type AdapterFixture } from './support/fixture';
import { describeAdapter } from './support/scenario';
import { supertestHarness } from './support/supertest';

/** RPC mounted with `app.use(prefix)`, REST as a router catch-all `/**` (what Nuxt's `[...].ts` files become). */
function h3App(f: AdapterFixture) {
    const getPrisma = (event: Parameters<Parameters<typeof createEventHandler>[0]['getPrisma']>[0]) =>
        f.getPrisma(event.node.req.headers[USER_HEADER] as string | undefined);
    const app = createApp();
    app.use(RPC_PREFIX, createEventHandler({ ...f.common, handler: f.rpc, getPrisma }));
    const router = createRouter();
    router.use(`${REST_PREFIX}/**`, createEventHandler({ ...f.common, handler: f.rest, getPrisma }));
    router.get('/hello', defineEventHandler(() => ({ hello: 'world' })));
    app.use(router);
    return app;
}

describeAdapter('nuxt (h3) adapter', async (f) => supertestHarness(http.createServer(toNodeListener(h3App(f)))), {}, ({ harness }) => {
    it('other routes of the app keep working next to the API', async () => {
        const res = await harness().send({ method: 'GET', url: '/hello' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ hello: 'world' });
    });
});
