import { loadSchema, type TestSchema } from '../support/schema';
import { BOB, loadLeakSchema } from './fixture';
import { rpcAs } from './rpc-call';

/**
 * A cursor naming a record the user may not read (src/api/rpc/hidden-cursor.ts). Prisma finds the cursor's row by
 * its key without the read rule, so the page started at a hidden row: an empty page or not told Bob whether Alice's
 * draft (post 2) exists, and ordering by title around it gave its title away, letter by letter (2.x answers the
 * same). It now reads as a cursor on no record: an empty page, at the top and in nested reads, while a cursor on a
 * record the user may read works as Prisma's does.
 */

let s: TestSchema;
beforeEach(async () => {
    s = await loadLeakSchema();
});
afterEach(() => s.cleanup());

const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
const bob = (method: string, path: string, args: unknown) => rpcAs(s, BOB, method, path, args);

describe('a cursor on a record the user may not read answers as one on no record', () => {
    it('findMany, count and aggregate: the same answer for a hidden record as for a missing one', async () => {
        for (const [path, args, empty] of [
            ['/post/findMany', { orderBy: { id: 'asc' }, select: { id: true } }, []],
            ['/post/count', { orderBy: { id: 'asc' } }, 0],
            ['/post/aggregate', { orderBy: { id: 'asc' }, _count: { _all: true } }, { _count: { _all: 0 } }],
        ] as const) {
            const hidden = await bob('GET', path, { ...args, cursor: { id: 2 } });
            const missing = await bob('GET', path, { ...args, cursor: { id: 99 } });
            expect([path, hidden.status, hidden.body.data]).toEqual([path, 200, empty]);
            expect(hidden.body).toEqual(missing.body);
        }
    });

    it('in a nested read', async () => {
        const res = await bob('GET', '/user/findUnique', { where: { id: 2 }, select: { posts: { cursor: { id: 2 }, orderBy: { id: 'asc' }, select: { id: true } } } });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ posts: [] });
    });

    it("no order around the hidden record tells its title: Bob's post is never on a page that starts there", async () => {
        for (const guess of ['a', 'alice secret draft', 'alice secret draft~', 'z']) {
            expect((await bob('PUT', '/post/update', { where: { id: 3 }, data: { title: guess } })).status).toBe(200);
            const page = await bob('GET', '/post/findMany', { cursor: { id: 2 }, orderBy: [{ title: 'asc' }, { id: 'asc' }], select: { id: true } });
            expect([guess, page.body.data]).toEqual([guess, []]);
        }
    });
});

describe('a cursor on a record the user may read works as Prisma reads it', () => {
    it('the page starts at it, at the top and nested, with the filter and order the call gives', async () => {
        const top = await bob('GET', '/post/findMany', { cursor: { id: 1 }, orderBy: { id: 'asc' }, select: { id: true } });
        expect(ids(top.body.data)).toEqual([1, 3]);
        const skipped = await bob('GET', '/post/findMany', { cursor: { id: 1 }, skip: 1, orderBy: { id: 'asc' }, select: { id: true } });
        expect(ids(skipped.body.data)).toEqual([3]);
        expect((await bob('GET', '/post/count', { cursor: { id: 1 }, orderBy: { id: 'asc' } })).body.data).toBe(2);
        const nested = await bob('GET', '/user/findUnique', { where: { id: 2 }, select: { posts: { cursor: { id: 3 }, orderBy: { id: 'asc' }, select: { id: true } } } });
        expect(nested.body.data).toEqual({ posts: [{ id: 3 }] });
    });

    it('Alice, who may read her draft, pages from it', async () => {
        const res = await rpcAs(s, { id: 1 }, 'GET', '/post/findMany', { cursor: { id: 2 }, orderBy: { id: 'asc' }, select: { id: true } });
        expect(ids(res.body.data)).toEqual([2, 3]);
    });
});

describe('the filter beside a cursor on no record', () => {
    it('stays where the policy guards it: a relation filter it would never reach is not handed to Prisma either', async () => {
        const blog = await loadSchema();
        try {
            await blog.prisma.user.create({ data: { id: 1, email: 'a@x', posts: { create: [{ id: 1, title: 't', published: true }, { id: 2, title: 'draft' }] } } });
            // anonymous users read no user: ZenStack reads the author filter as false, and Prisma never sees its operand
            // (`notIn` is no operator of a Boolean filter); wrapped in an AND of its own it reached Prisma (a 400)
            const where = { author: { allTypes: { some: { boolean: { notIn: [] } } } } };
            for (const cursor of [1, 2, 99]) {
                const res = await rpcAs(blog, undefined, 'GET', '/post/findMany', { where, cursor: { id: cursor } });
                expect([cursor, res.status, res.body.data]).toEqual([cursor, 200, []]);
            }
        } finally {
            await blog.cleanup();
        }
    });
});
