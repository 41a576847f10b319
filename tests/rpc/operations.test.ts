import { RPCApiHandler } from '../../src/api/rpc';
import { BLOG_SCHEMA, loadSchema, type TestSchema } from '../support/schema';
import { captureLogger, rpcCaller, type RpcCaller } from './support';

/** Every operation of the table with its methods and success status, on SQLite, as user 1. */

let s: TestSchema;
let call: RpcCaller;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x', name: 'One' } });
    await s.prisma.user.create({ data: { id: 2, email: 'u2@x', name: 'Two' } });
    call = rpcCaller(s, { user: { id: 1 } });
});

afterAll(async () => {
    await s.cleanup();
});

async function seedPosts(prefix: string, n: number, authorId = 1) {
    for (let i = 0; i < n; i++) {
        await s.prisma.post.create({ data: { title: `${prefix}-${i}`, authorId, published: i % 2 === 0, viewCount: i } });
    }
}

describe('read operations (GET)', () => {
    beforeAll(() => seedPosts('read', 4));

    it('findMany with q', async () => {
        const res = await call('GET', '/post/findMany', { q: { where: { title: { startsWith: 'read-' } }, orderBy: { title: 'asc' } } });
        expect(res.status).toBe(200);
        expect(res.body.data.map((p: { title: string }) => p.title)).toEqual(['read-0', 'read-1', 'read-2', 'read-3']);
    });

    it('findMany without q returns everything visible', async () => {
        const res = await call('GET', '/post/findMany');
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBe(await s.prisma.post.count({ where: { OR: [{ published: true }, { authorId: 1 }] } }));
    });

    it('findUnique, findFirst', async () => {
        const first = await s.prisma.post.findFirst({ where: { title: 'read-2' } });
        const unique = await call('GET', '/post/findUnique', { q: { where: { id: first.id } } });
        expect(unique.status).toBe(200);
        expect(unique.body.data).toMatchObject({ id: first.id, title: 'read-2' });
        const found = await call('GET', '/post/findFirst', { q: { where: { title: { startsWith: 'read-' } }, orderBy: { viewCount: 'desc' } } });
        expect(found.body.data.title).toBe('read-3');
        const none = await call('GET', '/post/findUnique', { q: { where: { id: 987654 } } });
        expect(none).toEqual({ status: 200, body: { data: null } });
    });

    it('count, aggregate, groupBy', async () => {
        const count = await call('GET', '/post/count', { q: { where: { title: { startsWith: 'read-' } } } });
        expect(count).toEqual({ status: 200, body: { data: 4 } });
        // `select: true` is Prisma's too (it answers the count), and a selection of fields counts each
        const selectAll = await call('GET', '/post/count', { q: { where: { title: { startsWith: 'read-' } }, select: true } });
        expect(selectAll).toEqual({ status: 200, body: { data: 4 } });
        const fields = await call('GET', '/post/count', { q: { where: { title: { startsWith: 'read-' } }, select: { _all: true, title: true } } });
        expect(fields).toEqual({ status: 200, body: { data: { _all: 4, title: 4 } } });
        const agg = await call('GET', '/post/aggregate', { q: { where: { title: { startsWith: 'read-' } }, _sum: { viewCount: true }, _max: { viewCount: true } } });
        expect(agg.body.data).toEqual({ _sum: { viewCount: 6 }, _max: { viewCount: 3 } });
        const groups = await call('GET', '/post/groupBy', { q: { by: ['published'], where: { title: { startsWith: 'read-' } }, _count: { _all: true }, orderBy: { published: 'asc' } } });
        expect(groups.status).toBe(200);
        expect(groups.body.data).toEqual([
            { published: false, _count: { _all: 2 } },
            { published: true, _count: { _all: 2 } },
        ]);
    });

    it('accepts the model name as written in the schema and tolerates slashes', async () => {
        for (const path of ['/Post/count', 'post/count', '/post/count/', '//post//count']) {
            const res = await call('GET', path);
            expect({ path, status: res.status }).toEqual({ path, status: 200 });
        }
    });

    it('methods are case-insensitive', async () => {
        expect((await call('get', '/post/count')).status).toBe(200);
        expect((await call('Get', '/post/count')).status).toBe(200);
    });
});

