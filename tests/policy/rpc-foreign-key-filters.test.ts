import type { TestSchema } from '../support/schema';
import { loadHiddenOrderSchema, READER, setSecrets } from './hidden-order-fixture';
import { rpcAs, type Res } from './rpc-call';

/**
 * A to-one relation filter from the side holding the foreign key that names only the referenced fields
 * (`blog: { id: 2 }`, `blog: null`) is the same condition as one on the key the row holds (`blogId`): it reads
 * nothing of the related record, so it stays allowed where ZenStack applies no read rule (under AND/OR/NOT, in
 * a write's filter), where a filter on anything else of a blog the user may not read is a 400. Blog 2 is hidden
 * from the reader; post 2 (readable) points at it.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadHiddenOrderSchema();
});

afterAll(async () => {
    await s.cleanup();
});

const rpc = (method: string, path: string, args: unknown): Promise<Res> => rpcAs(s, READER, method, path, args);
const ids = (res: Res) => [res.status, (res.body.data as Array<{ id: number }>)?.map((r) => r.id)];

describe('filters on the key a row holds, through the relation', () => {
    it('are answered under OR, AND and NOT as the key itself is', async () => {
        const select = { id: true };
        const orderBy = { id: 'asc' };
        expect(ids(await rpc('GET', '/post/findMany', { where: { OR: [{ blog: { id: 2 } }, { title: 'p5' }] }, select, orderBy }))).toEqual([200, [2, 5]]);
        expect(ids(await rpc('GET', '/post/findMany', { where: { OR: [{ blog: { is: { id: { in: [1, 2] } } } }, { title: 'p5' }] }, select, orderBy }))).toEqual([200, [1, 2, 5]]);
        expect(ids(await rpc('GET', '/post/findMany', { where: { OR: [{ blog: null }, { title: 'p1' }] }, select, orderBy }))).toEqual([200, [1, 4, 5]]);
        expect(ids(await rpc('GET', '/post/findMany', { where: { NOT: { blog: { isNot: null } } }, select, orderBy }))).toEqual([200, [4, 5]]);
        const both = await rpc('GET', '/post/count', { where: { AND: [{ blog: { isNot: { id: 3 } } }, { blog: { isNot: null } }] } });
        expect([both.status, both.body.data]).toEqual([200, 2]);
    });

    it('and in the filter of a write', async () => {
        const update = await rpc('PATCH', '/post/update', { where: { id: 2, blog: { id: 2 } }, data: { title: 'p2' }, select: { id: true } });
        expect([update.status, update.body.data]).toEqual([200, { id: 2 }]);
        const many = await rpc('PATCH', '/post/updateMany', { where: { OR: [{ blog: { is: { id: 2 } } }] }, data: { title: 'p2' } });
        expect([many.status, many.body.data]).toEqual([200, { count: 1 }]);
        const nested = await rpc('PATCH', '/topic/update', { where: { id: 1 }, data: { posts: { update: { where: { id: 2, blog: { id: 2 } }, data: { title: 'p2' } } } }, select: { posts: { select: { id: true }, where: { id: 2 } } } });
        expect([nested.status, nested.body.data]).toEqual([200, { posts: [{ id: 2 }] }]);
    });

    it('anything else of the related record stays refused, and answers alike whatever the hidden value', async () => {
        for (const where of [{ OR: [{ blog: { id: 2, name: 'zzz' } }] }, { OR: [{ blog: { is: { name: 'zzz' } } }] }, { OR: [{ blog: { isNot: { rank: 99 } } }] }]) {
            const answers: Res[] = [];
            for (const low of [true, false]) {
                await setSecrets(s, low);
                answers.push(await rpc('GET', '/post/count', { where }));
            }
            expect(answers[0].status).toBe(400);
            expect(answers[0].text).toEqual(answers[1].text);
        }
        const write = await rpc('PATCH', '/post/update', { where: { id: 2, blog: { name: 'zzz' } }, data: { title: 'p2' } });
        expect(write.status).toBe(400);
        // from the side without the key, a relation filter reads the related record
        const back = await rpc('GET', '/user/count', { where: { OR: [{ profile: { id: 2 } }] } });
        expect(back.status).toBe(400);
    });
});
