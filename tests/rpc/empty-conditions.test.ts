import fc from 'fast-check';
import { rpcAs } from '../policy/rpc-call';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Empty conditions (`{}`, `title: {}`, `AND: []`, `NOT: []`, `NOT: {}`, and `OR` lists holding them) answer what
 * the ORM answers for them, in relation filters too, where ZenStack 2.x read `{}` as "true" and answered
 * otherwise, or handed Prisma an argument it refuses. The rules here let every row be read and written (but
 * not trivially, so ZenStack still puts them into every relation filter), so the handler's answer must be
 * exactly the raw client's. (src/api/rpc/empty-conditions.ts)
 */

const SCHEMA = `
model User {
  id    Int    @id
  name  String
  posts Post[]
  @@allow('all', id > 0)
}
model Post {
  id       Int     @id
  title    String
  author   User?   @relation(fields: [authorId], references: [id])
  authorId Int?
  @@allow('all', id > 0)
}
`;

let s: TestSchema;
const ME = { id: 1 };

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.create({ data: { id: 1, name: 'a', posts: { create: [{ id: 1, title: 'x' }, { id: 2, title: 'y' }] } } });
    await s.prisma.user.create({ data: { id: 2, name: 'b', posts: { create: [{ id: 3, title: 'x' }] } } });
    await s.prisma.user.create({ data: { id: 3, name: 'c' } });
    await s.prisma.post.create({ data: { id: 4, title: 'z' } });
});
afterAll(() => s?.cleanup());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Where = Record<string, any>;

/** What the raw client answers: the ids found, or that it refused the filter. */
async function raw(model: 'user' | 'post', where: Where): Promise<string> {
    return s.prisma[model].findMany({ where, select: { id: true }, orderBy: { id: 'asc' } }).then(
        (rows: { id: number }[]) => JSON.stringify(rows.map((r) => r.id)),
        () => 'refused',
    );
}

async function handler(model: 'user' | 'post', where: Where): Promise<string> {
    const res = await rpcAs(s, ME, 'GET', `/${model}/findMany`, { where, select: { id: true }, orderBy: { id: 'asc' } });
    if (res.status === 200) return JSON.stringify(res.body.data.map((r: { id: number }) => r.id));
    return res.status === 400 ? 'refused' : `${res.status} ${res.text}`;
}

const inRelation = (inner: Where): Where[] => [{ posts: { some: inner } }, { posts: { every: inner } }, { posts: { none: inner } }];

describe('the shapes 2.x answered otherwise than the ORM', () => {
    const shapes: [string, Where][] = [
        ['an OR of an empty filter', { OR: [{}] }],
        ['an OR of an empty filter, with a condition beside it', { OR: [{}], title: 'x' }],
        ['an OR of an empty filter and a condition', { OR: [{}, { title: 'x' }] }],
        ['a NOT of an empty filter', { NOT: [{}] }],
        ['NOT: {}', { NOT: {} }],
        ['an OR of an empty AND', { OR: [{ AND: [] }] }],
        ['an OR of an empty NOT', { OR: [{ NOT: [] }] }],
        ['a NOT of an empty AND', { NOT: [{ AND: [] }] }],
        ['an OR of an empty field filter', { OR: [{ title: {} }] }],
        ['a NOT of an empty field filter', { NOT: [{ title: {} }] }],
        ['an empty field filter under AND', { AND: [{ title: {} }] }],
    ];
    it.each(shapes)('%s, in some/every/none of a to-many relation', async (_name, inner) => {
        for (const where of inRelation(inner)) {
            expect([JSON.stringify(where), await handler('user', where)]).toEqual([JSON.stringify(where), await raw('user', where)]);
        }
    });
    it.each(shapes)('%s, in a to-one relation filter and at the top', async (_name, inner) => {
        for (const where of [inner, { author: { is: inner } }, { author: inner }]) {
            expect([JSON.stringify(where), await handler('post', where)]).toEqual([JSON.stringify(where), await raw('post', where)]);
        }
    });
});

