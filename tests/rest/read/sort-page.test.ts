import { loadSchema } from '../../support/schema';
import { at, blogApi, makeApi, type Api, type Query } from './support';

/** sort=… and page[offset]/page[limit] with the exact pagination links of the spec. */

const idsOf = (body: { data: Array<{ id: number }> }) => body.data.map((r) => r.id);

describe('REST sorting', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    async function sorted(path: string, query: Query): Promise<number[]> {
        const res = await api.get(path, query);
        expect(res.status).toBe(200);
        return idsOf(api.body(res));
    }

    it.each<[Query, number[]]>([
        [{}, [1, 2, 3, 5]],
        [{ sort: 'viewCount' }, [2, 3, 1, 5]],
        [{ sort: '-viewCount' }, [5, 1, 3, 2]],
        [{ sort: 'published,-viewCount' }, [2, 5, 1, 3]],
        [{ sort: '-createdAt' }, [5, 3, 2, 1]],
        [{ sort: '-id' }, [5, 3, 2, 1]],
        [{ sort: 'title' }, [3, 2, 1, 5]],
        [{ sort: '-author.name', 'filter[authorId$isNull]': 'false' }, [3, 1, 2]],
        [{ sort: 'author.profile.gender,-id', 'filter[authorId$isNull]': 'false' }, [2, 1, 3]],
        // a to-one relationship itself sorts by the id of the resource it links to, as 2.x does
        [{ sort: '-author', 'filter[authorId$isNull]': 'false' }, [3, 1, 2]],
        [{ sort: 'author,-id', 'filter[authorId$isNull]': 'false' }, [2, 1, 3]],
    ])('/post %j → %j', async (query, expected) => {
        expect(await sorted('/post', query)).toEqual(expected);
    });

    it('sorts by a to-one relationship from the side without the foreign key (by the related id)', async () => {
        // users 1 and 2 have profiles 1 and 2; user 3 has none (SQLite orders NULL first)
        expect(await sorted('/user', { sort: '-profile' })).toEqual([2, 1, 3]);
        expect(await sorted('/user', { sort: 'profile' })).toEqual([3, 1, 2]);
    });

    it('sorts related collections and relationships', async () => {
        expect(await sorted('/user/1/posts', { sort: '-id' })).toEqual([2, 1]);
        expect(await sorted('/user/1/relationships/posts', { sort: '-viewCount' })).toEqual([1, 2]);
        expect(await sorted('/comment', { sort: '-post.viewCount,id' })).toEqual([1, 2, 3, 4]);
        // as many relationships as a filter path may go through (maxIncludeDepth, 4)
        expect((await api.get('/comment', { sort: 'post.author.profile.user.name' })).status).toBe(200);
    });

    it.each<[string, RegExp]>([
        ['nope', /"nope" in sort "nope" is not a field of "post"/],
        ['-nope', /"nope" in sort "-nope" is not a field of "post"/],
        ['comments.content', /to-many relationship/],
        ['comments', /to-many relationship/],
        ['title.length', /"title" is not a relationship/],
        ['author.nope', /"nope" in sort "author.nope" is not a field of "user"/],
        ['title,', /empty field name/],
        ['author.profile.user.profile.user.name', /goes through 5 relationships; the limit is 4 \(maxIncludeDepth\)/],
    ])('sort=%s → 400 invalid-sort', async (sort, detail) => {
        const res = await api.get('/post', { sort });
        expect(res.status).toBe(400);
        expect(api.body(res).errors[0]).toMatchObject({ status: 400, code: 'invalid-sort', detail: expect.stringMatching(detail), source: { parameter: 'sort' } });
    });

    it('refuses to sort by Json and Bytes fields', async () => {
        for (const sort of ['json', '-bytes']) {
            const res = await api.get('/allTypes', { sort });
            expect(api.body(res).errors[0]).toMatchObject({ status: 400, code: 'invalid-sort' });
        }
    });
});

