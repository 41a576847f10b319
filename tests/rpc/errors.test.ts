import { RestApiHandler } from '../../src/api/rest';
import fs from 'node:fs';
import path from 'node:path';
import { RPCApiHandler } from '../../src/api/rpc';
import { BLOG_SCHEMA, loadSchema, type TestSchema } from '../support/schema';
import { generateSchema, PROJECT_ROOT } from '../support/generate';
import { differences, jsonBlockAfter, parseShown } from '../demo/shown-json';
import { captureLogger, rpcCaller, type AnyBody, type RpcCaller } from './support';

/** Each error class of the RPC error format, from real failures of the enhanced client. */

let s: TestSchema;
let asUser1: RpcCaller;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
    await s.prisma.user.create({ data: { id: 2, email: 'u2@x' } });
    asUser1 = rpcCaller(s, { user: { id: 1 } });
});

afterAll(async () => {
    await s.cleanup();
});

describe('400: malformed requests', () => {
    const cases: [string, string, string, Parameters<RpcCaller>[2], RegExp][] = [
        ['q that is not JSON', 'GET', '/post/findMany', { q: '{not json' }, /"q".*not valid JSON/],
        ['q that is a number', 'GET', '/post/findMany', { q: '5' }, /"q".*must be a JSON object/],
        ['q that is an array', 'GET', '/post/findMany', { q: '[]' }, /"q".*must be a JSON object/],
        ['q that is null', 'GET', '/post/findMany', { q: 'null' }, /"q".*must be a JSON object/],
        ['q given twice', 'GET', '/post/findMany', { query: { q: ['{}', '{}'] } }, /"q" must be given once/],
        ['meta that is not JSON', 'GET', '/post/findMany', { q: {}, meta: '{oops' }, /"meta".*not valid JSON/],
        ['meta with other members', 'GET', '/post/findMany', { q: {}, meta: { serialization: {}, other: 1 } }, /only "serialization"/],
        ['missing body for create', 'POST', '/post/create', {}, /missing request body/],
        ['missing body for update', 'PATCH', '/post/update', {}, /missing request body/],
        ['body that is an array', 'POST', '/post/create', { body: [] }, /must be a JSON object/],
        ['body that is bytes of bad JSON', 'POST', '/post/create', { body: Buffer.from('{"data":') }, /not valid JSON/],
        ['body that is a string (a JSON string literal, not parsed again)', 'POST', '/post/create', { body: '{"data":{}}' }, /must be a JSON object, not a string/],
        ['body meta that is not {serialization}', 'POST', '/post/create', { body: { data: { title: 'x' }, meta: { foo: 1 } } }, /only "serialization"/],
        ['unknown operation', 'GET', '/post/findEverything', {}, /unknown operation: findEverything/],
        ['unknown model', 'GET', '/nothing/findMany', {}, /unknown model: nothing/],
        ['path without operation', 'GET', '/post', {}, /invalid request path/],
        ['path with extra segments', 'GET', '/post/1/findMany', {}, /invalid request path/],
        ['unknown serialization type', 'POST', '/post/create', { body: { data: { title: 'x' }, meta: { serialization: { values: { 'data.title': ['regexp'] } } } } }, /unsupported serialization type/],
        ['serialization path that matches nothing', 'POST', '/post/create', { body: { data: { title: 'x' }, meta: { serialization: { values: { 'data.nope': ['Date'] } } } } }, /does not match/],
        ['bad Base64 for Bytes', 'POST', '/allTypes/create', { body: { data: { bytes: '@@@' }, meta: { serialization: { values: { 'data.bytes': [['custom', 'Bytes']] } } } } }, /Base64/],
        ['bad DateTime', 'POST', '/allTypes/create', { body: { data: { dateTime: 'yesterday' }, meta: { serialization: { values: { 'data.dateTime': ['Date'] } } } } }, /DateTime/],
    ];
    it.each(cases)('%s', async (_label, method, route, input, message) => {
        const before = await s.prisma.post.count();
        const res = await asUser1(method, route, input);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(message);
        expect(res.body.error.orm).toBeUndefined();
        expect(await s.prisma.post.count()).toBe(before);
    });

    it('argument errors the ORM reports as validation errors', async () => {
        const unknownArg = await asUser1('GET', '/post/findMany', { q: { where: { nope: 1 } } });
        expect(unknownArg.status).toBe(400);
        expect(unknownArg.body.error.message).toMatch(/Unknown argument `nope`/);
        const badType = await asUser1('GET', '/post/findMany', { q: { take: 'ten' } });
        expect(badType.status).toBe(400);
        expect(badType.body.error.message).toMatch(/take/);
        // ZenStack throws this one synchronously
        const noWhere = await asUser1('GET', '/post/findUnique', {});
        expect(noWhere.status).toBe(400);
        expect(noWhere.body.error.message).toMatch(/where/);
        // the policy-injected filter (with the user's id) is never echoed
        expect(JSON.stringify([unknownArg.body, badType.body, noWhere.body])).not.toMatch(/authorId|AND|OR/);
    });
});