/**
 * The filter semantics Prisma documents for empty conditions, evaluated over the seeded rows: an empty filter
 * (`{}`, a field filter `{}`, `AND: []`, `NOT: []`, or an object of only those) is no condition; `OR` drops its
 * empty members and matches nothing when none is left; `NOT` drops them and matches everything when none is
 * left. (Prisma alone departs from its own rule in some places: an `OR` left empty inside a `NOT` or `AND`
 * member is read there as no condition. The handler answers the documented rule everywhere.)
 */
type Row = { id: number; title?: string; name?: string; authorId?: number | null };
const USERS: Row[] = [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
    { id: 3, name: 'c' },
];
const POSTS: Row[] = [
    { id: 1, title: 'x', authorId: 1 },
    { id: 2, title: 'y', authorId: 1 },
    { id: 3, title: 'x', authorId: 2 },
    { id: 4, title: 'z', authorId: null },
];
const COMBINATORS = new Set(['AND', 'OR', 'NOT']);

function isEmpty(f: unknown): boolean {
    if (typeof f !== 'object' || f === null || Array.isArray(f)) return false;
    return Object.entries(f).every(([k, v]) => {
        if (k === 'AND' || k === 'NOT') return Array.isArray(v) ? v.every(isEmpty) : isEmpty(v);
        if (k === 'OR') return false;
        return !['posts', 'author'].includes(k) && isEmpty(v);
    });
}

function holds(model: 'user' | 'post', f: Where, row: Row): boolean {
    return Object.entries(f).every(([k, v]) => {
        const list = (x: unknown): Where[] => (Array.isArray(x) ? x : [x]).filter((m) => !isEmpty(m));
        if (k === 'AND') return list(v).every((m) => holds(model, m, row));
        if (k === 'OR') return list(v).some((m) => holds(model, m, row));
        if (k === 'NOT') return !list(v).some((m) => holds(model, m, row));
        if (k === 'posts') {
            const mine = POSTS.filter((p) => p.authorId === row.id);
            const [op, inner] = Object.entries(v as Where)[0];
            if (op === 'some') return mine.some((p) => holds('post', inner, p));
            if (op === 'every') return mine.every((p) => holds('post', inner, p));
            return !mine.some((p) => holds('post', inner, p));
        }
        if (k === 'author') {
            const author = USERS.find((u) => u.id === row.authorId);
            const inner = 'is' in v ? v.is : v;
            return author !== undefined && holds('user', inner, author);
        }
        if (typeof v === 'string') return row[k as 'name'] === v;
        if ('not' in v) return row[k as 'name'] !== v.not;
        if (COMBINATORS.has(k)) throw new Error(k);
        return true; // an empty field filter
    });
}

const expected = (model: 'user' | 'post', where: Where) => JSON.stringify((model === 'user' ? USERS : POSTS).filter((r) => holds(model, where, r)).map((r) => r.id));

