import { RestApiHandler } from '../../../src/api/rest';
import { loadSchema, type TestSchema } from '../../support/schema';
import { at, blogApi, makeApi, rels, type Api, type Query, type User } from './support';

/**
 * `include` and `fields` on relationship endpoints (`/:type/:id/relationships/:rel`), as JSON:API has them:
 * include paths go through the relationship (`posts`, `posts.comments`), so the related resources are
 * included beside their linkage, under the same read rules as everywhere else.
 */

type Resource = { type: string; id: unknown; attributes?: Record<string, unknown>; relationships?: Record<string, unknown> };
const key = (r: { type: string; id: unknown }) => `${r.type}:${r.id}`;
const byKey = (resources: Resource[]) => [...resources].sort((a, b) => key(a).localeCompare(key(b)));

describe('include and fields on relationship endpoints', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    const get = async (path: string, query: Query, user: User = 1) => {
        const res = await api.get(path, query, user);
        return { status: res.status, body: api.body(res) };
    };

    it('to-many: the linkage page, and the related resources with what they include, as the related endpoint answers them', async () => {
        const query = { include: 'posts.comments', 'fields[post]': 'title,comments', 'page[limit]': '1', sort: '-id' };
        const rel = await get('/user/1/relationships/posts', query);
        expect(rel.status).toBe(200);
        expect(rel.body.data).toEqual([{ type: 'post', id: 2 }]);
        expect(rel.body.meta).toEqual({ total: 2 });
        expect(rel.body.links).toEqual({
            self: at('/user/1/relationships/posts?include=posts.comments&fields[post]=title,comments&page[limit]=1&sort=-id'),
            related: at('/user/1/posts'),
            first: at('/user/1/relationships/posts?include=posts.comments&fields[post]=title,comments&sort=-id&page[limit]=1'),
            last: at('/user/1/relationships/posts?include=posts.comments&fields[post]=title,comments&sort=-id&page[offset]=1&page[limit]=1'),
            prev: null,
            next: at('/user/1/relationships/posts?include=posts.comments&fields[post]=title,comments&sort=-id&page[offset]=1&page[limit]=1'),
        });
        expect(byKey(rel.body.included)).toEqual([
            { type: 'comment', id: 4, attributes: { content: 'secret draft comment', postId: 2 }, relationships: rels('comment', 4, { post: { type: 'post', id: 2 } }), links: { self: at('/comment/4') } },
            {
                type: 'post',
                id: 2,
                attributes: { title: 'Draft of Alice' },
                relationships: rels('post', 2, { comments: [{ type: 'comment', id: 4 }] }),
                links: { self: at('/post/2') },
            },
        ]);

        // the same page through the related endpoint: its data and included, together, are this included
        const related = await get('/user/1/posts', { include: 'comments', 'fields[post]': 'title,comments', 'page[limit]': '1', sort: '-id' });
        expect(byKey(rel.body.included)).toEqual(byKey([...related.body.data, ...related.body.included]));
    });

    // [relationship path, include, other parameters, user]: each answered like its related endpoint
    it.each<[string, string, Query, User]>([
        ['/user/1/relationships/posts', 'posts', {}, 1],
        ['/user/1/relationships/posts', 'posts.author.profile', { 'fields[user]': 'name,profile' }, 1],
        ['/user/1/relationships/posts', 'posts.comments.post', { sort: 'title', 'page[offset]': '1' }, 2],
        ['/post/1/relationships/comments', 'comments.post.author', {}, null],
        ['/post/1/relationships/author', 'author', {}, 1],
        ['/post/1/relationships/author', 'author.posts.comments', {}, 2],
        ['/profile/1/relationships/user', 'user', {}, 1],
        ['/user/1/relationships/profile', 'profile.user', {}, 2],
    ])('GET %s?include=%s %j as %s: included = what the related endpoint answers as data and included', async (path, include, query, user) => {
        const rel = await get(path, { include, ...query }, user);
        const relatedPath = path.replace('/relationships/', '/');
        const below = include.split(',').map((p) => p.split('.').slice(1).join('.')).filter(Boolean).join(',');
        const related = await get(relatedPath, below ? { include: below, ...query } : query, user);
        expect([rel.status, related.status]).toEqual([200, 200]);
        const relatedData: Resource[] = related.body.data === null ? [] : Array.isArray(related.body.data) ? related.body.data : [related.body.data];
        expect(rel.body.data).toEqual(Array.isArray(related.body.data) ? relatedData.map(({ type, id }) => ({ type, id })) : related.body.data && { type: related.body.data.type, id: related.body.data.id });
        expect(byKey(rel.body.included)).toEqual(byKey([...relatedData, ...(related.body.included ?? [])]));
        expect(rel.body.meta?.total).toEqual(related.body.meta?.total);
    });

    it('to-many: what the user may not read is neither linked nor included', async () => {
        // Bob reads Alice's published post only, not her draft
        const rel = await get('/user/1/relationships/posts', { include: 'posts' }, 2);
        expect(rel.status).toBe(200);
        expect(rel.body.data).toEqual([{ type: 'post', id: 1 }]);
        expect(rel.body.included.map(key)).toEqual(['post:1']);
        expect(rel.body.meta.total).toBe(1);
    });

    it('to-many: an included required to-one the user may not read keeps its linkage and is left out (read apart)', async () => {
        const rel = await get('/post/1/relationships/comments', { include: 'comments.post' }, null);
        expect(rel.status).toBe(200);
        expect(rel.body.data).toEqual([
            { type: 'comment', id: 1 },
            { type: 'comment', id: 2 },
        ]);
        expect(byKey(rel.body.included).map(key)).toEqual(['comment:1', 'comment:2', 'post:1']);
        expect(rel.body.included.find((r: Resource) => r.type === 'comment').relationships.post.data).toEqual({ type: 'post', id: 1 });
    });

    it('to-one: the related resource is included, and an include path back to the parent includes the parent too', async () => {
        const rel = await get('/post/1/relationships/author', { include: 'author.posts', 'fields[user]': 'name,posts', 'fields[post]': 'title' });
        expect(rel.status).toBe(200);
        expect(rel.body.data).toEqual({ type: 'user', id: 1 });
        // `self` is the request URL with its parameters, as on the to-many relationship and the related endpoints
        expect(rel.body.links).toEqual({
            self: at('/post/1/relationships/author?include=author.posts&fields[user]=name,posts&fields[post]=title'),
            related: at('/post/1/author'),
        });
        expect(byKey(rel.body.included)).toEqual([
            { type: 'post', id: 1, attributes: { title: 'Hello World' }, relationships: {}, links: { self: at('/post/1') } },
            { type: 'post', id: 2, attributes: { title: 'Draft of Alice' }, relationships: {}, links: { self: at('/post/2') } },
            {
                type: 'user',
                id: 1,
                attributes: { name: 'Alice' },
                relationships: rels('user', 1, {
                    posts: [
                        { type: 'post', id: 1 },
                        { type: 'post', id: 2 },
                    ],
                }),
                links: { self: at('/user/1') },
            },
        ]);
    });

    it('to-one: a target the user may not read keeps the linkage its foreign key gives and is not included; an empty one includes nothing', async () => {
        // anonymous users may read the published post, not its author
        const hidden = await get('/post/1/relationships/author', { include: 'author' }, null);
        expect([hidden.status, hidden.body.data, hidden.body.included]).toEqual([200, { type: 'user', id: 1 }, []]);
        const empty = await get('/post/5/relationships/author', { include: 'author' });
        expect([empty.status, empty.body.data, empty.body.included]).toEqual([200, null, []]);
    });

    it('the relationship does not count against maxIncludeDepth: the paths below it reach as far as on the related endpoint', async () => {
        const shallow = makeApi(api.s, { maxIncludeDepth: 2 });
        const rel = await shallow.get('/user/1/relationships/posts', { include: 'posts.comments.post' });
        const related = await shallow.get('/user/1/posts', { include: 'comments.post' });
        expect([rel.status, related.status]).toEqual([200, 200]);
        const deeper = await shallow.get('/user/1/relationships/posts', { include: 'posts.comments.post.author' });
        expect([deeper.status, shallow.body(deeper).errors[0].code]).toEqual([400, 'invalid-include']);
    });

    it('include paths not through the relationship, or unknown, are a 400 invalid-include', async () => {
        for (const [path, include] of [
            ['/user/1/relationships/posts', 'profile'],
            ['/user/1/relationships/posts', 'posts,profile'],
            ['/post/1/relationships/comments', 'post'],
            ['/post/1/relationships/author', 'comments'],
            ['/post/1/relationships/author', 'author.nope'],
        ]) {
            const res = await get(path, { include });
            expect([path, include, res.status, res.body.errors[0].code, res.body.errors[0].source]).toEqual([path, include, 400, 'invalid-include', { parameter: 'include' }]);
        }
        const unknownType = await get('/user/1/relationships/posts', { 'fields[nope]': 'x' });
        expect([unknownType.status, unknownType.body.errors[0].code]).toEqual([400, 'invalid-fields']);
    });
});

