import type { Server } from 'node:http';
import Fastify, { type FastifyRouterOptions } from 'fastify';
import { ZenStackFastifyPlugin } from '../../src/adapters/fastify';
import type { HandleRequestFn } from '../../src/types';
import { RPC_PREFIX, REST_PREFIX, USER_HEADER } from './support/fixture';
import { expectCompressedBodyRefused } from './support/compressed';
import { describeAdapter } from './support/scenario';
import { supertestHarness } from './support/supertest';

describeAdapter(
    'fastify adapter',
    async (f) => {
        const app = Fastify();
        // the application's own routes keep Fastify's JSON parser
        app.post('/echo', async (request) => ({ echoed: request.body }));
        const user = (request: { headers: Record<string, unknown> }) => f.getPrisma(request.headers[USER_HEADER] as string | undefined);
        await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: RPC_PREFIX, handler: f.rpc, getPrisma: user });
        await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: REST_PREFIX, handler: f.rest, getPrisma: user });
        await app.ready();
        return supertestHarness(app.server, () => app.close());
    },
    {},
    ({ harness, seed }) => {
        it('leaves content-type parsing of the rest of the application alone', async () => {
            const res = await harness().send({ method: 'POST', url: '/echo', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
            expect(res.status).toBe(200);
            expect(res.body).toEqual({ echoed: { a: 1 } });
        });

        it('accepts a JSON body sent without a content type, or as text/plain', async () => {
            const { alice } = await seed();
            for (const headers of [{}, { 'content-type': 'text/plain' }] as Record<string, string>[]) {
                const res = await harness().send({
                    method: 'POST',
                    url: `${RPC_PREFIX}/post/create`,
                    body: JSON.stringify({ data: { title: 'untyped', authorId: alice } }),
                    headers: { ...headers, [USER_HEADER]: String(alice) },
                });
                expect(res.status).toBe(201);
            }
        });

        it('answers a compressed body with 415 instead of reading it as JSON, writing nothing', async () => {
            const f = await import('./support/fixture').then((m) => m.createFixture());
            const app = Fastify();
            await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: RPC_PREFIX, getPrisma: () => f.getPrisma(undefined) });
            try {
                await app.ready();
                await expectCompressedBodyRefused(app.server, `${RPC_PREFIX}/user/create`, f);
            } finally {
                await app.close();
                await f.schema.cleanup();
            }
        });

        it("the application's hooks and getPrisma see the parsed JSON body, as with Fastify's own parser", async () => {
            const f = await import('./support/fixture').then((m) => m.createFixture());
            const alice = await f.schema.prisma.user.create({ data: { email: 'hooks@x.io' } });
            const data = { title: 'from a hooked app', authorId: alice.id };
            const seen: Record<string, unknown[]> = { hook: [], getPrisma: [] };
            const app = Fastify();
            // an application-level hook (audit, CSRF, tenant checks) registered before the plugin runs on its routes
            app.addHook('preHandler', async (request) => {
                seen.hook.push(request.body);
            });
            await app.register(ZenStackFastifyPlugin, {
                ...f.common,
                prefix: RPC_PREFIX,
                getPrisma: (request) => {
                    seen.getPrisma.push(request.body);
                    return f.getPrisma(String(alice.id));
                },
            });
            try {
                await app.ready();
                const http = supertestHarness(app.server);
                const created = await http.send({
                    method: 'POST',
                    url: `${RPC_PREFIX}/post/create`,
                    body: JSON.stringify({ data }),
                    headers: { 'content-type': 'application/json' },
                });
                expect(created.status).toBe(201);
                // a body that is a JSON string is that string (parsed once, as Fastify's parser does)
                await http.send({ method: 'POST', url: `${RPC_PREFIX}/post/create`, body: '"{}"', headers: { 'content-type': 'application/json' } });
                expect(seen).toEqual({ hook: [{ data }, '{}'], getPrisma: [{ data }, '{}'] });

                // a body that is not JSON never reaches the hooks: a 400 in the API's format, nothing written
                const bad = await http.send({ method: 'POST', url: `${RPC_PREFIX}/post/create`, body: '{"data":', headers: { 'content-type': 'application/json' } });
                expect(bad.status).toBe(400);
                expect(bad.body.error.message).toMatch(/invalid JSON/);
                expect(seen.hook).toHaveLength(2);
                expect(await f.schema.prisma.post.count()).toBe(1);
            } finally {
                await app.close();
                await f.schema.cleanup();
            }
        });

        it('a nested registration prefix is stripped too', async () => {
            const f = await import('./support/fixture').then((m) => m.createFixture());
            const app = Fastify();
            await app.register(
                async (scope) => {
                    await scope.register(ZenStackFastifyPlugin, { ...f.common, prefix: '/model', getPrisma: () => f.getPrisma(undefined) });
                },
                { prefix: '/v2' },
            );
            try {
                await app.ready();
                const res = await supertestHarness(app.server).send({ method: 'GET', url: '/v2/model/post/count' });
                expect(res.status).toBe(200);
                expect(res.body).toEqual({ data: 0 });
            } finally {
                await app.close();
                await f.schema.cleanup();
            }
        });

        it("without its own bodyLimit, the plugin uses the application's (larger or smaller than 1 MiB)", async () => {
            const f = await import('./support/fixture').then((m) => m.createFixture());
            const { bodyLimit: _ignored, ...common } = f.common;
            const serve = async (appLimit: number, count: number) => {
                const app = Fastify({ bodyLimit: appLimit });
                await app.register(ZenStackFastifyPlugin, { ...common, prefix: RPC_PREFIX, getPrisma: () => f.getPrisma(String(alice.id)) });
                try {
                    await app.ready();
                    // rows of 1.2 KB, so that a body over 1 MiB stays within the handler's maxWriteRecords (1,000)
                    const data = Array.from({ length: count }, (_, i) => ({ string: `${i} ${'t'.repeat(1190)}`, ownerId: alice.id }));
                    return await supertestHarness(app.server).send({
                        method: 'POST',
                        url: `${RPC_PREFIX}/allTypes/createMany`,
                        headers: { 'content-type': 'application/json' },
                        body: JSON.stringify({ data }),
                    });
                } finally {
                    await app.close();
                }
            };
            const alice = await f.schema.prisma.user.create({ data: { email: 'limits@x.io' } });
            try {
                // about 1.2 MB: over the adapters' default, within the application's 2 MiB
                const big = await serve(2 * 1024 * 1024, 1000);
                expect(big.status).toBe(201);
                expect(big.body.data).toEqual({ count: 1000 });
                const small = await serve(4 * 1024, 50);
                expect(small.status).toBe(413);
                expect(small.body.error.message).toMatch(/4096 bytes/);
                expect(await f.schema.prisma.allTypes.count({ where: { ownerId: alice.id } })).toBe(1000);
            } finally {
                await f.schema.cleanup();
            }
        });

        it("bodyLimit: Infinity lifts the limit on the plugin's routes, the application's included", async () => {
            const echo = (async (ctx: { requestBody: unknown }) => ({ status: 200, body: ctx.requestBody })) as unknown as HandleRequestFn;
            const app = Fastify({ bodyLimit: 1024 });
            await app.register(ZenStackFastifyPlugin, { prefix: '/api', modelMeta: {} as never, logger: null, bodyLimit: Infinity, handler: echo, getPrisma: () => ({}) });
            try {
                await app.ready();
                const body = { text: 'x'.repeat(2 * 1024 * 1024) };
                const res = await supertestHarness(app.server).send({ method: 'POST', url: '/api/any', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
                expect({ status: res.status, length: res.body?.text?.length }).toEqual({ status: 200, length: body.text.length });
            } finally {
                await app.close();
            }
        });

        it('bodyLimit: 0 refuses every body (Fastify takes a parser limit of 0 for the application\'s)', async () => {
            const echo = (async (ctx: { requestBody: unknown }) => ({ status: 200, body: ctx.requestBody ?? 'none' })) as unknown as HandleRequestFn;
            const app = Fastify();
            await app.register(ZenStackFastifyPlugin, { prefix: '/api', modelMeta: {} as never, logger: null, bodyLimit: 0, handler: echo, getPrisma: () => ({}) });
            try {
                await app.ready();
                const res = await supertestHarness(app.server).send({ method: 'POST', url: '/api/any', headers: { 'content-type': 'application/json' }, body: '1' });
                expect([res.status, res.body?.error?.message]).toEqual([413, expect.stringMatching(/0 bytes/)]);
                const empty = await supertestHarness(app.server).send({ method: 'POST', url: '/api/any' });
                expect([empty.status, empty.body]).toEqual([200, 'none']);
            } finally {
                await app.close();
            }
        });

        it("follows the router's caseSensitive: false and ignoreDuplicateSlashes options", async () => {
            const f = await import('./support/fixture').then((m) => m.createFixture());
            try {
                for (const [routerOptions, url] of [
                    [{ caseSensitive: false }, '/API/Rpc/post/count'],
                    [{ ignoreDuplicateSlashes: true }, '//api//rpc/post/count'],
                    [{ ignoreDuplicateSlashes: true }, '/api/rpc//post/count'],
                ] as const) {
                    const app = Fastify({ routerOptions });
                    await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: RPC_PREFIX, getPrisma: () => f.getPrisma(undefined) });
                    try {
                        await app.ready();
                        const res = await supertestHarness(app.server).send({ method: 'GET', url });
                        expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 200, body: { data: 0 } });
                    } finally {
                        await app.close();
                    }
                }
            } finally {
                await f.schema.cleanup();
            }
        });

        it('an id with an encoded slash stays one segment under ignoreTrailingSlash and ignoreDuplicateSlashes (the wildcard is matched in the URL as the router normalized it)', async () => {
            const f = await import('./support/fixture').then((m) => m.createFixture());
            const db = f.schema.prisma;
            try {
                for (const [routerOptions, url] of [
                    [{ ignoreTrailingSlash: true }, '/api/rest/allTypes/a%2Fb/'],
                    [{ ignoreDuplicateSlashes: true }, '/api/rest/allTypes//a%2Fb'],
                    [{ ignoreDuplicateSlashes: true, ignoreTrailingSlash: true }, '//api/rest//allTypes//a%2Fb//'],
                ] as const) {
                    await db.allTypes.deleteMany({});
                    await db.allTypes.create({ data: { id: 'a/b', string: 'slash' } });
                    await db.allTypes.create({ data: { id: 'a', string: 'plain' } });
                    const app = Fastify({ routerOptions });
                    await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: REST_PREFIX, handler: f.rest, getPrisma: () => f.getPrisma(undefined) });
                    try {
                        await app.ready();
                        const http = supertestHarness(app.server);
                        // the wildcard is `allTypes/a/b`: re-encoded, it named relationship `b` of record `a`
                        const read = await http.send({ method: 'GET', url });
                        expect({ url, status: read.status, id: read.body.data?.id }).toEqual({ url, status: 200, id: 'a/b' });
                        expect((await http.send({ method: 'DELETE', url })).status).toBe(204);
                        expect((await db.allTypes.findMany({ orderBy: { id: 'asc' } })).map((r: { id: string }) => r.id)).toEqual(['a']);
                    } finally {
                        await app.close();
                    }
                }
            } finally {
                await f.schema.cleanup();
            }
        });

        it("under useSemicolonDelimiter, a path with ';' is refused 400: the router's wildcard stops there, and the adapter reads the query after '?' only", async () => {
            const f = await import('./support/fixture').then((m) => m.createFixture());
            await f.schema.prisma.allTypes.create({ data: { id: 'a', string: 'plain' } });
            // a router option Fastify 5 reads from `routerOptions` (its types list it only at the top level, deprecated there)
            const app = Fastify({ routerOptions: { useSemicolonDelimiter: true } as FastifyRouterOptions<Server> });
            await app.register(ZenStackFastifyPlugin, { ...f.common, prefix: REST_PREFIX, handler: f.rest, getPrisma: () => f.getPrisma(undefined) });
            try {
                await app.ready();
                // the wildcard is `allTypes/a`: served as it is, this deleted record `a`
                const res = await supertestHarness(app.server).send({ method: 'DELETE', url: `${REST_PREFIX}/allTypes/a;b` });
                expect(res.status).toBe(400);
                expect(res.body.errors[0].detail).toMatch(/does not match the path the framework routed/);
                expect(await f.schema.prisma.allTypes.count({ where: { id: 'a' } })).toBe(1);
            } finally {
                await app.close();
                await f.schema.cleanup();
            }
        });
    },
);