describe('generated filters with empty conditions (property-based)', () => {
    const leaf = fc.constantFrom<Where>({}, { title: {} }, { title: 'x' }, { title: { not: 'x' } }, { AND: [] }, { NOT: [] }, { OR: [] }, { NOT: {} }, { AND: {} });
    const { post } = fc.letrec<{ post: Where; postList: Where[] }>((tie) => ({
        post: fc.oneof(
            { depthSize: 'small', withCrossShrink: true },
            leaf,
            fc.record({ OR: tie('postList') }),
            fc.record({ AND: tie('postList') }),
            fc.record({ NOT: fc.oneof(tie('postList'), tie('post')) }),
            fc.record({ OR: tie('postList'), title: fc.constantFrom<unknown>('x', {}, { not: 'y' }) }),
            fc.record({ author: fc.oneof(fc.record({ is: fc.constant<Where>({}) }), fc.constantFrom<Where>({ name: 'a' }, { name: {} }, { OR: [{}] }, { NOT: {} })) }),
        ),
        postList: fc.array(tie('post'), { maxLength: 3 }),
    }));
    const userWhere = fc.oneof(
        post.map((p) => ({ posts: { some: p } })),
        post.map((p) => ({ posts: { every: p } })),
        post.map((p) => ({ posts: { none: p } })),
        fc.tuple(post, fc.constantFrom<Where>({}, { name: {} }, { AND: [] })).map(([p, e]) => ({ OR: [e, { name: 'b' }], posts: { none: p } })),
    );
    // a relation filter under OR or NOT is refused by design (README, what the handlers add to the access policy)
    const GUARDED = /is not supported: the read rules of/;
    /** Checks `runs` generated filters of `model` against the rule; returns how many were answered (not refused by design). */
    async function byTheRule(model: 'user' | 'post', wheres: fc.Arbitrary<Where>, seed: number): Promise<number> {
        let answered = 0;
        await fc.assert(
            fc.asyncProperty(wheres, async (where) => {
                const res = await rpcAs(s, ME, 'GET', `/${model}/findMany`, { where, select: { id: true }, orderBy: { id: 'asc' } });
                if (res.status === 400 && GUARDED.test(res.body.error.message)) return;
                answered++;
                expect([res.status, JSON.stringify(res.body.data?.map((r: { id: number }) => r.id))]).toEqual([200, expected(model, where)]);
            }),
            { seed, numRuns: 300 },
        );
        return answered;
    }
    it('users: the handler answers by the documented rule', async () => {
        expect(await byTheRule('user', userWhere, 4242)).toBeGreaterThan(150);
    });
    it('posts: the handler answers by the documented rule', async () => {
        expect(await byTheRule('post', post, 4243)).toBeGreaterThan(150);
    });
    it('the rule is the raw client\'s where the raw client follows it: at the top of a filter', async () => {
        for (const where of [{ OR: [{}] }, { OR: [{}, { title: 'x' }] }, { NOT: [{}] }, { NOT: {} }, { OR: [{ AND: [] }] }, { NOT: [{ title: {} }] }, { OR: [] }]) {
            expect([where, await raw('post', where)]).toEqual([where, expected('post', where)]);
        }
    });
});

describe('in the filters of nested writes', () => {
    const titles = async () => (await s.prisma.post.findMany({ where: { authorId: 1 }, orderBy: { id: 'asc' } })).map((p: { title: string }) => p.title);
    afterEach(async () => {
        await s.prisma.post.update({ where: { id: 1 }, data: { title: 'x' } });
        await s.prisma.post.update({ where: { id: 2 }, data: { title: 'y' } });
    });
    it.each([
        ['an OR of an empty filter beside a condition: no post', { OR: [{}], title: 'x' }, ['x', 'y']],
        ['an OR of an empty field filter: no post', { OR: [{ title: {} }] }, ['x', 'y']],
        ['NOT: {}: every post', { NOT: {} }, ['q', 'q']],
        ['a NOT of an empty filter beside a condition: the matching post', { NOT: [{}], title: 'y' }, ['x', 'q']],
    ])('updateMany: %s', async (_name, where, after) => {
        const args = { where: { id: 1 }, data: { posts: { updateMany: { where, data: { title: 'q' } } } } };
        const sent = JSON.stringify(args);
        const res = await rpcAs(s, ME, 'PUT', '/user/update', args);
        expect(res.status).toBe(200);
        expect(await titles()).toEqual(after);
        expect(JSON.stringify(args)).toBe(sent); // the caller's arguments are left as they were
    });
    it('deleteMany: an OR of an empty filter deletes nothing', async () => {
        const res = await rpcAs(s, ME, 'PUT', '/user/update', { where: { id: 1 }, data: { posts: { deleteMany: { OR: [{}], title: 'x' } } } });
        expect(res.status).toBe(200);
        expect(await titles()).toEqual(['x', 'y']);
    });
});