describe('write operations', () => {
    it('create (POST) answers 201 with the created record', async () => {
        const res = await call('POST', '/post/create', { body: { data: { title: 'created', authorId: 1 } } });
        expect(res.status).toBe(201);
        expect(res.body.data).toMatchObject({ title: 'created', authorId: 1, published: false });
        expect(await s.prisma.post.count({ where: { title: 'created' } })).toBe(1);
    });

    it('createMany (POST) answers 201 with a count', async () => {
        const res = await call('post', '/post/createMany', { body: { data: [{ title: 'many-a', authorId: 1 }, { title: 'many-b', authorId: 1 }] } });
        expect(res).toEqual({ status: 201, body: { data: { count: 2 } } });
    });

    it('createManyAndReturn (POST) answers 201 with the records', async () => {
        const res = await call('POST', '/post/createManyAndReturn', { body: { data: [{ title: 'cmar-a', authorId: 1 }] } });
        expect(res.status).toBe(201);
        expect(res.body.data).toHaveLength(1);
        expect(res.body.data[0]).toMatchObject({ title: 'cmar-a' });
    });

    it('upsert (POST) creates then updates, 200 both times', async () => {
        const args = { where: { id: 5555 }, create: { id: 5555, title: 'upsert-new', authorId: 1 }, update: { title: 'upsert-updated' } };
        const first = await call('POST', '/post/upsert', { body: args });
        expect(first.status).toBe(200);
        expect(first.body.data.title).toBe('upsert-new');
        const second = await call('POST', '/post/upsert', { body: args });
        expect(second.body.data.title).toBe('upsert-updated');
    });

    it('update and updateMany accept PATCH and PUT', async () => {
        const post = await s.prisma.post.create({ data: { title: 'to-update', authorId: 1 } });
        const patched = await call('PATCH', '/post/update', { body: { where: { id: post.id }, data: { title: 'patched' } } });
        expect(patched.status).toBe(200);
        expect(patched.body.data.title).toBe('patched');
        const put = await call('put', '/post/update', { body: { where: { id: post.id }, data: { viewCount: 7 } } });
        expect(put.body.data).toMatchObject({ title: 'patched', viewCount: 7 });

        await seedPosts('um', 3);
        const many = await call('PATCH', '/post/updateMany', { body: { where: { title: { startsWith: 'um-' } }, data: { viewCount: 42 } } });
        expect(many).toEqual({ status: 200, body: { data: { count: 3 } } });
        const manyPut = await call('PUT', '/post/updateMany', { body: { where: { title: { startsWith: 'um-' } }, data: { viewCount: 43 } } });
        expect(manyPut.body.data).toEqual({ count: 3 });
        expect(await s.prisma.post.count({ where: { viewCount: 43 } })).toBe(3);
    });

    it('updateManyAndReturn (PATCH) answers the updated records', async () => {
        await seedPosts('umar', 2);
        const res = await call('PATCH', '/post/updateManyAndReturn', { body: { where: { title: { startsWith: 'umar-' } }, data: { viewCount: 9 } } });
        expect(res.status).toBe(200);
        expect(res.body.data.map((p: { viewCount: number }) => p.viewCount)).toEqual([9, 9]);
    });

    it('delete and deleteMany (DELETE) read their arguments from q', async () => {
        const post = await s.prisma.post.create({ data: { title: 'to-delete', authorId: 1 } });
        const del = await call('DELETE', '/post/delete', { q: { where: { id: post.id } } });
        expect(del.status).toBe(200);
        expect(del.body.data).toMatchObject({ id: post.id, title: 'to-delete' });
        expect(await s.prisma.post.findUnique({ where: { id: post.id } })).toBeNull();

        await seedPosts('dm', 3);
        const many = await call('delete', '/post/deleteMany', { q: { where: { title: { startsWith: 'dm-' } } } });
        expect(many).toEqual({ status: 200, body: { data: { count: 3 } } });
        expect(await s.prisma.post.count({ where: { title: { startsWith: 'dm-' } } })).toBe(0);
    });
});