describe('REST pagination', () => {
    let api: Api;
    let small: Api;
    beforeAll(async () => {
        const s = await loadSchema();
        for (let i = 1; i <= 7; i++) {
            await s.prisma.user.create({ data: { id: i, email: `u${i}@example.com`, role: i % 2 ? 'USER' : 'ADMIN' } });
        }
        await s.prisma.post.createMany({ data: [1, 2, 3].map((id) => ({ id, title: `p${id}`, published: true, authorId: 1 })) });
        api = makeApi(s);
        small = makeApi(s, { pageSize: 3 });
    });
    afterAll(() => api.s.cleanup());

    async function page(a: Api, path: string, query: Query) {
        const res = await a.get(path, query);
        const body = a.body(res);
        expect(res.status).toBe(200);
        return { ids: idsOf(body), total: body.meta.total, links: body.links };
    }

    it('first page with the pageSize option', async () => {
        expect(await page(small, '/user', {})).toEqual({
            ids: [1, 2, 3],
            total: 7,
            links: {
                self: at('/user'),
                first: at('/user?page[limit]=3'),
                last: at('/user?page[offset]=6'),
                prev: null,
                next: at('/user?page[offset]=3&page[limit]=3'),
            },
        });
    });

    it('middle page', async () => {
        expect(await page(small, '/user', { 'page[offset]': '3' })).toEqual({
            ids: [4, 5, 6],
            total: 7,
            links: {
                self: at('/user?page[offset]=3'),
                first: at('/user?page[limit]=3'),
                last: at('/user?page[offset]=6'),
                prev: at('/user?page[offset]=0&page[limit]=3'),
                next: at('/user?page[offset]=6&page[limit]=3'),
            },
        });
    });

    it('last page', async () => {
        expect(await page(small, '/user', { 'page[offset]': '6' })).toEqual({
            ids: [7],
            total: 7,
            links: {
                self: at('/user?page[offset]=6'),
                first: at('/user?page[limit]=3'),
                last: at('/user?page[offset]=6'),
                prev: at('/user?page[offset]=3&page[limit]=3'),
                next: null,
            },
        });
    });

    it('explicit page[limit]: last carries it too', async () => {
        expect(await page(api, '/user', { 'page[offset]': '2', 'page[limit]': '2' })).toEqual({
            ids: [3, 4],
            total: 7,
            links: {
                self: at('/user?page[offset]=2&page[limit]=2'),
                first: at('/user?page[limit]=2'),
                last: at('/user?page[offset]=6&page[limit]=2'),
                prev: at('/user?page[offset]=0&page[limit]=2'),
                next: at('/user?page[offset]=4&page[limit]=2'),
            },
        });
    });

    it('an offset that is not a multiple of the limit', async () => {
        const { ids, links } = await page(api, '/user', { 'page[offset]': '1', 'page[limit]': '3' });
        expect(ids).toEqual([2, 3, 4]);
        expect(links.prev).toBe(at('/user?page[offset]=0&page[limit]=3'));
        expect(links.next).toBe(at('/user?page[offset]=4&page[limit]=3'));
    });

    it('every link keeps the other parameters', async () => {
        const query = { sort: '-id', 'filter[role]': 'USER', include: 'profile', 'fields[user]': 'email', 'page[limit]': '2' };
        const keep = 'sort=-id&filter[role]=USER&include=profile&fields[user]=email';
        expect(await page(api, '/user', query)).toEqual({
            ids: [7, 5],
            total: 4,
            links: {
                self: at(`/user?${keep}&page[limit]=2`),
                first: at(`/user?${keep}&page[limit]=2`),
                last: at(`/user?${keep}&page[offset]=2&page[limit]=2`),
                prev: null,
                next: at(`/user?${keep}&page[offset]=2&page[limit]=2`),
            },
        });
    });

    it('encodes parameter values in links', async () => {
        const { links } = await page(api, '/user', { 'filter[email]': 'a b&c=d', 'page[limit]': '1' });
        expect(links.first).toBe(at('/user?filter[email]=a%20b%26c%3Dd&page[limit]=1'));
    });

    it('zero results: last is offset 0, never negative', async () => {
        expect(await page(small, '/user', { 'filter[email]': 'nobody' })).toEqual({
            ids: [],
            total: 0,
            links: {
                self: at('/user?filter[email]=nobody'),
                first: at('/user?filter[email]=nobody&page[limit]=3'),
                last: at('/user?filter[email]=nobody&page[offset]=0'),
                prev: null,
                next: null,
            },
        });
    });

    it('an offset past the end still counts the total', async () => {
        const { ids, total, links } = await page(small, '/user', { 'page[offset]': '10' });
        expect([ids, total, links.next, links.last]).toEqual([[], 7, null, at('/user?page[offset]=6')]);
        expect(links.prev).toBe(at('/user?page[offset]=7&page[limit]=3'));
    });

    it('pageSize Infinity disables pagination; page[limit] still works', async () => {
        const unlimited = makeApi(api.s, { pageSize: Infinity });
        expect(await page(unlimited, '/user', {})).toEqual({
            ids: [1, 2, 3, 4, 5, 6, 7],
            total: 7,
            links: { self: at('/user'), first: at('/user'), last: at('/user'), prev: null, next: null },
        });
        const limited = await page(unlimited, '/user', { 'page[limit]': '5' });
        expect([limited.ids, limited.total, limited.links.next]).toEqual([[1, 2, 3, 4, 5], 7, at('/user?page[offset]=5&page[limit]=5')]);
        const offset = await page(unlimited, '/user', { 'page[offset]': '5' });
        expect([offset.ids, offset.total, offset.links.prev]).toEqual([[6, 7], 7, at('/user')]);
    });

    it('paginates related collections and relationships with their own links', async () => {
        const one = makeApi(api.s, { pageSize: 1 });
        expect(await page(one, '/user/1/posts', { 'page[offset]': '1' })).toEqual({
            ids: [2],
            total: 3,
            links: {
                self: at('/user/1/posts?page[offset]=1'),
                first: at('/user/1/posts?page[limit]=1'),
                last: at('/user/1/posts?page[offset]=2'),
                prev: at('/user/1/posts?page[offset]=0&page[limit]=1'),
                next: at('/user/1/posts?page[offset]=2&page[limit]=1'),
            },
        });
        const rel = await page(api, '/user/1/relationships/posts', { 'page[limit]': '2' });
        expect(rel).toEqual({
            ids: [1, 2],
            total: 3,
            links: {
                self: at('/user/1/relationships/posts?page[limit]=2'),
                related: at('/user/1/posts'),
                first: at('/user/1/relationships/posts?page[limit]=2'),
                last: at('/user/1/relationships/posts?page[offset]=2&page[limit]=2'),
                prev: null,
                next: at('/user/1/relationships/posts?page[offset]=2&page[limit]=2'),
            },
        });
    });

    it.each<[Query, string, RegExp]>([
        [{ 'page[offset]': '-1' }, 'page[offset]', /non-negative integer/],
        [{ 'page[offset]': 'x' }, 'page[offset]', /non-negative integer/],
        [{ 'page[limit]': '1.5' }, 'page[limit]', /non-negative integer/],
        [{ 'page[limit]': '0' }, 'page[limit]', /at least 1/],
        [{ 'page[limit]': '1001' }, 'page[limit]', /must not exceed 1000/],
        // Prisma reads skip modulo 2^32: this offset answered the page starting at row 1
        [{ 'page[offset]': String(2 ** 32 + 1) }, 'page[offset]', /must not exceed 2147483647/],
        [{ 'page[offset]': '2147483648' }, 'page[offset]', /must not exceed 2147483647/],
        [{ 'page[size]': '2' }, 'page[size]', /unsupported page parameter/],
        [{ 'page[offset]': ['1', '2'] }, 'page[offset]', /more than once/],
    ])('%j → 400 invalid-page', async (query, parameter, detail) => {
        const res = await api.get('/user', query);
        expect(res.status).toBe(400);
        expect(api.body(res).errors[0]).toMatchObject({ code: 'invalid-page', detail: expect.stringMatching(detail), source: { parameter } });
    });

    it('the largest offset Prisma takes as it is answers an empty page, on collections and relationships', async () => {
        for (const path of ['/user', '/user/1/posts', '/user/1/relationships/posts']) {
            const res = await api.get(path, { 'page[offset]': '2147483647' });
            expect([path, res.status, api.body(res).data]).toEqual([path, 200, []]);
        }
        const related = await api.get('/user/1/posts', { 'page[offset]': String(2 ** 32 + 1) });
        expect(api.body(related).errors[0]).toMatchObject({ status: 400, code: 'invalid-page', source: { parameter: 'page[offset]' } });
    });

    it('a maxPageSize below the default page size makes it the default: every pagination link of the answer is one the handler takes', async () => {
        const capped = makeApi(api.s, { maxPageSize: 2 });
        const res = await capped.get('/user');
        const body = capped.body(res);
        expect([res.status, body.data.length, body.meta.total > 2]).toEqual([200, 2, true]);
        for (const name of ['first', 'last', 'next']) {
            const url = new URL(body.links[name]);
            const followed = await capped.get(url.pathname.slice('/api'.length), Object.fromEntries(url.searchParams));
            expect([name, followed.status]).toEqual([name, 200]);
        }
    });

    it('honours maxPageSize', async () => {
        const capped = makeApi(api.s, { maxPageSize: 5 });
        expect((await capped.get('/user', { 'page[limit]': '5' })).status).toBe(200);
        const res = await capped.get('/user', { 'page[limit]': '6' });
        expect(capped.body(res).errors[0]).toMatchObject({ status: 400, code: 'invalid-page', source: { parameter: 'page[limit]' } });
    });
});
