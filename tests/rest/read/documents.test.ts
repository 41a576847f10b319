import { at, blogApi, day, JSONAPI, rels, type Api } from './support';

/** Exact documents of every read endpoint on the seeded blog (as Alice, user 1). */

const TITLES: Record<number, [string, boolean, number, number | null]> = {
    1: ['Hello World', true, 10, 1],
    2: ['Draft of Alice', false, 0, 1],
    3: ['Bob on Prisma', true, 5, 2],
    5: ['Orphan news', true, 20, null],
};

function post(id: number) {
    const [title, published, viewCount, authorId] = TITLES[id];
    return {
        type: 'post',
        id,
        attributes: { createdAt: day(id).toISOString(), title, published, viewCount, authorId },
        relationships: rels('post', id, { author: authorId === null ? null : { type: 'user', id: authorId }, comments: undefined }),
        links: { self: at(`/post/${id}`) },
    };
}

const alice = {
    type: 'user',
    id: 1,
    attributes: { email: 'alice@example.com', name: 'Alice', role: 'ADMIN' },
    relationships: rels('user', 1, { posts: undefined, profile: { type: 'profile', id: 1 }, allTypes: undefined }),
    links: { self: at('/user/1') },
};

describe('REST read documents', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    it('lists a collection with meta.total, serialization metadata and pagination links', async () => {
        const res = await api.get('/post');
        expect(res.status).toBe(200);
        expect(res.headers).toEqual({ 'content-type': 'application/vnd.api+json' });
        expect(api.body(res)).toEqual({
            data: [post(1), post(2), post(3), post(5)],
            meta: {
                total: 4,
                serialization: {
                    values: {
                        'data.0.attributes.createdAt': ['Date'],
                        'data.1.attributes.createdAt': ['Date'],
                        'data.2.attributes.createdAt': ['Date'],
                        'data.3.attributes.createdAt': ['Date'],
                    },
                },
            },
            links: {
                self: at('/post'),
                first: at('/post?page[limit]=100'),
                last: at('/post?page[offset]=0'),
                prev: null,
                next: null,
            },
            jsonapi: JSONAPI,
        });
    });

    it('fetches a single resource', async () => {
        const res = await api.get('/post/1');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({
            data: post(1),
            meta: { serialization: { values: { 'data.attributes.createdAt': ['Date'] } } },
            links: { self: at('/post/1') },
            jsonapi: JSONAPI,
        });
    });

    it('accepts ids as written in any integer form', async () => {
        const res = await api.get('/post/001');
        expect(res.status).toBe(200);
        expect(api.body(res).data).toEqual(post(1));
    });

    it('sends no meta at all when nothing needs tagging', async () => {
        const res = await api.get('/user/1');
        expect(api.body(res)).toEqual({ data: alice, links: { self: at('/user/1') }, jsonapi: JSONAPI });
    });

    it('fetches a to-one related resource', async () => {
        const res = await api.get('/post/1/author');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({ data: alice, links: { self: at('/post/1/author') }, jsonapi: JSONAPI });
    });

    it('answers null data for an empty to-one relationship', async () => {
        expect(api.body(await api.get('/post/5/author'))).toEqual({ data: null, links: { self: at('/post/5/author') }, jsonapi: JSONAPI });
        expect(api.body(await api.get('/user/3/profile'))).toEqual({ data: null, links: { self: at('/user/3/profile') }, jsonapi: JSONAPI });
    });

    it('fetches to-many related resources as a paginated collection', async () => {
        const res = await api.get('/user/1/posts');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({
            data: [post(1), post(2)],
            meta: { total: 2, serialization: { values: { 'data.0.attributes.createdAt': ['Date'], 'data.1.attributes.createdAt': ['Date'] } } },
            links: {
                self: at('/user/1/posts'),
                first: at('/user/1/posts?page[limit]=100'),
                last: at('/user/1/posts?page[offset]=0'),
                prev: null,
                next: null,
            },
            jsonapi: JSONAPI,
        });
    });

    it('fetches a to-one relationship (owner side: from the foreign key)', async () => {
        const res = await api.get('/post/1/relationships/author');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({
            data: { type: 'user', id: 1 },
            links: { self: at('/post/1/relationships/author'), related: at('/post/1/author') },
            jsonapi: JSONAPI,
        });
        expect(api.body(await api.get('/post/5/relationships/author')).data).toBeNull();
    });

    it('fetches a to-one relationship from the non-owner side', async () => {
        expect(api.body(await api.get('/user/2/relationships/profile'))).toEqual({
            data: { type: 'profile', id: 2 },
            links: { self: at('/user/2/relationships/profile'), related: at('/user/2/profile') },
            jsonapi: JSONAPI,
        });
        expect(api.body(await api.get('/user/3/relationships/profile')).data).toBeNull();
    });

    it('fetches a to-many relationship with meta.total and pagination links', async () => {
        const res = await api.get('/post/1/relationships/comments');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({
            data: [
                { type: 'comment', id: 1 },
                { type: 'comment', id: 2 },
            ],
            meta: { total: 2 },
            links: {
                self: at('/post/1/relationships/comments'),
                related: at('/post/1/comments'),
                first: at('/post/1/relationships/comments?page[limit]=100'),
                last: at('/post/1/relationships/comments?page[offset]=0'),
                prev: null,
                next: null,
            },
            jsonapi: JSONAPI,
        });
    });

    it('answers an empty to-many relationship with an empty array', async () => {
        const body = api.body(await api.get('/user/3/relationships/posts'));
        expect(body.data).toEqual([]);
        expect(body.meta).toEqual({ total: 0 });
        expect(body.links.last).toBe(at('/user/3/relationships/posts?page[offset]=0'));
    });

    it('addresses a related resource by id within a to-many relationship', async () => {
        const res = await api.get('/user/1/posts/2');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({
            data: post(2),
            meta: { serialization: { values: { 'data.attributes.createdAt': ['Date'] } } },
            links: { self: at('/user/1/posts/2') },
            jsonapi: JSONAPI,
        });
        const other = await api.get('/user/1/posts/3');
        expect(other.status).toBe(404);
        expect(api.body(other).errors[0].code).toBe('not-found');
    });

    it('addresses a related resource by id within a to-one relationship (the spec\'s to-one links)', async () => {
        const res = await api.get('/post/1/author/1');
        expect(res.status).toBe(200);
        expect(api.body(res)).toEqual({ data: alice, links: { self: at('/post/1/author/1') }, jsonapi: JSONAPI });
        expect((await api.get('/post/1/author/2')).status).toBe(404);
        expect((await api.get('/post/5/author/1')).status).toBe(404);
    });

    it('keeps integer ids as numbers and string ids as strings', async () => {
        await api.s.prisma.allTypes.create({ data: { id: 'abc', ownerId: 1 } });
        const body = api.body(await api.get('/allTypes/abc'));
        expect(body.data.id).toBe('abc');
        expect(body.data.relationships.owner.data).toEqual({ type: 'user', id: 1 });
        expect(body.data.links.self).toBe(at('/allTypes/abc'));
    });
});
