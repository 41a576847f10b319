import { ENDPOINT, LIBRARY_SCHEMA } from './fixtures';
import { BLOG_MODELS, docOf, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

// POST /:type with meta.operation "upsert" and meta.matchFields, as @zenstackhq/server 2.x accepts.

let api: Api;
afterEach(async () => {
    await api?.cleanup();
});

const upsertUser = (email: string, name: string, matchFields: unknown = ['email']) => ({
    data: { type: 'user', attributes: { email, name } },
    meta: { operation: 'upsert', matchFields },
});

describe('upsert on the blog', () => {
    let ids: Awaited<ReturnType<typeof seedBlog>>;
    beforeEach(async () => {
        api = await openApi();
        ids = await seedBlog(api.s);
    });

    it('creates the record when nothing matches, and updates it (without a second row) when it does', async () => {
        const created = await api.call({ id: ids.u1 }, 'POST', '/user', upsertUser('new@x', 'New'));
        expect(created.status).toBe(201);
        const id = docOf(created).data.id;
        expect(docOf(created).data.attributes).toMatchObject({ email: 'new@x', name: 'New' });
        expect(created.headers?.Location).toBe(`${ENDPOINT}/user/${id}`);

        const updated = await api.call({ id }, 'POST', '/user', upsertUser('new@x', 'Renamed'));
        expect(updated.status).toBe(201);
        expect(docOf(updated).data).toMatchObject({ id, attributes: { email: 'new@x', name: 'Renamed' } });
        expect(await api.s.prisma.user.count({ where: { email: 'new@x' } })).toBe(1);
        expect(await api.s.prisma.user.findUnique({ where: { id } })).toMatchObject({ name: 'Renamed' });
    });

    it('applies the update policy to the matched record: denied, and nothing changes', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call({ id: ids.u2 }, 'POST', '/user', upsertUser('u1@x', 'Hijacked'));
        expect(res.status).toBe(403);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('a relationship replacement cannot detach what the user may not update (no unchecked set)', async () => {
        const bobPub = (await api.s.prisma.post.create({ data: { title: 'u2 pub', published: true, authorId: ids.u2 } })).id;
        const before = await snapshot(api.s, BLOG_MODELS);
        const emptyPosts = { data: { type: 'user', attributes: { email: 'u2@x' }, relationships: { posts: { data: [] } } }, meta: { operation: 'upsert', matchFields: ['email'] } };
        const res = await api.call({ id: ids.u1 }, 'POST', '/user', emptyPosts);
        expect(res.status).toBe(403);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);

        // the owner may: what it lists stays, the rest it can see is detached
        const own = await api.call({ id: ids.u2 }, 'POST', '/user', {
            ...emptyPosts,
            data: { ...emptyPosts.data, relationships: { posts: { data: [{ type: 'post', id: String(bobPub) }] } } },
        });
        expect(own.status).toBe(201);
        const authorOf = async (id: number) => (await api.s.prisma.post.findUnique({ where: { id } })).authorId;
        expect(await authorOf(bobPub)).toBe(ids.u2);
        expect(await authorOf(ids.u2draft)).toBeNull();
    });

    it('validates with the zod schemas before writing (422)', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call(
            { id: ids.u1 },
            'POST',
            '/post',
            { data: { type: 'post', id: ids.draft, attributes: { title: '' } }, meta: { operation: 'upsert', matchFields: ['id'] } },
            { zod: true },
        );
        expect(res.status).toBe(422);
        expect(firstError(res).source?.pointer).toBe('/data/attributes/title');
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it.each([
        [{ operation: 'merge', matchFields: ['email'] }, '/meta/operation', /can only be "upsert"/],
        [{ operation: 'upsert' }, '/meta/matchFields', /non-empty array/],
        [{ operation: 'upsert', matchFields: [] }, '/meta/matchFields', /non-empty array/],
        [{ operation: 'upsert', matchFields: [1] }, '/meta/matchFields', /non-empty array/],
        [{ operation: 'upsert', matchFields: ['name'] }, '/meta/matchFields', /all fields of a unique constraint of "user" \(\[id\], \[email\]\)/],
        [{ operation: 'upsert', matchFields: ['nope'] }, '/meta/matchFields/0', /no field "nope"/],
        [{ operation: 'upsert', matchFields: ['id'] }, '/data', /match field "id" needs a value/],
    ])('meta %j is a 400 at %s, with nothing written', async (meta, pointer, detail) => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call(undefined, 'POST', '/user', { data: { type: 'user', attributes: { email: 'z@x', name: 'Z' } }, meta });
        expect(res.status).toBe(400);
        expect(firstError(res)).toMatchObject({ code: 'invalid-payload', source: { pointer } });
        expect(firstError(res).detail).toMatch(detail);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('treats meta without "operation" as a plain create', async () => {
        const res = await api.call({ id: ids.u1 }, 'POST', '/user', { data: { type: 'user', attributes: { email: 'plain@x' } }, meta: { note: 'hi' } });
        expect(res.status).toBe(201);
        const again = await api.call({ id: ids.u1 }, 'POST', '/user', { data: { type: 'user', attributes: { email: 'plain@x' } }, meta: { note: 'hi' } });
        expect(again.status).toBe(409);
    });
});

describe('upsert on the library', () => {
    beforeEach(async () => {
        api = await openApi(LIBRARY_SCHEMA);
        await api.s.prisma.book.createMany({ data: [{ id: 1, title: 'A' }, { id: 2, title: 'B' }, { id: 3, title: 'C' }] });
    });

    it('matches a compound id given as data.id', async () => {
        const body = (label: string) => ({ data: { type: 'tag', id: 'sci_en', attributes: { label } }, meta: { operation: 'upsert', matchFields: ['key', 'lang'] } });
        expect((await api.call(undefined, 'POST', '/tag', body('Science'))).status).toBe(201);
        const res = await api.call(undefined, 'POST', '/tag', body('Sciences'));
        expect(res.status).toBe(201);
        expect(docOf(res).data).toMatchObject({ type: 'tag', id: 'sci_en', attributes: { label: 'Sciences' } });
        expect(await api.s.prisma.tag.findMany()).toEqual([{ key: 'sci', lang: 'en', label: 'Sciences' }]);
    });

    it('connects to-many relationships on create and replaces them on update', async () => {
        const body = (books: number[]) => ({
            data: { type: 'author', id: 9, attributes: { name: 'Ann' }, relationships: { books: { data: books.map((id) => ({ type: 'book', id })) } } },
            meta: { operation: 'upsert', matchFields: ['id'] },
        });
        expect((await api.call(undefined, 'POST', '/author', body([1, 2]))).status).toBe(201);
        expect((await api.s.prisma.book.findMany({ where: { authorId: 9 }, orderBy: { id: 'asc' } })).map((b: { id: number }) => b.id)).toEqual([1, 2]);

        const res = await api.call(undefined, 'POST', '/author', body([3]), { query: { include: 'books' } });
        expect(res.status).toBe(201);
        expect(docOf(res).data.relationships.books.data).toEqual([{ type: 'book', id: 3 }]);
        expect((await api.s.prisma.book.findMany({ where: { authorId: 9 } })).map((b: { id: number }) => b.id)).toEqual([3]);
    });

    it('is a 404 with a pointer when a named related record does not exist, with nothing written', async () => {
        const res = await api.call(undefined, 'POST', '/author', {
            data: { type: 'author', id: 9, attributes: { name: 'Ann' }, relationships: { books: { data: [{ type: 'book', id: 99 }] } } },
            meta: { operation: 'upsert', matchFields: ['id'] },
        });
        expect(res.status).toBe(404);
        expect(firstError(res).source?.pointer).toBe('/data/relationships/books/data/0');
        expect(await api.s.prisma.author.count()).toBe(0);
    });
});
