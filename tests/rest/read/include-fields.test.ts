import { at, blogApi, day, JSONAPI, makeApi, rels, type Api, type Query } from './support';

/** Compound documents (include) and sparse fieldsets (fields[type]). */

const keys = (resources: Array<{ type: string; id: unknown }>) => resources.map((r) => `${r.type}:${r.id}`);

describe('REST include', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    it('builds an exact compound document for a single resource', async () => {
        const res = await api.get('/post/1', { include: 'author,comments' });
        expect(res.status).toBe(200);
        const comment = (id: number, content: string) => ({
            type: 'comment',
            id,
            attributes: { content, postId: 1 },
            relationships: rels('comment', id, { post: { type: 'post', id: 1 } }),
            links: { self: at(`/comment/${id}`) },
        });
        expect(api.body(res)).toEqual({
            data: {
                type: 'post',
                id: 1,
                attributes: { createdAt: day(1).toISOString(), title: 'Hello World', published: true, viewCount: 10, authorId: 1 },
                relationships: rels('post', 1, {
                    author: { type: 'user', id: 1 },
                    comments: [
                        { type: 'comment', id: 1 },
                        { type: 'comment', id: 2 },
                    ],
                }),
                links: { self: at('/post/1') },
            },
            included: [
                {
                    type: 'user',
                    id: 1,
                    attributes: { email: 'alice@example.com', name: 'Alice', role: 'ADMIN' },
                    // included resources: to-one linkage only where the foreign key is here (not for profile)
                    relationships: rels('user', 1, { posts: undefined, profile: undefined, allTypes: undefined }),
                    links: { self: at('/user/1') },
                },
                comment(1, 'Great post'),
                comment(2, 'thanks'),
            ],
            meta: { serialization: { values: { 'data.attributes.createdAt': ['Date'] } } },
            links: { self: at('/post/1?include=author,comments') },
            jsonapi: JSONAPI,
        });
    });

    it('gives a to-one relationship without foreign key here linkage in primary data, and in included resources only when included', async () => {
        const primary = api.body(await api.get('/user/1'));
        expect(primary.data.relationships.profile.data).toEqual({ type: 'profile', id: 1 });
        const linksOnly = api.body(await api.get('/post/1', { include: 'author' }));
        expect(linksOnly.included[0].relationships.profile).toEqual({
            links: { self: at('/user/1/relationships/profile'), related: at('/user/1/profile') },
        });
        const included = api.body(await api.get('/post/1', { include: 'author.profile' }));
        expect(keys(included.included)).toEqual(['user:1', 'profile:1']);
        expect(included.included[0].relationships.profile.data).toEqual({ type: 'profile', id: 1 });
        // the owner side's linkage comes from its foreign key, in included resources too
        expect(included.included[1].relationships.user.data).toEqual({ type: 'user', id: 1 });
    });

    it('includes nested paths once each, never repeating primary data, and only what the user can read', async () => {
        const body = api.body(await api.get('/post', { include: 'author.posts,comments.post' }));
        expect(keys(body.data)).toEqual(['post:1', 'post:2', 'post:3', 'post:5']);
        expect(keys(body.included)).toEqual(['user:1', 'comment:1', 'comment:2', 'comment:4', 'user:2', 'comment:3']);
        const bob = body.included.find((r: { type: string; id: number }) => r.type === 'user' && r.id === 2);
        // Bob's draft (post 4) is not readable by Alice: not linked, not included
        expect(bob.relationships.posts.data).toEqual([{ type: 'post', id: 3 }]);
        expect(body.data[0].relationships.comments.data).toEqual([
            { type: 'comment', id: 1 },
            { type: 'comment', id: 2 },
        ]);
        // included to-many linkage appears on resources met through several paths
        const alice = body.included[0];
        expect(alice.relationships.posts.data).toEqual([
            { type: 'post', id: 1 },
            { type: 'post', id: 2 },
        ]);
    });

    it('tags serialization paths inside included', async () => {
        const body = api.body(await api.get('/comment/3', { include: 'post.author' }));
        expect(keys(body.included)).toEqual(['post:3', 'user:2']);
        expect(body.meta).toEqual({ serialization: { values: { 'included.0.attributes.createdAt': ['Date'] } } });
        expect(body.included[0].attributes.createdAt).toBe(day(3).toISOString());
    });

    it('links to-many relationships met again through a deeper path', async () => {
        const body = api.body(await api.get('/user/1', { include: 'profile.user.posts' }));
        expect(keys(body.included)).toEqual(['profile:1', 'post:1', 'post:2']);
        expect(body.data.relationships.posts.data).toEqual([
            { type: 'post', id: 1 },
            { type: 'post', id: 2 },
        ]);
    });

    it('includes on related fetches and addressed related resources', async () => {
        const many = api.body(await api.get('/user/1/posts', { include: 'comments' }));
        expect(keys(many.included)).toEqual(['comment:1', 'comment:2', 'comment:4']);
        const one = api.body(await api.get('/post/1/author', { include: 'profile' }));
        expect(keys(one.included)).toEqual(['profile:1']);
        const byId = api.body(await api.get('/user/1/posts/1', { include: 'comments' }));
        expect(keys(byId.included)).toEqual(['comment:1', 'comment:2']);
    });

    it('sends an empty included array when nothing is related', async () => {
        const body = api.body(await api.get('/post/5', { include: 'author,comments' }));
        expect(body.included).toEqual([]);
        expect(body.data.relationships.author.data).toBeNull();
        expect(body.data.relationships.comments.data).toEqual([]);
    });

    it('caps included to-many relationships at the page size', async () => {
        const one = makeApi(api.s, { pageSize: 1 });
        const body = one.body(await one.get('/user/1', { include: 'posts' }));
        expect(body.data.relationships.posts.data).toEqual([{ type: 'post', id: 1 }]);
        expect(keys(body.included)).toEqual(['post:1']);
    });

    it('honours maxIncludeDepth', async () => {
        const shallow = makeApi(api.s, { maxIncludeDepth: 2 });
        expect((await shallow.get('/post', { include: 'author.posts' })).status).toBe(200);
        const res = await shallow.get('/post', { include: 'author.posts.comments' });
        expect(shallow.body(res).errors[0]).toMatchObject({ status: 400, code: 'invalid-include', detail: expect.stringMatching(/limit of 2/) });
    });

    it.each<[string, RegExp]>([
        ['nope', /"nope" in include path "nope" is not a relationship of "post"/],
        ['author.nope', /"nope" in include path "author.nope" is not a relationship of "user"/],
        ['title', /"title" in include path "title" is not a relationship of "post"/],
        ['author,', /empty relationship path/],
        ['author..posts', /"" in include path/],
    ])('include=%s → 400', async (include, detail) => {
        const res = await api.get('/post', { include });
        expect(res.status).toBe(400);
        expect(api.body(res).errors[0]).toMatchObject({ code: 'invalid-include', detail: expect.stringMatching(detail), source: { parameter: 'include' } });
    });
});

