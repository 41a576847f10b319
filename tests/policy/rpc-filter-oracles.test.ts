import { BOB, loadLeakSchema } from './fixture';
import type { TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * A filter is an oracle when its answer depends on a value the user may not read: asking with the true
 * value and with a wrong one gives two different answers. Each probe below asks twice, as Bob, once with
 * a secret of the fixture (Alice's email or salary, a draft's title) and once with a decoy, and the two
 * answers must be the same (a refusal is the same answer twice). ZenStack guards a field-level rule or a
 * relation's row-level rule where a filter names the field at the top of a `where` or of a relation filter,
 * but not under AND, OR or NOT.
 */

let s: TestSchema;

beforeEach(async () => {
    s = await loadLeakSchema();
});

afterEach(async () => {
    await s.cleanup();
});

const rpc = (method: string, path: string, args: unknown) => rpcAs(s, BOB, method, path, args);

const answer = (res: Res) => ({ status: res.status, body: res.body });

type Probe = [name: string, method: string, path: string, args: (value: unknown) => unknown, secret: unknown, decoy: unknown];

const EMAIL = ['alice@x', 'alice@y'] as const;
const SALARY = [100, 101] as const;
const DRAFT = ['alice secret draft', 'no such title'] as const;

const reads: Probe[] = [
    ['email under OR', 'GET', '/user/findMany', (v) => ({ where: { OR: [{ email: v }] } }), ...EMAIL],
    ['email under OR beside a condition on email at the top', 'GET', '/user/findMany', (v) => ({ where: { email: { contains: '@' }, OR: [{ email: v }, { name: 'zz' }] } }), ...EMAIL],
    ['email under NOT beside a condition on email at the top', 'GET', '/user/count', (v) => ({ where: { email: { not: 'zz' }, NOT: { email: v } } }), ...EMAIL],
    ['email under OR beside a falsy condition on email at the top', 'GET', '/user/count', (v) => ({ where: { email: { not: 'zz' }, AND: [{ email: '' }, { OR: [{ email: v }] }] } }), ...EMAIL],
    ['email under OR in a to-one filter beside email at the top', 'GET', '/post/count', (v) => ({ where: { author: { email: { contains: '@' }, OR: [{ email: v }] } } }), ...EMAIL],
    ['email under OR at the top, email only inside a relation filter', 'GET', '/post/count', (v) => ({ where: { author: { email: { contains: '@' } }, OR: [{ author: { email: v } }] } }), ...EMAIL],
    ['email under AND', 'GET', '/user/findMany', (v) => ({ where: { AND: [{ email: v }] } }), ...EMAIL],
    ['email under NOT', 'GET', '/user/findMany', (v) => ({ where: { NOT: { email: { startsWith: v } } } }), 'al', 'ax'],
    ['email under AND under NOT', 'GET', '/user/findMany', (v) => ({ where: { NOT: [{ AND: { email: v } }] } }), ...EMAIL],
    ['salary under OR, counted', 'GET', '/user/count', (v) => ({ where: { OR: [{ salary: v }] } }), ...SALARY],
    ['salary under AND, aggregated', 'GET', '/user/aggregate', (v) => ({ where: { AND: { salary: v } }, _count: true }), ...SALARY],
    ['salary under AND, grouped', 'GET', '/user/groupBy', (v) => ({ by: ['id'], where: { AND: { salary: v } } }), ...SALARY],
    ['email under AND beside a unique key', 'GET', '/user/findUnique', (v) => ({ where: { id: 1, AND: [{ email: v }] } }), ...EMAIL],
    ['email under OR, first match', 'GET', '/user/findFirst', (v) => ({ where: { OR: [{ email: v }] }, select: { id: true } }), ...EMAIL],
    ['email under OR of a to-one relation filter', 'GET', '/post/findMany', (v) => ({ where: { author: { OR: [{ email: v }] } } }), ...EMAIL],
    ['email under NOT inside is', 'GET', '/post/findMany', (v) => ({ where: { author: { is: { NOT: { email: v } } } } }), ...EMAIL],
    ['email under OR inside some', 'GET', '/user/findMany', (v) => ({ where: { posts: { some: { author: { OR: [{ email: v }] } } } } }), ...EMAIL],
    ['a draft title through a to-many filter under OR', 'GET', '/user/findMany', (v) => ({ where: { OR: [{ posts: { some: { title: v } } }] } }), ...DRAFT],
    ['a draft title through a to-many filter under NOT', 'GET', '/user/count', (v) => ({ where: { NOT: { posts: { none: { title: v } } } } }), ...DRAFT],
    ['a draft title through a to-one filter under AND', 'GET', '/post/count', (v) => ({ where: { AND: [{ author: { posts: { some: { title: v } } } }] } }), ...DRAFT],
    ['email in a nested read', 'GET', '/user/findMany', (v) => ({ select: { id: true, posts: { where: { author: { email: v } } } } }), ...EMAIL],
    ['email under OR in a nested read', 'GET', '/user/findMany', (v) => ({ select: { id: true, posts: { where: { OR: [{ author: { email: v } }] } } } }), ...EMAIL],
    ['email under OR in a relation count', 'GET', '/user/findMany', (v) => ({ select: { id: true, _count: { select: { posts: { where: { OR: [{ author: { email: v } }] } } } } } }), ...EMAIL],
    ['email under AND of a to-one relation filter', 'GET', '/post/findMany', (v) => ({ where: { author: { AND: [{ email: v }] } } }), ...EMAIL],
    ['email under AND inside some', 'GET', '/user/findMany', (v) => ({ where: { posts: { some: { AND: [{ author: { email: v } }, { published: true }] } } } }), ...EMAIL],
    ['email under AND in a nested read', 'GET', '/user/findMany', (v) => ({ select: { id: true, posts: { where: { AND: [{ author: { email: v } }] } } } }), ...EMAIL],
    ['email under AND in a relation count', 'GET', '/user/findMany', (v) => ({ select: { id: true, _count: { select: { posts: { where: { AND: { author: { email: v } } } } } } } }), ...EMAIL],
    ['a draft title under NOT in a nested to-one filter', 'GET', '/post/count', (v) => ({ where: { author: { NOT: { posts: { some: { title: v } } } } } }), ...DRAFT],
    ['email in a relation count', 'GET', '/user/findMany', (v) => ({ select: { id: true, _count: { select: { posts: { where: { author: { email: v } } } } } } }), ...EMAIL],
];

const writes: Probe[] = [
    ['salary under OR of updateMany', 'PATCH', '/user/updateMany', (v) => ({ where: { OR: [{ salary: v }] }, data: { name: 'renamed' } }), ...SALARY],
    ['email of updateMany', 'PATCH', '/user/updateMany', (v) => ({ where: { email: v }, data: { name: 'renamed' } }), ...EMAIL],
    ['email under OR of updateMany beside email at the top', 'PATCH', '/user/updateMany', (v) => ({ where: { email: { contains: '@' }, OR: [{ email: v }] }, data: { name: 'renamed' } }), ...EMAIL],
    ['email under NOT of deleteMany', 'DELETE', '/post/deleteMany', (v) => ({ where: { NOT: { author: { email: v } } } }), ...EMAIL],
    ['a draft title under OR of updateMany', 'PATCH', '/user/updateMany', (v) => ({ where: { OR: [{ posts: { some: { title: v } } }] }, data: { name: 'renamed' } }), ...DRAFT],
    ['a draft title through a relation of updateMany', 'PATCH', '/user/updateMany', (v) => ({ where: { posts: { some: { title: v } } }, data: { name: 'renamed' } }), ...DRAFT],
    ['a draft title in the filter of an update', 'PATCH', '/user/update', (v) => ({ where: { id: 1, posts: { some: { title: v } } }, data: { name: 'renamed' } }), ...DRAFT],
    ['a draft title in the filter of a nested updateMany', 'PATCH', '/user/update', (v) => ({ where: { id: 2 }, data: { posts: { updateMany: { where: { author: { posts: { some: { title: v } } } }, data: { views: 3 } } } } }), ...DRAFT],
    ['a draft title in the filter of a delete', 'DELETE', '/user/delete', (v) => ({ where: { id: 3, posts: { some: { title: v } } } }), 'carol draft', 'no such title'],
];

describe('filters that stay', () => {
    it('a field with a read rule under OR or NOT beside a condition on it at the top, where the policy applies its rule to the whole filter', async () => {
        const own = await rpc('GET', '/user/findMany', { where: { email: { contains: '@' }, OR: [{ email: 'bob@x' }, { email: 'alice@x' }] }, select: { id: true } });
        expect([own.status, own.body.data]).toEqual([200, [{ id: 2 }]]);
        const not = await rpc('GET', '/user/findMany', { where: { email: { endsWith: '@x' }, NOT: { email: 'carol@x' } }, select: { id: true } });
        expect([not.status, not.body.data]).toEqual([200, [{ id: 2 }]]);
        const renamed = await rpc('PATCH', '/user/updateMany', { where: { email: { contains: '@' }, OR: [{ email: 'bob@x' }, { email: 'alice@x' }] }, data: { name: 'bobby' } });
        expect([renamed.status, renamed.body.data]).toEqual([200, { count: 1 }]);
        expect((await s.prisma.user.findMany({ where: { name: 'bobby' }, select: { id: true } })).map((u: { id: number }) => u.id)).toEqual([2]);
    });

    it('AND members are moved to the top of the filter, where the policy guards them: Bob finds what he may read', async () => {
        const own = await rpc('GET', '/user/findMany', { where: { AND: [{ email: 'bob@x' }, { AND: { name: 'bob' } }] }, select: { id: true } });
        expect([own.status, own.body.data]).toEqual([200, [{ id: 2 }]]);
        const through = await rpc('GET', '/user/findMany', { where: { AND: [{ posts: { some: { title: 'bob public' } } }, { name: 'bob' }] }, select: { id: true } });
        expect([through.status, through.body.data]).toEqual([200, [{ id: 2 }]]);
        const count = await rpc('GET', '/user/count', { where: { AND: { email: 'alice@x' } } });
        expect([count.status, count.body.data]).toEqual([200, 0]);
        const unique = await rpc('GET', '/user/findUnique', { where: { id: 2, AND: [{ email: 'bob@x' }] }, select: { id: true } });
        expect([unique.status, unique.body.data]).toEqual([200, { id: 2 }]);
    });

    it('so are they in relation filters, nested reads and relation counts', async () => {
        const to = await rpc('GET', '/post/findMany', { where: { author: { AND: [{ email: 'bob@x' }, { AND: { name: 'bob' } }] } }, select: { id: true } });
        expect([to.status, to.body.data]).toEqual([200, [{ id: 3 }]]);
        const some = await rpc('GET', '/user/findMany', { where: { posts: { some: { AND: [{ author: { email: 'bob@x' } }, { published: true }] } } }, select: { id: true } });
        expect([some.status, some.body.data]).toEqual([200, [{ id: 2 }]]);
        const mine = { where: { AND: [{ author: { email: 'bob@x' } }] } };
        const nested = await rpc('GET', '/user/findUnique', { where: { id: 2 }, select: { posts: { ...mine, select: { id: true } }, _count: { select: { posts: mine } } } });
        expect([nested.status, nested.body.data]).toEqual([200, { posts: [{ id: 3 }], _count: { posts: 1 } }]);
        // through the include of a write's result too, and a negated to-many filter inside a to-one one
        const write = await rpc('PATCH', '/user/update', { where: { id: 2 }, data: { name: 'bob' }, select: { posts: { ...mine, select: { id: true } } } });
        expect([write.status, write.body.data]).toEqual([200, { posts: [{ id: 3 }] }]);
        const negated = await rpc('GET', '/post/findMany', { where: { author: { NOT: { posts: { some: { title: 'bob public' } } } } }, select: { id: true } });
        expect([negated.status, negated.body.data]).toEqual([200, [{ id: 1 }]]);
    });

    it('a negated to-many relation filter becomes its opposite, where the policy guards it', async () => {
        const none = await rpc('GET', '/user/findMany', { where: { NOT: { posts: { none: { title: 'bob public' } } } }, select: { id: true } });
        expect([none.status, none.body.data]).toEqual([200, [{ id: 2 }]]);
        // "not every post is public": only drafts are not, and Bob reads no one else's drafts
        const every = await rpc('GET', '/user/findMany', { where: { NOT: [{ posts: { every: { title: { contains: 'public' } } } }] }, select: { id: true } });
        expect([every.status, every.body.data]).toEqual([200, []]);
        // unguarded, this left Alice out: she has a draft of that title
        const some = await rpc('GET', '/user/count', { where: { NOT: { posts: { some: { title: 'alice secret draft' } } } } });
        expect([some.status, some.body.data]).toEqual([200, 3]);
        const mixed = await rpc('GET', '/user/count', { where: { NOT: { posts: { some: {} }, name: 'x' } } });
        expect(mixed.status).toBe(400);
    });

    it('members that name the same field stay under AND, and are refused there when the policy would not guard them', async () => {
        const res = await rpc('GET', '/user/findMany', { where: { AND: [{ posts: { some: { title: 'bob public' } } }, { posts: { some: { views: 1 } } }] } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/filtering through "posts" of User under AND, OR or NOT is not supported: the read rules of Post are not applied there/);
        const fields = await rpc('GET', '/user/findMany', { where: { OR: [{ name: 'alice' }, { email: 'bob@x' }] } });
        expect(fields.status).toBe(400);
        expect(fields.body.error.message).toMatch(/field "email" of User cannot be used for filtering under AND, OR or NOT/);
    });

    it('OR, NOT and relations everyone may read stay as they were', async () => {
        const res = await rpc('GET', '/post/findMany', { where: { OR: [{ author: { name: 'bob' } }, { NOT: { title: { contains: 'public' } } }] }, select: { id: true }, orderBy: { id: 'asc' } });
        expect([res.status, res.body.data]).toEqual([200, [{ id: 3 }]]);
    });
});

describe('no filter answers differently for a secret and a decoy', () => {
    it.each(reads)('%s', async (_name, method, path, args, secret, decoy) => {
        const withSecret = answer(await rpc(method, path, args(secret)));
        const withDecoy = answer(await rpc(method, path, args(decoy)));
        expect(withSecret.status).not.toBe(500);
        expect(withSecret).toEqual(withDecoy);
    });

    /** Every user with their posts, read without the policy. */
    const state = () => s.prisma.user.findMany({ orderBy: { id: 'asc' }, include: { posts: { orderBy: { id: 'asc' } } } });

    it.each(writes)('%s', async (_name, method, path, args, secret, decoy) => {
        const withSecret = answer(await rpc(method, path, args(secret)));
        const afterSecret = await state();
        // the decoy on a fresh copy of the same data
        await s.cleanup();
        s = await loadLeakSchema();
        const withDecoy = answer(await rpc(method, path, args(decoy)));
        const afterDecoy = await state();
        expect(withSecret.status).not.toBe(500);
        expect(withSecret).toEqual(withDecoy);
        // and the writes did the same, so the database cannot be read back as an oracle either
        expect(afterSecret).toEqual(afterDecoy);
    });
});
