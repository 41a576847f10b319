import { blogApi, makeApi, type Api, type Query, type User } from './support';

/**
 * Reads go through the policy client only: what a user cannot read is absent from lists, counts,
 * included resources and related fetches, and fetching it by id is a 404 that reveals nothing.
 */

describe('REST reads under access policies', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    async function read(path: string, query: Query, user: User) {
        const res = await api.get(path, query, user);
        return { status: res.status, body: api.body(res) };
    }
    const ids = (body: { data: Array<{ id: number }> }) => body.data.map((r) => r.id);
    const keys = (list: Array<{ type: string; id: number }>) => list.map((r) => `${r.type}:${r.id}`);

    it('lists and counts only readable records', async () => {
        const anon = await read('/post', {}, null);
        expect([ids(anon.body), anon.body.meta.total]).toEqual([[1, 3, 5], 3]);
        const bob = await read('/post', {}, 2);
        expect([ids(bob.body), bob.body.meta.total]).toEqual([[1, 3, 4, 5], 4]);
        const users = await read('/user', {}, null);
        expect([users.body.data, users.body.meta.total]).toEqual([[], 0]);
    });

    it('counts under the policy when the count query runs (full pages)', async () => {
        const paged = makeApi(api.s, { pageSize: 1 });
        const res = paged.body(await paged.get('/post', {}, 2));
        expect([ids(res), res.meta.total, res.links.last]).toEqual([[1], 4, 'http://localhost/api/post?page[offset]=3']);
        const rel = paged.body(await paged.get('/user/1/relationships/posts', {}, 2));
        expect([rel.data, rel.meta.total]).toEqual([[{ type: 'post', id: 1 }], 1]);
        const comments = paged.body(await paged.get('/comment', {}, 2));
        expect(comments.meta.total).toBe(3);
    });

    it('answers 404 (not 403) for a record the user cannot read', async () => {
        for (const [path, user] of [
            ['/post/2', 2],
            ['/post/2', null],
            ['/user/1', null],
            ['/comment/4', 2],
        ] as Array<[string, User]>) {
            const res = await read(path, {}, user);
            expect([path, res.status, res.body.errors[0].code]).toEqual([path, 404, 'not-found']);
        }
        // exactly the answer for an id that does not exist
        const hidden = await read('/post/2', {}, 2);
        const missing = await read('/post/99', {}, 2);
        expect(hidden.body.errors[0].detail.replace('2', 'N')).toBe(missing.body.errors[0].detail.replace('99', 'N'));
    });

    it('hides unreadable parents of related fetches and relationships', async () => {
        for (const path of ['/post/2/comments', '/post/2/relationships/comments', '/post/2/author', '/post/2/relationships/author', '/post/2/comments/4']) {
            expect([path, (await read(path, {}, 2)).status]).toEqual([path, 404]);
        }
        expect((await read('/user/1/posts', {}, null)).status).toBe(404);
    });

    it('hides unreadable related records in related fetches', async () => {
        const posts = await read('/user/1/posts', {}, 2);
        expect([ids(posts.body), posts.body.meta.total]).toEqual([[1], 1]);
        expect((await read('/user/1/posts/2', {}, 2)).status).toBe(404);
        expect((await read('/user/1/posts/2', {}, 1)).status).toBe(200);
        // the author of a published post is not readable anonymously
        const author = await read('/post/1/author', {}, null);
        expect([author.status, author.body.data]).toEqual([200, null]);
        expect((await read('/post/1/author/1', {}, null)).status).toBe(404);
    });

    it('never includes what the user cannot read', async () => {
        const bob = await read('/user', { include: 'posts.comments' }, 2);
        expect(keys(bob.body.included)).toEqual(['post:1', 'post:3', 'post:4', 'comment:1', 'comment:2', 'comment:3']);
        expect(bob.body.data[0].relationships.posts.data).toEqual([{ type: 'post', id: 1 }]);
        const anon = await read('/post', { include: 'author,comments' }, null);
        expect(keys(anon.body.included)).toEqual(['comment:1', 'comment:2', 'comment:3']);
        const alice = await read('/post', { include: 'comments' }, 1);
        expect(keys(alice.body.included)).toEqual(['comment:1', 'comment:2', 'comment:4', 'comment:3']);
    });

    it('gives the same answers to the same user on every endpoint', async () => {
        const list = await read('/comment', {}, 2);
        const viaPosts = await Promise.all([1, 3, 4, 5].map((id) => read(`/post/${id}/relationships/comments`, {}, 2)));
        const fromRelationships = viaPosts.flatMap((r) => r.body.data.map((d: { id: number }) => d.id)).sort();
        expect(ids(list.body)).toEqual(fromRelationships);
    });
});