describe('include on the relationship endpoint of a to-one a field-level rule hides', () => {
    // the foreign key gives the linkage to anyone; the relation (and so its target through it) only its author
    const SCHEMA = `
model User {
  id    Int    @id
  name  String
  posts Post[]
  @@allow('all', true)
}
model Post {
  id       Int    @id
  title    String
  author   User   @relation(fields: [authorId], references: [id]) @allow('read', auth() == author)
  authorId Int
  @@allow('all', true)
}
`;
    let s: TestSchema;
    const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.user.createMany({ data: [{ id: 1, name: 'alice' }, { id: 2, name: 'bob' }] });
        await s.prisma.post.create({ data: { id: 1, title: 'a1', authorId: 1 } });
    });
    afterAll(() => s.cleanup());
    const get = async (query: Record<string, string>, user: number) => {
        const res = await handle({ method: 'GET', path: '/post/1/relationships/author', query, prisma: s.enhance({ id: user }), modelMeta: s.modelMeta, logger: null });
        return JSON.parse(JSON.stringify({ status: res.status, body: res.body }));
    };

    it('keeps the linkage and includes nothing for others (include never changes the primary data); includes the author for her', async () => {
        const plain = await get({}, 2);
        expect([plain.status, plain.body.data]).toEqual([200, { type: 'user', id: 1 }]);
        const included = await get({ include: 'author' }, 2);
        expect([included.status, included.body.data, included.body.included]).toEqual([200, { type: 'user', id: 1 }, []]);
        const own = await get({ include: 'author' }, 1);
        expect([own.status, own.body.data, own.body.included.map((r: Resource) => key(r))]).toEqual([200, { type: 'user', id: 1 }, ['user:1']]);
    });
});
