import { RestApiHandler } from '../../src/api/rest';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * Field-level read rules on relation fields (`posts Post[] @allow('read', auth() == this)`): the relation
 * is its owner's to read, even where its rows are readable one by one. Neither handler may show it to
 * anyone else: not as included data, linkage, related or relationship endpoints, nor through what
 * ZenStack does not guard: counts, ordering, or a write's filter through it.
 */

const SCHEMA = `
model User {
  id      Int      @id
  name    String
  posts   Post[]   @allow('read', auth() == this)
  profile Profile? @allow('read', auth() == this)
  @@allow('all', true)
}

model Profile {
  id     Int    @id
  bio    String
  user   User   @relation(fields: [userId], references: [id])
  userId Int    @unique
  @@allow('all', true)
}

model Post {
  id       Int    @id
  title    String
  author   User   @relation(fields: [authorId], references: [id])
  authorId Int
  @@allow('all', true)
}
`;

const ALICE = { id: 1 };
const BOB = { id: 2 };

let s: TestSchema;
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.create({ data: { id: 1, name: 'alice' } });
    await s.prisma.user.create({ data: { id: 2, name: 'bob' } });
    await s.prisma.profile.create({ data: { id: 1, bio: 'alice bio', userId: 1 } });
    await s.prisma.post.createMany({ data: [{ id: 1, title: 'a1', authorId: 1 }, { id: 2, title: 'a2', authorId: 1 }, { id: 3, title: 'b1', authorId: 2 }] });
});

afterAll(async () => {
    await s.cleanup();
});

async function get(path: string, query: Record<string, string> = {}, user = BOB): Promise<Res> {
    const res = await rest({ method: 'GET', path, query, prisma: s.enhance(user), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}

const rpc = (method: string, path: string, args: unknown, user = BOB) => rpcAs(s, user, method, path, args);

describe('JSON:API', () => {
    it('an included protected relation has links but no linkage for others (not an empty one), and full linkage for its owner', async () => {
        const bob = await get('/user/1', { include: 'posts,profile' });
        expect(bob.body.data.relationships.posts).not.toHaveProperty('data');
        expect(bob.body.data.relationships.profile).not.toHaveProperty('data');
        expect(bob.body.data.relationships.posts.links.related).toBe('http://localhost/api/user/1/posts');
        expect(bob.body.included ?? []).toEqual([]);
        const alice = await get('/user/1', { include: 'posts,profile' }, ALICE);
        expect(alice.body.data.relationships.posts.data).toEqual([
            { type: 'post', id: 1 },
            { type: 'post', id: 2 },
        ]);
        expect(alice.body.included).toHaveLength(3);
    });

    it('has no linkage either where the include reaches its record again (two posts of one author)', async () => {
        const bob = await get('/post', { include: 'author.posts,author.profile', 'filter[authorId]': '1' });
        expect(bob.body.data.map((p: { id: number }) => p.id)).toEqual([1, 2]);
        const alice = bob.body.included.find((r: { type: string; id: number }) => r.type === 'user' && r.id === 1);
        expect(alice.relationships.posts).not.toHaveProperty('data');
        expect(alice.relationships.profile).not.toHaveProperty('data');
        const own = await get('/post', { include: 'author.posts,author.profile', 'filter[authorId]': '1' }, ALICE);
        const herself = own.body.included.find((r: { type: string; id: number }) => r.type === 'user' && r.id === 1);
        expect([herself.relationships.posts.data.length, herself.relationships.profile.data]).toEqual([2, { type: 'profile', id: 1 }]);
    });

    it('related and relationship endpoints answer 404 to others, without counting it, and the relationship to its owner', async () => {
        for (const path of ['/user/1/posts', '/user/1/profile', '/user/1/relationships/posts', '/user/1/relationships/profile', '/user/1/posts/1']) {
            for (const query of [{}, { 'page[offset]': '1' }] as Record<string, string>[]) {
                if (!path.endsWith('posts') && Object.keys(query).length > 0) continue;
                const res = await get(path, query);
                expect([path, res.status, res.body.errors?.[0]?.code]).toEqual([path, 404, 'not-found']);
                expect(res.text).not.toContain('total');
            }
        }
        expect((await get('/user/1/posts', {}, ALICE)).body.meta.total).toBe(2);
        expect((await get('/user/1/relationships/profile', {}, ALICE)).body.data).toEqual({ type: 'profile', id: 1 });
    });

    it('a write to it by someone allowed to update the user is kept, and answered 403 "not readable"', async () => {
        const res = await rest({
            method: 'POST',
            path: '/user/1/relationships/posts',
            requestBody: { data: [{ type: 'post', id: 3 }] },
            prisma: s.enhance(BOB),
            modelMeta: s.modelMeta,
            logger: null,
        });
        expect([res.status, (res.body as { errors: { reason?: string }[] }).errors[0].reason]).toEqual([403, 'RESULT_NOT_READABLE']);
        expect(await s.prisma.post.findUnique({ where: { id: 3 } })).toMatchObject({ authorId: 1 });
        await s.prisma.post.update({ where: { id: 3 }, data: { authorId: 2 } });
    });

    it('a filter through it matches nothing of others; a sort through it is a 400', async () => {
        expect((await get('/user', { 'filter[profile][bio]': 'alice bio' })).body.data).toEqual([]);
        expect((await get('/user', { 'filter[posts][title]': 'a1' })).body.data).toEqual([]);
        const sorted = await get('/user', { sort: 'profile.bio' });
        expect(sorted.status).toBe(400);
        expect(sorted.body.errors[0].code).toBe('invalid-sort');
    });
});

describe('RPC', () => {
    it('include leaves it out for others', async () => {
        const res = await rpc('GET', '/user/findUnique', { where: { id: 1 }, include: { posts: true, profile: true } });
        expect(res.body.data).toEqual({ id: 1, name: 'alice' });
    });

    it.each([
        ['a count of it', { select: { id: true, _count: { select: { posts: true } } } }, /"posts" of User cannot be used for counting/],
        ['a count of every relation', { include: { _count: true } }, /"posts" of User cannot be used for counting/],
        ['a count of it with a filter', { select: { _count: { select: { posts: { where: { title: 'a1' } } } } } }, /"posts" of User cannot be used for counting/],
        ['ordering by its count', { orderBy: { posts: { _count: 'desc' } } }, /"posts" of User cannot be used for ordering/],
        ['ordering through it', { orderBy: { profile: { bio: 'asc' } } }, /"profile" of User cannot be used for ordering/],
    ])('%s is refused with a 400', async (_name, args, message) => {
        const res = await rpc('GET', '/user/findMany', args);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(message);
    });

    it('the rows themselves are counted through their own model, under its rules', async () => {
        const posts = await rpc('GET', '/post/count', { where: { authorId: 1 } });
        expect(posts.body.data).toBe(2);
    });

    it('a write filtering through it is refused the same way for the right and a wrong guess', async () => {
        const right = await rpc('PUT', '/user/update', { where: { id: 1, profile: { bio: 'alice bio' } }, data: { name: 'x' } });
        const wrong = await rpc('PUT', '/user/update', { where: { id: 1, profile: { bio: 'other' } }, data: { name: 'x' } });
        expect(right.status).toBe(400);
        expect(right.body.error.message).toMatch(/"profile" of User cannot be used for filtering a write/);
        expect(wrong).toEqual(right);
        expect(await s.prisma.user.findUnique({ where: { id: 1 } })).toMatchObject({ name: 'alice' });
    });
});