describe('wrong methods are refused with 400 before anything runs', () => {
    const cases: [string, string][] = [
        ['POST', 'findMany'],
        ['DELETE', 'findUnique'],
        ['PATCH', 'count'],
        ['GET', 'create'],
        ['PUT', 'createMany'],
        ['GET', 'upsert'],
        ['POST', 'update'],
        ['GET', 'updateMany'],
        ['GET', 'delete'],
        ['POST', 'deleteMany'],
        ['HEAD', 'findMany'],
        ['OPTIONS', 'create'],
    ];
    it.each(cases)('%s /post/%s → 400', async (method, op) => {
        const before = await s.prisma.post.count();
        const res = await call(method, `/post/${op}`, { body: { data: { title: 'nope', authorId: 1 } }, q: { where: { id: 1 } } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/invalid request method/);
        expect(await s.prisma.post.count()).toBe(before);
    });
});

describe('check (ZenStack permission checker)', () => {
    it('answers whether the user may perform an operation (schema generated with permission checkers)', async () => {
        // the helper strips plain `plugin x {` blocks; the comment keeps this one (it only sets a generator option)
        const text = `${BLOG_SCHEMA}\nplugin enhancer /* kept by the test helper */ {\n  provider = '@core/enhancer'\n  generatePermissionChecker = true\n}\n`;
        const c = await loadSchema(text);
        try {
            const user = await c.prisma.user.create({ data: { email: 'c@x' } });
            const asUser = rpcCaller(c, { user: { id: user.id } });
            const anonymous = rpcCaller(c);
            expect(await asUser('GET', '/post/check', { q: { operation: 'create' } })).toEqual({ status: 200, body: { data: true } });
            expect(await anonymous('GET', '/post/check', { q: { operation: 'create' } })).toEqual({ status: 200, body: { data: false } });
            expect((await anonymous('GET', '/post/check', { q: { operation: 'read', where: { published: true } } })).body).toEqual({ data: true });
        } finally {
            await c.cleanup();
        }
    });

    it('is routed as a GET operation; without generated checkers it is a 400 saying what to change', async () => {
        const logger = captureLogger();
        const withLog = rpcCaller(s, { user: { id: 1 }, logger });
        expect((await withLog('POST', '/post/check', { body: { operation: 'read' } })).status).toBe(400);
        // the blog schema is generated without `generatePermissionChecker`: ZenStack throws a plain Error
        const res = await withLog('GET', '/post/check', { q: { operation: 'read' } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/check is not available: .*generatePermissionChecker = true/);
        expect(logger.lines.filter((l) => l.startsWith('unexpected-error'))).toEqual([]);
    });
});

describe('defaults from the generated output (node_modules/.zenstack)', () => {
    it('uses the generated model metadata when the context passes none, and zod schemas only when it passes them (as 2.x)', async () => {
        const handler = RPCApiHandler();
        const base = { prisma: s.enhance({ id: 1 }), logger: null };
        const ok = await handler({ ...base, method: 'GET', path: '/post/count' });
        expect(ok.status).toBe(200);
        // no zod schemas in the context: the ORM's own validation answers an unknown argument (400)
        const unvalidated = await handler({ ...base, method: 'GET', path: '/post/findMany', query: { q: '{"bogus":1}' } });
        expect(unvalidated.status).toBe(400);
        expect((unvalidated.body as { error: { rejectedByValidation?: boolean } }).error.rejectedByValidation).toBeUndefined();
        // given, they validate before the client runs: 422
        const invalid = await handler({ ...base, zodSchemas: s.zodSchemas, method: 'GET', path: '/post/findMany', query: { q: '{"bogus":1}' } });
        expect(invalid.status).toBe(422);
        expect((invalid.body as { error: { rejectedByValidation: boolean } }).error.rejectedByValidation).toBe(true);
        const explicit = await handler({ ...base, modelMeta: s.modelMeta, method: 'GET', path: '/post/findMany', query: { q: '{"bogus":1}' } });
        expect(explicit.status).toBe(400);
    });
});
