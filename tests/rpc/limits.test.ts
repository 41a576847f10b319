import { RPCApiHandler } from '../../src/api/rpc';
import { nestingDepth } from '../../src/api/common/guards';
import { loadSchema, type TestSchema } from '../support/schema';

/** The optional RPC limits: `maxTake` clamps findMany and nested to-many reads, `maxDepth` rejects deeply nested arguments. */

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: Array.from({ length: 8 }, (_, i) => ({ title: `p${i}`, published: true })) } } });
});

afterAll(async () => {
    await s.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(handler: ReturnType<typeof RPCApiHandler>, path: string, q: unknown): Promise<{ status: number; body: any }> {
    return handler({ method: 'GET', path, query: { q: JSON.stringify(q) }, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });
}

describe('maxTake', () => {
    const limited = () => RPCApiHandler({ maxTake: 3 });

    it('is off by default (drop-in behaviour)', async () => {
        const res = await get(RPCApiHandler(), '/post/findMany', {});
        expect(res.body.data).toHaveLength(8);
    });

    it('clamps a missing or larger take, keeps a smaller one, and keeps the sign of a negative take', async () => {
        expect((await get(limited(), '/post/findMany', {})).body.data).toHaveLength(3);
        expect((await get(limited(), '/post/findMany', { take: 100 })).body.data).toHaveLength(3);
        expect((await get(limited(), '/post/findMany', { take: 2 })).body.data).toHaveLength(2);
        const last = await get(limited(), '/post/findMany', { take: -100, orderBy: { id: 'asc' } });
        expect(last.body.data.map((p: { title: string }) => p.title)).toEqual(['p5', 'p6', 'p7']);
    });

    it('applies to findMany and to every to-many relation a call reads, not to counts', async () => {
        expect((await get(limited(), '/post/count', {})).body.data).toBe(8);
        const one = await get(limited(), '/user/findUnique', { where: { id: 1 }, include: { posts: true } });
        expect(one.body.data.posts).toHaveLength(3);
        const selected = await get(limited(), '/user/findFirst', { select: { posts: { take: 100, select: { id: true } }, _count: { select: { posts: true } } } });
        expect([selected.body.data.posts.length, selected.body.data._count.posts]).toEqual([3, 8]);
        const deep = await get(limited(), '/post/findMany', { take: 1, include: { author: { include: { posts: { take: -2, orderBy: { id: 'asc' } } } } } });
        expect(deep.body.data[0].author.posts.map((p: { title: string }) => p.title)).toEqual(['p6', 'p7']);
        const unlimited = await get(RPCApiHandler(), '/user/findUnique', { where: { id: 1 }, include: { posts: true } });
        expect(unlimited.body.data.posts).toHaveLength(8);
    });

    it('rejects a nonsensical option at creation', () => {
        expect(() => RPCApiHandler({ maxTake: 0 })).toThrow(/maxTake/);
        expect(() => RPCApiHandler({ maxDepth: 1.5 })).toThrow(/maxDepth/);
    });
});

describe('maxDepth', () => {
    const limited = () => RPCApiHandler({ maxDepth: 4 });
    const deepInclude = { include: { author: { include: { posts: { include: { author: true } } } } } };

    it('measures nesting of objects and arrays', () => {
        expect(nestingDepth(1, 10)).toBe(0);
        expect(nestingDepth({}, 10)).toBe(1);
        expect(nestingDepth({ a: { b: [1] } }, 10)).toBe(3);
        // stops counting past the limit, so hostile depth costs nothing
        expect(nestingDepth(JSON.parse('{"a":'.repeat(5000) + '1' + '}'.repeat(5000)), 10)).toBe(11);
    });

    it('accepts arguments within the limit', async () => {
        const res = await get(limited(), '/post/findMany', { where: { author: { email: 'u1@x' } }, include: { author: true } });
        expect(res.status).toBe(200);
        expect(res.body.data).toHaveLength(8);
    });

    it('rejects deeper include, select and where with 400 naming the argument', async () => {
        const include = await get(limited(), '/post/findMany', deepInclude);
        expect(include.status).toBe(400);
        expect(include.body.error.message).toMatch(/"include" is nested deeper than the allowed 4 levels/);
        const where = await get(limited(), '/post/findFirst', { where: { author: { posts: { some: { author: { name: 'x' } } } } } });
        expect(where.status).toBe(400);
        expect(where.body.error.message).toMatch(/"where"/);
        // the same arguments are fine without the limit
        expect((await get(RPCApiHandler(), '/post/findMany', deepInclude)).status).toBe(200);
    });

    it('applies inside $transaction/sequential', async () => {
        const res = await limited()({
            method: 'POST',
            path: '/$transaction/sequential',
            requestBody: [{ model: 'post', op: 'findMany', args: deepInclude }],
            prisma: s.enhance({ id: 1 }),
            modelMeta: s.modelMeta,
            logger: null,
        });
        expect(res.status).toBe(400);
        expect((res.body as { error: { message: string } }).error.message).toMatch(/operation #0: "include" is nested deeper/);
    });
});

describe('maxTransactionOperations', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function tx(handler: ReturnType<typeof RPCApiHandler>, ops: unknown[]): Promise<{ status: number; body: any }> {
        return handler({ method: 'POST', path: '/$transaction/sequential', requestBody: ops, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });
    }
    const create = (title: string) => ({ model: 'post', op: 'create', args: { data: { title, authorId: 1 } } });

    it('bounds a transaction at the number given, and runs nothing of a longer one', async () => {
        const handler = RPCApiHandler({ maxTransactionOperations: 2 });
        expect((await tx(handler, [create('mto-a'), create('mto-b')])).status).toBe(200);
        const refused = await tx(handler, [create('mto-c'), create('mto-d'), create('mto-e')]);
        expect([refused.status, refused.body.error.message]).toEqual([400, 'too many operations in one transaction (at most 2)']);
        expect(await s.prisma.post.count({ where: { title: { startsWith: 'mto-' } } })).toBe(2);
    });

    it('rejects a nonsensical option at creation (it silently lifted the bound, or refused every transaction)', () => {
        for (const value of [0, -1, 1.5, NaN, Infinity, '5']) {
            expect(() => RPCApiHandler({ maxTransactionOperations: value as number })).toThrow(/"maxTransactionOperations" must be a positive integer/);
        }
    });
});
