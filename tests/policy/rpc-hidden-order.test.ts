import type { TestSchema } from '../support/schema';
import { ADMIN, loadHiddenOrderSchema, READER, setSecrets } from './hidden-order-fixture';
import { rpcAs, type Res } from './rpc-call';

/**
 * RPC orders through to-one relations to records the user may not read: ZenStack orders readable posts by their
 * hidden blogs' names, so the order answered how a hidden name compares with a guess. Such an order is a 400
 * whenever one of the rows it sorts has such a record on the way; it runs where every record it looks at is
 * readable (or absent), and always by the field the foreign key holds.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadHiddenOrderSchema();
});

afterAll(async () => {
    await s.cleanup();
});

const rpc = (path: string, args: unknown, user: Record<string, unknown> = READER, method = 'GET'): Promise<Res> => rpcAs(s, user as { id: number }, method, path, args);
const ids = (res: Res) => (res.body.data as Array<{ id: number }>).map((r) => r.id);

type Probe = [name: string, method: string, path: string, args: unknown, message: RegExp];

const probes: Probe[] = [
    ['by a hidden blog name', 'GET', '/post/findMany', { orderBy: { blog: { name: 'asc' } } }, /"blog\.name" of Post .* Blog records the user may not read/],
    ['by a hidden blog rank, descending', 'GET', '/post/findMany', { orderBy: { blog: { rank: 'desc' } } }, /"blog\.rank" of Post/],
    ['after an order that ties', 'GET', '/post/findMany', { orderBy: [{ topicId: 'asc' }, { blog: { name: 'asc' } }] }, /"blog\.name"/],
    ['findFirst', 'GET', '/post/findFirst', { orderBy: { blog: { name: 'desc' } }, select: { id: true } }, /"blog\.name"/],
    ['aggregate with take', 'GET', '/post/aggregate', { orderBy: { blog: { name: 'desc' } }, take: 2, _min: { id: true } }, /"blog\.name"/],
    ['through a required relation', 'GET', '/note/findMany', { orderBy: { blog: { name: 'desc' } } }, /"blog\.name" of Note/],
    ['by a hidden author', 'GET', '/post/findMany', { orderBy: { author: { name: 'asc' } } }, /"author\.name" of Post .* User records/],
    ['through a hidden author', 'GET', '/post/findMany', { where: { id: { in: [1, 4] } }, orderBy: { author: { profile: { gender: 'asc' } } } }, /"author\.profile\.gender" of Post .* User records/],
    ['to a hidden profile from the side without the key', 'GET', '/post/findMany', { where: { authorId: { in: [2, 1] } }, orderBy: { author: { profile: { gender: 'asc' } } } }, /"author\.profile\.gender" of Post .* Profile records/],
    ['in a nested read', 'GET', '/topic/findMany', { include: { posts: { orderBy: { blog: { name: 'asc' } } } } }, /"blog\.name" of Post/],
    ['in a nested read of one record', 'GET', '/user/findUnique', { where: { id: 1 }, select: { posts: { orderBy: { blog: { name: 'asc' } } } } }, /"blog\.name" of Post/],
    ['in a sequential transaction', 'POST', '/$transaction/sequential', [{ model: 'post', op: 'findMany', args: { orderBy: { blog: { name: 'asc' } } } }], /"blog\.name" of Post/],
    // refused whatever the rows: the write may link rows to hidden records, which a check before it cannot see
    ['in the result of a write', 'PUT', '/user/update', { where: { id: 1 }, data: { name: 'ann' }, include: { posts: { orderBy: { blog: { name: 'asc' } } } } }, /"blog\.name" of Post in the result of update is not supported/],
];

describe('an order through a hidden record answers the same whatever its value', () => {
    it.each(probes)('%s', async (_name, method, path, args, message) => {
        const answers: Res[] = [];
        for (const low of [true, false]) {
            await setSecrets(s, low);
            answers.push(await rpc(path, args, READER, method));
        }
        expect(answers[0].text).toEqual(answers[1].text);
        expect(answers[0].status).toBe(400);
        expect(answers[0].body.error.message).toMatch(message);
    });
});

describe('orders that look at no hidden record stay', () => {
    beforeAll(() => setSecrets(s, false));

    it('when the filter leaves out the rows with hidden records, or keeps them to readable ones', async () => {
        // rows without a blog are fine (post 5), SQLite places nulls first
        expect(ids(await rpc('/post/findMany', { where: { id: { in: [1, 3, 5] } }, orderBy: { blog: { name: 'desc' } } }))).toEqual([3, 1, 5]);
        expect(ids(await rpc('/post/findMany', { where: { blog: { name: { not: 'x' } } }, orderBy: { blog: { rank: 'desc' } } }))).toEqual([3, 1]);
        expect(ids(await rpc('/note/findMany', { where: { id: { not: 2 } }, orderBy: { blog: { name: 'desc' } } }))).toEqual([3, 1]);
        expect(ids(await rpc('/post/findMany', { where: { authorId: 1 }, orderBy: [{ author: { profile: { gender: 'asc' } } }, { id: 'desc' }] }))).toEqual([2, 1]);
    });

    it('by the field the foreign key holds, and through a model everyone reads', async () => {
        expect(ids(await rpc('/post/findMany', { orderBy: [{ blog: { id: 'desc' } }, { id: 'asc' }] }))).toEqual([3, 2, 1, 4, 5]);
        expect((await rpc('/post/findMany', { orderBy: { topic: { name: 'asc' } } })).status).toBe(200);
        expect((await rpc('/user/update', { where: { id: 1 }, data: { name: 'ann' }, include: { posts: { orderBy: { topic: { name: 'asc' } } } } }, READER, 'PUT')).status).toBe(200);
    });

    it('in a nested read, over the related rows of the parents read only', async () => {
        // bea's only post has a readable blog; ann's post 2 (hidden blog) is no row of this read
        const bea = await rpc('/user/findUnique', { where: { id: 2 }, select: { posts: { orderBy: { blog: { name: 'asc' } }, select: { id: true } } } });
        expect(bea.status).toBe(200);
        expect(bea.body.data).toEqual({ posts: [{ id: 3 }] });
        const many = await rpc('/user/findMany', { where: { name: { in: ['bea'] } }, include: { posts: { orderBy: { blog: { name: 'asc' } } } } });
        expect(many.status).toBe(200);
        // two levels down: blog 3's posts' authors' posts (bea's), and through a to-one parent
        const deep = { where: { id: 3 }, include: { posts: { include: { author: { include: { posts: { orderBy: { blog: { name: 'asc' } } } } } } } } };
        expect((await rpc('/blog/findMany', deep)).status).toBe(200);
        // blog 1's post is ann's, who has a post with the hidden blog: refused, whatever the hidden name
        const refused: Res[] = [];
        for (const low of [true, false]) {
            await setSecrets(s, low);
            refused.push(await rpc('/blog/findMany', { ...deep, where: { id: 1 } }));
        }
        expect(refused[0].status).toBe(400);
        expect(refused[0].text).toEqual(refused[1].text);
        // a parent the user cannot read has no rows to sort: null, as for a missing one
        expect((await rpc('/user/findUnique', { where: { id: 3 }, include: { posts: { orderBy: { author: { profile: { gender: 'asc' } } } } } })).body).toEqual({ data: null });
        // the relation back to the parent, ordered through, is the parent itself (readable)
        expect((await rpc('/user/findUnique', { where: { id: 1 }, include: { posts: { orderBy: { author: { name: 'asc' } } } } })).status).toBe(200);
    });

    it('for a user who may read every record it looks at', async () => {
        expect(ids(await rpc('/post/findMany', { orderBy: [{ blog: { name: 'asc' } }, { id: 'asc' }] }, ADMIN))).toEqual([4, 5, 1, 3, 2]);
        expect(ids(await rpc('/post/findMany', { orderBy: [{ author: { profile: { gender: 'desc' } } }, { id: 'asc' }] }, ADMIN))).toEqual([3, 4, 1, 2, 5]);
    });
});
