import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * ZenStack checks the access policy of a write record by record (this schema's Post rule reads the author, so a
 * `createMany` becomes one create per row), and on SQLite the call holds the one connection meanwhile: a 1 MiB
 * `createMany` of 35,000 posts, within the default body limit, kept the server from answering anyone for minutes.
 * `maxWriteRecords` (default 1,000) bounds the records one call or one transaction lists for writing.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
});

afterAll(async () => {
    await s.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(handler: ReturnType<typeof RPCApiHandler>, method: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
    return handler({ method, path, query: {}, requestBody: body, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });
}

const posts = (n: number, title = 'wr') => Array.from({ length: n }, () => ({ title, authorId: 1 }));
const written = async () => (await s.prisma.post.count()) + (await s.prisma.comment.count()) + (await s.prisma.allTypes.count());

describe('by default', () => {
    const handler = RPCApiHandler();

    it('a createMany or createManyAndReturn of more than 1,000 rows is a 400, nothing written', async () => {
        for (const op of ['createMany', 'createManyAndReturn']) {
            const res = await call(handler, 'POST', `/post/${op}`, { data: posts(1001) });
            expect({ op, status: res.status }).toEqual({ op, status: 400 });
            expect(res.body.error.message).toBe('too many records written by one call: 1001 (at most 1000; see the "maxWriteRecords" option)');
        }
        expect(await written()).toBe(0);
    });

    it('nested writes count together, at any depth, nothing written', async () => {
        const comments = Array.from({ length: 600 }, () => ({ content: 'c' }));
        const res = await call(handler, 'POST', '/user/create', {
            data: { email: 'nested@x', posts: { create: [{ title: 'a', comments: { create: comments } }], createMany: { data: posts(500).map(({ title }) => ({ title })) } } },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^too many records written by one call: 1101 /);
        expect(await written()).toBe(0);
        expect(await s.prisma.user.count({ where: { email: 'nested@x' } })).toBe(0);
    });

    it('1,000 rows are written (a model whose rule needs no per-row check: fast)', async () => {
        const res = await call(handler, 'POST', '/allTypes/createMany', { data: Array.from({ length: 1000 }, (_, i) => ({ string: `r${i}` })) });
        expect([res.status, res.body]).toEqual([201, { data: { count: 1000 } }]);
        await s.prisma.allTypes.deleteMany();
    });
});

describe('the maxWriteRecords option', () => {
    const handler = RPCApiHandler({ maxWriteRecords: 3 });

    it('bounds calls at the number given', async () => {
        expect((await call(handler, 'POST', '/post/createMany', { data: posts(4) })).status).toBe(400);
        const nested = await call(handler, 'PUT', '/user/update', { where: { id: 1 }, data: { posts: { create: posts(2).map(({ title }) => ({ title })), connect: [{ id: 1 }, { id: 2 }] } } });
        expect(nested.status).toBe(400);
        expect(await written()).toBe(0);
        expect((await call(handler, 'POST', '/post/createMany', { data: posts(3) })).body).toEqual({ data: { count: 3 } });
        await s.prisma.post.deleteMany();
    });

    it('bounds a $transaction/sequential by the records of all its operations', async () => {
        const create = { model: 'post', op: 'createMany', args: { data: posts(2) } };
        const res = await call(handler, 'POST', '/$transaction/sequential', [create, create]);
        expect([res.status, res.body.error.message]).toEqual([400, 'too many records written by one transaction: 4 (at most 3; see the "maxWriteRecords" option)']);
        expect(await written()).toBe(0);
    });

    it('Infinity turns it off (2.x had no bound)', async () => {
        const res = await call(RPCApiHandler({ maxWriteRecords: Infinity }), 'POST', '/allTypes/createMany', { data: Array.from({ length: 1001 }, () => ({})) });
        expect([res.status, res.body]).toEqual([201, { data: { count: 1001 } }]);
        await s.prisma.allTypes.deleteMany();
    });

    it('refuses a nonsensical value at creation', () => {
        for (const value of [0, -1, 1.5, NaN, '5']) {
            expect(() => RPCApiHandler({ maxWriteRecords: value as number })).toThrow(/"maxWriteRecords" must be a positive integer or Infinity/);
        }
    });
});