describe('403: access policy', () => {
    it('a denied write: rejectedByPolicy, ACCESS_POLICY_VIOLATION, P2004, nothing written', async () => {
        const res = await asUser1('POST', '/post/create', { body: { data: { title: 'forged', published: false, authorId: 2 } } });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
            error: { message: expect.any(String), rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION', orm: true, prisma: true, code: 'P2004' },
        });
        expect(await s.prisma.post.count({ where: { title: 'forged' } })).toBe(0);
    });

    it('an update of another user is denied and leaves the row unchanged', async () => {
        const res = await asUser1('PATCH', '/user/update', { body: { where: { id: 2 }, data: { name: 'hacked' } } });
        expect(res.status).toBe(403);
        expect(res.body.error.rejectedByPolicy).toBe(true);
        expect((await s.prisma.user.findUnique({ where: { id: 2 } })).name).toBeNull();
    });

    it('RESULT_NOT_READABLE: the write happened but cannot be read back (anonymous sign-up)', async () => {
        const anonymous = rpcCaller(s);
        const res = await anonymous('POST', '/user/create', { body: { data: { email: 'new@x' } } });
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ rejectedByPolicy: true, reason: 'RESULT_NOT_READABLE', orm: true, prisma: true, code: 'P2004' });
        expect(res.body.error.message).toMatch(/succeeded/);
        expect(await s.prisma.user.count({ where: { email: 'new@x' } })).toBe(1);
    });
});

describe('data-layer errors', () => {
    it('404 for a record that does not exist (P2025)', async () => {
        const res = await asUser1('PATCH', '/post/update', { body: { where: { id: 424242 }, data: { title: 'x' } } });
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ orm: true, prisma: true, code: 'P2025' });
        const del = await asUser1('DELETE', '/post/delete', { q: { where: { id: 424242 } } });
        expect(del.status).toBe(404);
        expect(del.body.error.code).toBe('P2025');
    });

    it('400 for a unique constraint violation (P2002)', async () => {
        const res = await asUser1('POST', '/user/create', { body: { data: { email: 'u2@x' } } });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ orm: true, prisma: true, code: 'P2002', message: expect.stringMatching(/unique/) });
        expect(res.body.error.message).toMatch(/email/);
    });

    it('400 for another known error (foreign key, P2003)', async () => {
        const res = await asUser1('POST', '/comment/create', { body: { data: { content: 'c', postId: 999999 } } });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ orm: true, code: 'P2003' });
    });

    it('422 for a schema validation rule (@length) rejected by the ORM', async () => {
        const res = await asUser1('POST', '/post/create', { body: { data: { title: '', authorId: 1 } } });
        expect(res.status).toBe(422);
        expect(res.body.error).toMatchObject({ rejectedByValidation: true, reason: 'DATA_VALIDATION_VIOLATION', orm: true, code: 'P2004' });
        expect(res.body.error.issues).toEqual([expect.objectContaining({ path: 'title' })]);
    });
});

