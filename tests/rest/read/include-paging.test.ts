import { at, blogApi, makeApi, type Api } from './support';

/**
 * An included to-many relationship shows at most `pageSize` members. When it has more, its relationship object says
 * so with pagination links to the relationship data (JSON:API 1.1: a to-many relationship object may carry
 * pagination links, which paginate the relationship data): a linkage cut short without them reads as the whole
 * relationship, and a client sending it back in a PATCH would detach the members it never saw.
 */
describe('included to-many relationships longer than pageSize', () => {
    let api: Api;
    let small: Api;
    beforeAll(async () => {
        api = await blogApi();
        // Alice: posts 1, 2 and 6
        await api.s.prisma.post.create({ data: { id: 6, title: 'Third of Alice', authorId: 1 } });
        small = makeApi(api.s, { pageSize: 2 });
    });
    afterAll(() => api.s.cleanup());

    it('carry first and next links to the relationship data, and include only the members shown', async () => {
        const body = small.body(await small.get('/user/1', { include: 'posts' }));
        const posts = body.data.relationships.posts;
        expect(posts.data).toEqual([
            { type: 'post', id: 1 },
            { type: 'post', id: 2 },
        ]);
        expect(posts.links).toEqual({
            self: at('/user/1/relationships/posts'),
            related: at('/user/1/posts'),
            first: at('/user/1/relationships/posts?page[limit]=2'),
            next: at('/user/1/relationships/posts?page[offset]=2&page[limit]=2'),
        });
        expect(body.included.map((r: { id: number }) => r.id)).toEqual([1, 2]);
        const next = small.body(await small.get('/user/1/relationships/posts', { 'page[offset]': '2', 'page[limit]': '2' }));
        expect(next.data).toEqual([{ type: 'post', id: 6 }]);
    });

    it('in included resources and collections too', async () => {
        const body = small.body(await small.get('/post', { include: 'author.posts', 'page[limit]': '1' }));
        const alice = body.included.find((r: { type: string; id: number }) => r.type === 'user' && r.id === 1);
        expect(alice.relationships.posts.data).toHaveLength(2);
        expect(alice.relationships.posts.links.next).toBe(at('/user/1/relationships/posts?page[offset]=2&page[limit]=2'));
        expect(body.included.filter((r: { type: string }) => r.type === 'post').map((r: { id: number }) => r.id)).toEqual([2]);
    });

    it('a relationship with exactly pageSize members, or fewer, has no pagination links', async () => {
        const three = makeApi(api.s, { pageSize: 3 });
        const exact = three.body(await three.get('/user/1', { include: 'posts' }));
        expect(exact.data.relationships.posts.data).toHaveLength(3);
        expect(Object.keys(exact.data.relationships.posts.links)).toEqual(['self', 'related']);
        const all = api.body(await api.get('/user/1', { include: 'posts' }));
        expect(all.data.relationships.posts.data).toHaveLength(3);
        expect(Object.keys(all.data.relationships.posts.links)).toEqual(['self', 'related']);
    });
});

describe('maxIncludedRecords follows a large pageSize', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    it('a default page of 1000 with a shared to-many relationship included passes; a second to-many level below it does not', async () => {
        // pageSize 1000: 1000 × (1 + 1001) = 1,002,000 records at worst (the posts' authors and their posts), within 1000 × 1004
        const big = makeApi(api.s, { pageSize: 1000 });
        expect((await big.get('/post', { include: 'author.posts,comments' })).status).toBe(200);
        const refused = await big.get('/post', { include: 'comments.post.comments' });
        expect(refused.status).toBe(400);
        expect(big.body(refused).errors[0]).toMatchObject({ code: 'invalid-include', detail: expect.stringMatching(/the limit is 1004000 \(see the "maxIncludedRecords" option\)/) });
    });
});