describe('REST sparse fieldsets', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    it('renders only the listed attributes and relationships (and no tags for unselected values)', async () => {
        const res = await api.get('/post/1', { 'fields[post]': 'title,author' });
        expect(api.body(res)).toEqual({
            data: {
                type: 'post',
                id: 1,
                attributes: { title: 'Hello World' },
                relationships: rels('post', 1, { author: { type: 'user', id: 1 } }),
                links: { self: at('/post/1') },
            },
            links: { self: at('/post/1?fields[post]=title,author') },
            jsonapi: JSONAPI,
        });
    });

    it('applies per type to primary data and included resources', async () => {
        const body = api.body(await api.get('/post', { include: 'author', 'fields[post]': 'title', 'fields[user]': 'name' }));
        expect(body.data[0]).toEqual({ type: 'post', id: 1, attributes: { title: 'Hello World' }, relationships: {}, links: { self: at('/post/1') } });
        expect(body.included).toEqual([
            { type: 'user', id: 1, attributes: { name: 'Alice' }, relationships: {}, links: { self: at('/user/1') } },
            { type: 'user', id: 2, attributes: { name: 'Bob' }, relationships: {}, links: { self: at('/user/2') } },
        ]);
        expect(body.meta).toEqual({ total: 4 });
    });

    it('an empty fieldset leaves identity and links only', async () => {
        const body = api.body(await api.get('/user/2', { 'fields[user]': '' }));
        expect(body.data).toEqual({ type: 'user', id: 2, attributes: {}, relationships: {}, links: { self: at('/user/2') } });
    });

    it('accepts "id" in a fieldset, as 2.x does, and changes nothing for it: every resource carries its id', async () => {
        const listed = api.body(await api.get('/post/1', { 'fields[post]': 'id,title,author' }));
        const without = api.body(await api.get('/post/1', { 'fields[post]': 'title,author' }));
        expect(listed.data).toEqual(without.data);
        const alone = api.body(await api.get('/user/2', { 'fields[user]': 'id' }));
        expect(alone.data).toEqual({ type: 'user', id: 2, attributes: {}, relationships: {}, links: { self: at('/user/2') } });
    });

    it('works on related fetches', async () => {
        const body = api.body(await api.get('/user/1/posts', { 'fields[post]': 'viewCount' }));
        expect(body.data.map((r: { attributes: unknown }) => r.attributes)).toEqual([{ viewCount: 10 }, { viewCount: 0 }]);
    });

    it.each<[Query, string, RegExp]>([
        [{ 'fields[nope]': 'a' }, 'invalid-fields', /unknown resource type "nope"/],
        [{ 'fields[post]': 'title,nope' }, 'invalid-fields', /"nope" is not an attribute or relationship of "post"/],
        [{ 'fields[post][x]': 'title' }, 'invalid-fields', /malformed sparse fieldset/],
        [{ fields: 'title' }, 'invalid-fields', /malformed sparse fieldset/],
    ])('%j → 400', async (query, code, detail) => {
        const res = await api.get('/post', query);
        expect(res.status).toBe(400);
        expect(api.body(res).errors[0]).toMatchObject({ code, detail: expect.stringMatching(detail), source: { parameter: Object.keys(query)[0] } });
    });
});