describe('422: zod validation of arguments (zodSchemas given)', () => {
    it('rejects before the client runs, listing the issues', async () => {
        const withZod = rpcCaller(s, { user: { id: 1 }, zod: true });
        const res = await withZod('POST', '/post/create', { body: { data: { title: 'zod', authorId: 1, viewCount: 'many' } } });
        expect(res.status).toBe(422);
        expect(res.body.error).toMatchObject({ rejectedByValidation: true, reason: 'DATA_VALIDATION_VIOLATION' });
        expect(res.body.error.orm).toBeUndefined();
        expect(res.body.error.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'data.viewCount' })]));
        expect(await s.prisma.post.count({ where: { title: 'zod' } })).toBe(0);

        const unknownKey = await withZod('GET', '/post/findMany', { q: { where: { title: 'x' }, bogus: true } });
        expect(unknownKey.status).toBe(422);
        expect(unknownKey.body.error.issues[0].code).toBe('unrecognized_keys');

        const ok = await withZod('POST', '/post/create', { body: { data: { title: 'zod-ok', authorId: 1 } } });
        expect(ok.status).toBe(201);
    });
});

describe('500 and 503', () => {
    it('an unexpected error: generic message, no stack, detail in the logger', async () => {
        const logger = captureLogger();
        // a server bug: getPrisma handed the handler something that is not a client
        const res = await RPCApiHandler()({ method: 'GET', path: '/post/findMany', query: {}, prisma: {} as never, modelMeta: s.modelMeta, logger });
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ error: { message: 'an unexpected error occurred' } });
        expect(JSON.stringify(res.body)).not.toMatch(/at |\.ts|node_modules/);
        expect(logger.lines.some((l) => /has no post\.findMany method/.test(l) && /\n\s+at /.test(l))).toBe(true);
    });

    it('logger: null is silent; the default logs to console.error', async () => {
        const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
        try {
            const handler = RPCApiHandler();
            const ctx = { method: 'GET', path: '/post/findMany', query: {}, prisma: {} as never, modelMeta: s.modelMeta };
            expect((await handler({ ...ctx, logger: null })).status).toBe(500);
            expect(spy).not.toHaveBeenCalled();
            expect((await handler(ctx)).status).toBe(500);
            expect(spy).toHaveBeenCalled();
        } finally {
            spy.mockRestore();
        }
    });

    it('503 with Retry-After when the database cannot be reached (P1001)', async () => {
        // a PostgreSQL client pointed at a closed port: no server needed, generation is offline
        const gen = generateSchema(BLOG_SCHEMA, 'postgresql');
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { PrismaClient } = require(path.join(gen.dir, 'prisma-client'));
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { enhance } = require(path.join(gen.dir, 'zenstack', 'enhance.js'));
        const { PrismaPg } = await import('@prisma/adapter-pg');
        const broken = new PrismaClient({ adapter: new PrismaPg({ connectionString: 'postgresql://postgres@127.0.0.1:1/zsapi_none' }) });
        const logger = captureLogger();
        try {
            const res = await RPCApiHandler()({ method: 'GET', path: '/post/findMany', prisma: enhance(broken, { user: { id: 1 } }), modelMeta: s.modelMeta, logger });
            expect(res.status).toBe(503);
            expect((res.body as AnyBody).error).toMatchObject({ message: expect.stringMatching(/unavailable/), orm: true, code: 'P1001' });
            expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1/);
            expect(logger.lines.join('\n')).toMatch(/reach database/);
            // it says when to retry, in both protocols (adapters pass the header on)
            expect(res.headers).toEqual({ 'retry-after': '1' });
            const rest = await RestApiHandler({ endpoint: 'http://localhost/api' })({
                method: 'GET',
                path: '/post',
                query: {},
                prisma: enhance(broken, { user: { id: 1 } }),
                modelMeta: s.modelMeta,
                logger: null,
            });
            expect([rest.status, rest.headers]).toEqual([503, { 'content-type': 'application/vnd.api+json', 'retry-after': '1' }]);
            // the answers the README and docs/reliability.md show ("When the database is down")
            for (const document of ['README.md', 'docs/reliability.md']) {
                const markdown = fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8');
                expect([document, differences(parseShown(jsonBlockAfter(markdown, 'RPC:')), res.body)]).toEqual([document, []]);
                expect([document, differences(parseShown(jsonBlockAfter(markdown, 'REST (JSON:API):')), rest.body)]).toEqual([document, []]);
            }
        } finally {
            await broken.$disconnect().catch(() => undefined);
        }
    });

    it('an adapter-detected error renders in the RPC format', () => {
        const handler = RPCApiHandler();
        expect(handler.renderError?.(413, 'body too large')).toEqual({ status: 413, body: { error: { message: 'body too large' } } });
    });
});
