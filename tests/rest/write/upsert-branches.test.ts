import { BLOG_MODELS, docOf, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

// What each branch of a JSON:API upsert is given: the update branch neither needs the create's foreign keys nor
// writes a foreign key the match fields name, and a one-to-one link of a record the user cannot read is never
// made by the update branch (whose unchecked detach the handler could not guard).

let api: Api;
afterEach(async () => {
    await api?.cleanup();
});

const upsert = (type: string, attributes: Record<string, unknown>, matchFields: string[], relationships?: Record<string, unknown>) => ({
    data: { type, attributes, ...(relationships ? { relationships } : {}) },
    meta: { operation: 'upsert', matchFields },
});

describe('with the zod schemas', () => {
    it('an upsert that updates needs no foreign key that only a create would', async () => {
        api = await openApi();
        const ids = await seedBlog(api.s);
        const res = await api.call({ id: ids.u1 }, 'POST', '/comment', upsert('comment', { id: ids.comment, content: 'edited' }, ['id']), { zod: true });
        expect(res.status).toBe(201);
        expect(docOf(res).data.attributes).toMatchObject({ content: 'edited', postId: ids.pub });
        expect(await api.s.prisma.comment.findUnique({ where: { id: ids.comment } })).toMatchObject({ content: 'edited', postId: ids.pub });
    });

    it('an upsert that would create without that foreign key is refused as such a create is (400), and writes nothing', async () => {
        api = await openApi();
        const ids = await seedBlog(api.s);
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call({ id: ids.u1 }, 'POST', '/comment', upsert('comment', { id: 999, content: 'new' }, ['id']), { zod: true });
        expect(res.status).toBe(400);
        expect(firstError(res).detail).toMatch(/`post` is missing/);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('the attributes it sends are still checked (a 422 pointing at them)', async () => {
        api = await openApi();
        const ids = await seedBlog(api.s);
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call({ id: ids.u1 }, 'POST', '/post', upsert('post', { id: ids.pub, title: 'x'.repeat(201) }, ['id']), { zod: true });
        expect(res.status).toBe(422);
        expect(firstError(res).source?.pointer).toBe('/data/attributes/title');
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });
});

const LOCKED_AUTHOR = `
model User {
  id    Int    @id
  posts Post[]
  @@allow('all', true)
}
model Post {
  id       Int    @id @default(autoincrement())
  slug     String
  title    String
  author   User   @relation(fields: [authorId], references: [id])
  authorId Int    @allow('update', false)
  @@unique([authorId, slug])
  @@allow('all', true)
}
`;

it('a foreign key among the match fields is not written again by the update (its field rule forbids updates)', async () => {
    api = await openApi(LOCKED_AUTHOR);
    await api.s.prisma.user.create({ data: { id: 1 } });
    await api.s.prisma.user.create({ data: { id: 2 } });
    await api.s.prisma.post.create({ data: { id: 1, slug: 'p1', title: 'old', authorId: 1 } });
    const res = await api.call({ id: 1 }, 'POST', '/post', upsert('post', { authorId: 1, slug: 'p1', title: 'new' }, ['authorId', 'slug']));
    expect(res.status).toBe(201);
    expect(docOf(res).data).toMatchObject({ id: 1, attributes: { title: 'new', authorId: 1 } });
    expect(await api.s.prisma.post.findMany()).toEqual([{ id: 1, slug: 'p1', title: 'new', authorId: 1 }]);

    // the create branch still links the author its key names
    const created = await api.call({ id: 1 }, 'POST', '/post', upsert('post', { authorId: 2, slug: 'p1', title: 'theirs' }, ['authorId', 'slug']));
    expect(created.status).toBe(201);
    expect(await api.s.prisma.post.count({ where: { authorId: 2, slug: 'p1' } })).toBe(1);
});

const HIDDEN_ACCOUNT = `
model User {
  id   Int    @id
  name String
  @@allow('read', true)
}
model Account {
  id     Int     @id @default(autoincrement())
  email  String  @unique
  hidden Boolean @default(false)
  badge  Badge?
  @@allow('create,update', true)
  @@allow('read', !hidden)
}
model Badge {
  id        Int      @id @default(autoincrement())
  owner     String
  account   Account? @relation(fields: [accountId], references: [id])
  accountId Int?     @unique
  @@allow('read', true)
  @@allow('update', owner == auth().name)
}
`;

describe('a one-to-one link in the upsert of a record the user may update but not read', () => {
    const seed = async () => {
        api = await openApi(HIDDEN_ACCOUNT);
        await api.s.prisma.account.create({ data: { id: 1, email: 'hid@x', hidden: true } });
        await api.s.prisma.badge.create({ data: { id: 1, owner: 'other', accountId: 1 } });
        await api.s.prisma.badge.create({ data: { id: 2, owner: 'me' } });
    };
    const badges = () => api.s.prisma.badge.findMany({ orderBy: { id: 'asc' }, select: { id: true, accountId: true } });
    const linkBadge2 = (email: string) => upsert('account', { email }, ['email'], { badge: { data: { type: 'badge', id: '2' } } });

    it('runs as the create it is for the user: the key is taken (409), and the hidden record keeps its partner', async () => {
        await seed();
        const res = await api.call({ id: 1, name: 'me' } as never, 'POST', '/account', linkBadge2('hid@x'));
        expect(res.status).toBe(409);
        expect(await badges()).toEqual([
            { id: 1, accountId: 1 },
            { id: 2, accountId: null },
        ]);
        // as an update of it does: not there for the user
        const patch = await api.call({ id: 1, name: 'me' } as never, 'PATCH', '/account/1', {
            data: { type: 'account', id: '1', relationships: { badge: { data: { type: 'badge', id: '2' } } } },
        });
        expect(patch.status).toBe(404);
        expect(await badges()).toEqual([
            { id: 1, accountId: 1 },
            { id: 2, accountId: null },
        ]);
    });

    it('a key nobody holds is created with the link', async () => {
        await seed();
        const res = await api.call({ id: 1, name: 'me' } as never, 'POST', '/account', linkBadge2('new@x'));
        expect(res.status).toBe(201);
        const id = Number(docOf(res).data.id);
        expect(await badges()).toEqual([
            { id: 1, accountId: 1 },
            { id: 2, accountId: id },
        ]);
    });
});

const PROTECTED_EMAIL = `
model User {
  id    Int    @id
  email String @unique @allow('read', auth() == this)
  name  String @default('')
  posts Post[]
  @@allow('all', true)
}
model Post {
  id       Int   @id
  author   User? @relation(fields: [authorId], references: [id])
  authorId Int?
  @@allow('all', true)
}
`;

it('relationships in an upsert whose record a field the user may not read names are a 400; without them it updates', async () => {
    api = await openApi(PROTECTED_EMAIL);
    await api.s.prisma.user.createMany({ data: [{ id: 1, email: 'a@x' }, { id: 2, email: 'b@x' }] });
    await api.s.prisma.post.create({ data: { id: 1 } });
    const withPosts = await api.call({ id: 2 }, 'POST', '/user', upsert('user', { email: 'a@x', name: 'with posts' }, ['email'], { posts: { data: [{ type: 'post', id: '1' }] } }));
    expect([withPosts.status, firstError(withPosts).source?.pointer]).toEqual([400, '/meta/matchFields']);
    expect(firstError(withPosts).detail).toMatch(/named by "email", which the access policy restricts reading/);
    expect(await api.s.prisma.user.findUnique({ where: { id: 1 } })).toMatchObject({ name: '' });
    expect((await api.s.prisma.post.findUnique({ where: { id: 1 } })).authorId).toBeNull();
    const plain = await api.call({ id: 2 }, 'POST', '/user', upsert('user', { email: 'a@x', name: 'plain' }, ['email']));
    expect(plain.status).toBe(201);
    expect(await api.s.prisma.user.findUnique({ where: { id: 1 } })).toMatchObject({ name: 'plain' });
});
