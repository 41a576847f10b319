import Fastify from 'fastify';
import { ZenStackFastifyPlugin } from '../../src/adapters/fastify';
import type { HandleRequestFn } from '../../src/types';
import { supertestHarness } from './support/supertest';

/**
 * What a handler of the application's own (`handler` option) receives as `requestBody` through the Fastify plugin: the
 * JSON value sent, as 2.x's plugin handed it over. A JSON `null` used to arrive as no body at all.
 */
describe('fastify adapter: the body a custom handler receives', () => {
    it('is the JSON value sent, null included; no body is undefined', async () => {
        const seen: unknown[] = [];
        const echo: HandleRequestFn = async (ctx) => {
            seen.push(ctx.requestBody);
            return { status: 200, body: { ok: true } };
        };
        const app = Fastify();
        await app.register(ZenStackFastifyPlugin, { prefix: '/api', handler: echo, getPrisma: () => ({}) });
        await app.ready();
        const h = supertestHarness(app.server, () => app.close());
        try {
            for (const body of ['null', '"x"', '{"a":1}', '[1]']) {
                const res = await h.send({ method: 'POST', url: '/api/post/create', body, headers: { 'content-type': 'application/json' } });
                expect([body, res.status]).toEqual([body, 200]);
            }
            await h.send({ method: 'POST', url: '/api/post/create' });
            await h.send({ method: 'GET', url: '/api/post/findMany' });
            expect(seen).toEqual([null, 'x', { a: 1 }, [1], undefined, undefined]);
        } finally {
            await app.close();
        }
    });
});
