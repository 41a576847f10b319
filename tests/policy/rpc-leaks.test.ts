import { BOB, loadLeakSchema, SECRETS } from './fixture';
import type { TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/** Proof that RPC answers reveal nothing Bob may not read: not through data, filters, ordering, aggregates or errors. */

let s: TestSchema;

beforeAll(async () => {
    s = await loadLeakSchema();
});

afterAll(async () => {
    await s.cleanup();
});

const rpc = (method: string, path: string, args: unknown) => rpcAs(s, BOB, method, path, args);

function expectNoSecrets(res: Res): void {
    for (const secret of SECRETS) {
        expect(res.text).not.toContain(secret);
    }
}

describe('reads return only what Bob may read', () => {
    it('omits other users’ protected fields and every password', async () => {
        const res = await rpc('GET', '/user/findMany', { orderBy: { id: 'asc' } });
        expect(res.body.data).toEqual([
            { id: 1, name: 'alice' },
            { id: 2, name: 'bob', email: 'bob@x', salary: 50 },
            { id: 3, name: 'carol' },
        ]);
        expectNoSecrets(res);
    });

    it('filters out unreadable rows from lists, counts and relation counts', async () => {
        expect((await rpc('GET', '/post/count', {})).body.data).toBe(2);
        const withCounts = await rpc('GET', '/user/findMany', { select: { id: true, _count: { select: { posts: true } } }, orderBy: { id: 'asc' } });
        expect(withCounts.body.data.map((u: { _count: { posts: number } }) => u._count.posts)).toEqual([1, 1, 0]);
        const included = await rpc('GET', '/user/findMany', { include: { posts: true } });
        expectNoSecrets(included);
    });
});

describe('filters cannot probe protected values', () => {
    it.each([
        ['equality on a field-level rule', { where: { email: 'alice@x' } }],
        ['an operator on a field-level rule', { where: { email: { startsWith: 'a' } } }],
        ['a filter through a relation', { where: { posts: { some: { author: { email: 'carol@x' } } } } }],
    ])('%s matches no row whose field Bob cannot read', async (_name, args) => {
        const res = await rpc('GET', '/user/findMany', args);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
    });

    it('a filter on a protected field through a to-one relation finds nothing of others', async () => {
        const res = await rpc('GET', '/post/findMany', { where: { author: { email: 'alice@x' } } });
        expect(res.body.data).toEqual([]);
    });

    it.each([
        ['direct', { where: { password: 'hash-alice' } }],
        ['with an operator', { where: { password: { startsWith: 'hash-a' } } }],
        ['inside OR', { where: { OR: [{ id: 99 }, { password: 'hash-alice' }] } }],
        ['through a relation', { where: { author: { password: 'hash-alice' } } }, '/post/findMany'],
    ])('filtering by an @omit field is refused (%s)', async (_name, args, path = '/user/findMany') => {
        const res = await rpc('GET', path as string, args);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/"password" of User cannot be used for filtering/);
        expectNoSecrets(res);
    });
});

describe('ordering, cursors, distinct and aggregates cannot reveal protected values', () => {
    it.each([
        ['orderBy a field-level rule', '/user/findMany', { orderBy: { salary: 'desc' } }, /"salary".*ordering/],
        ['orderBy in an array', '/user/findMany', { orderBy: [{ name: 'asc' }, { email: 'desc' }] }, /"email".*ordering/],
        ['orderBy through a to-one relation', '/post/findMany', { orderBy: { author: { salary: 'asc' } } }, /"salary".*ordering/],
        ['orderBy in a nested include', '/post/findMany', { include: { author: { include: { posts: { orderBy: { author: { email: 'asc' } } } } } } }, /"email".*ordering/],
        ['a cursor on a protected unique field', '/user/findMany', { cursor: { email: 'alice@x' }, take: 1 }, /"email".*cursor/],
        ['distinct', '/user/findMany', { distinct: ['salary'] }, /"salary".*distinct/],
        ['_sum', '/user/aggregate', { _sum: { salary: true } }, /"salary".*aggregation/],
        ['_max of a string', '/user/aggregate', { _max: { email: true } }, /"email".*aggregation/],
        ['_count of a field', '/user/aggregate', { _count: { password: true } }, /"password".*aggregation/],
        ['count with a field select', '/user/count', { select: { salary: true } }, /"salary".*counting/],
        ['groupBy a protected field', '/user/groupBy', { by: ['email'] }, /"email".*grouping/],
        ['groupBy aggregating one', '/user/groupBy', { by: ['name'], _avg: { salary: true } }, /"salary".*aggregation/],
        ['having on one', '/user/groupBy', { by: ['name'], having: { salary: { gt: 10 } } }, /"salary".*grouping conditions/],
        ['having on one under AND', '/user/groupBy', { by: ['id'], having: { AND: [{ salary: { _avg: { gt: 150 } } }] } }, /"salary".*grouping conditions/],
        ['having on one under OR', '/user/groupBy', { by: ['id'], having: { OR: [{ name: { not: 'x' } }, { email: { _max: { startsWith: 'car' } } }] } }, /"email".*grouping conditions/],
        ['having on one under NOT, nested', '/user/groupBy', { by: ['id'], having: { NOT: { AND: { salary: { _sum: { lt: 150 } } } } } }, /"salary".*grouping conditions/],
        ['groups ordered by an aggregate of one', '/user/groupBy', { by: ['id'], orderBy: { _max: { salary: 'desc' } } }, /"salary".*ordering/],
        ['groups ordered by a count of one', '/user/groupBy', { by: ['id'], orderBy: [{ name: 'asc' }, { _count: { email: 'asc' } }] }, /"email".*ordering/],
    ])('%s is refused with 400', async (_name, path, args, message) => {
        const res = await rpc('GET', path, args);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(message);
        expectNoSecrets(res);
    });

    it('aggregates over readable fields count readable rows only', async () => {
        const res = await rpc('GET', '/post/aggregate', { _sum: { views: true }, _count: true });
        expect(res.body.data).toEqual({ _sum: { views: 6 }, _count: 2 });
        const grouped = await rpc('GET', '/post/groupBy', { by: ['authorId'], _sum: { views: true }, orderBy: { authorId: 'asc' } });
        expect(grouped.body.data).toEqual([
            { authorId: 1, _sum: { views: 5 } },
            { authorId: 2, _sum: { views: 1 } },
        ]);
    });
});

describe('errors reveal nothing', () => {
    it('a unique violation does not echo the other user’s value', async () => {
        const res = await rpc('POST', '/user/create', { data: { id: 9, name: 'mallory', email: 'alice@x' } });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('P2002');
        expectNoSecrets(res);
    });

    it('updating an unreadable row answers without its content', async () => {
        const res = await rpc('PATCH', '/post/update', { where: { id: 2 }, data: { title: 'mine now' } });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expectNoSecrets(res);
        expect(await s.prisma.post.findUnique({ where: { id: 2 } })).toMatchObject({ title: 'alice secret draft' });
    });

    it('a validation error does not echo the policy-injected filter', async () => {
        const res = await rpc('GET', '/post/findMany', { where: { nope: 1 } });
        expect(res.status).toBe(400);
        expect(res.text).not.toMatch(/published|authorId|OR|AND/);
    });
});
