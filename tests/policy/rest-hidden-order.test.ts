import { RestApiHandler } from '../../src/api/rest';
import type { TestSchema } from '../support/schema';
import { ADMIN, loadHiddenOrderSchema, READER, setSecrets } from './hidden-order-fixture';
import type { Res } from './rpc-call';

/**
 * The JSON:API side of `rpc-hidden-order.test.ts`: `sort` through to-one relationships to records the user may not
 * read is a 400 `invalid-sort` whenever a resource it sorts (of the collection, or of one parent's relationship)
 * has such a record on the way, and sorts as before otherwise.
 */

let s: TestSchema;
const handler = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadHiddenOrderSchema();
});

afterAll(async () => {
    await s.cleanup();
});

async function get(path: string, query: Record<string, string>, user: Record<string, unknown> = READER): Promise<Res> {
    const res = await handler({ method: 'GET', path, query, prisma: s.enhance(user), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}

const ids = (res: Res) => (res.body.data as Array<{ id: number }>).map((r) => r.id);

type Probe = [path: string, query: Record<string, string>, detail: RegExp];

const probes: Probe[] = [
    ['/post', { sort: 'blog.name' }, /^sort "blog\.name": it would order post resources by Blog records the user may not read$/],
    ['/post', { sort: '-blog.rank' }, /sort "blog\.rank"/],
    ['/post', { sort: '-blog.name', 'page[limit]': '2' }, /sort "blog\.name"/],
    ['/post', { sort: '-author.name' }, /sort "author\.name": .* User records/],
    ['/post', { sort: 'author.profile.gender', 'filter[id]': '1,4' }, /sort "author\.profile\.gender": .* User records/],
    ['/post', { sort: 'author.profile.gender', 'filter[author]': '1,2' }, /sort "author\.profile\.gender": .* Profile records/],
    ['/note', { sort: 'blog.name' }, /sort "blog\.name": it would order note resources/],
    ['/user/1/posts', { sort: 'blog.name' }, /sort "blog\.name"/],
    ['/user/1/relationships/posts', { sort: '-blog.name' }, /sort "blog\.name"/],
    ['/topic/1/posts', { sort: '-blog.rank', 'page[limit]': '1' }, /sort "blog\.rank"/],
];

describe('a sort through a hidden record answers the same whatever its value', () => {
    it.each(probes)('%s %j', async (path, query, detail) => {
        const answers: Res[] = [];
        for (const low of [true, false]) {
            await setSecrets(s, low);
            answers.push(await get(path, query));
        }
        expect(answers[0].text).toEqual(answers[1].text);
        expect(answers[0].status).toBe(400);
        expect(answers[0].body.errors[0]).toMatchObject({ code: 'invalid-sort', source: { parameter: 'sort' } });
        expect(answers[0].body.errors[0].detail).toMatch(detail);
    });
});

describe('sorts that look at no hidden record stay', () => {
    beforeAll(() => setSecrets(s, false));

    it('when the filter leaves out the resources with hidden records', async () => {
        expect(ids(await get('/post', { sort: '-blog.name', 'filter[id]': '1,3,5' }))).toEqual([3, 1, 5]);
        expect(ids(await get('/post', { sort: '-author.name', 'filter[author]': '1,2' }))).toEqual([3, 1, 2]);
        expect(ids(await get('/note', { sort: '-blog.name', 'filter[blog]': '1,3' }))).toEqual([3, 1]);
        expect(ids(await get('/post', { sort: 'author.profile.gender,-id', 'filter[author]': '1' }))).toEqual([2, 1]);
    });

    it("of one parent's relationship, whatever the other resources link to", async () => {
        // user 2's only post is in blog 3; user 1's post 2 is in the hidden blog
        expect(ids(await get('/user/2/posts', { sort: 'blog.name' }))).toEqual([3]);
        expect(ids(await get('/user/2/relationships/posts', { sort: '-blog.rank' }))).toEqual([3]);
    });

    it('by a to-one relationship itself (its id, which the foreign key holds) and through a model everyone reads', async () => {
        expect(ids(await get('/post', { sort: '-blog' }))).toEqual([3, 2, 1, 4, 5]);
        expect(ids(await get('/post', { sort: 'topic.name,-id' }))).toEqual([5, 4, 3, 2, 1]);
    });

    it('for a user who may read every record it looks at', async () => {
        expect(ids(await get('/post', { sort: 'blog.name' }, ADMIN))).toEqual([4, 5, 1, 3, 2]);
    });

    it('a hidden parent stays a 404, as without the sort', async () => {
        const res = await get('/user/3/posts', { sort: 'blog.name' });
        expect([res.status, res.body.errors[0].code]).toEqual([404, 'not-found']);
    });
});
