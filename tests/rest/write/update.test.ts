import { LIBRARY_SCHEMA } from './fixtures';
import { BLOG_MODELS, docOf, errorsOf, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

// PATCH/PUT /:type/:id and DELETE /:type/:id beyond the core suite.

let api: Api;
afterEach(async () => {
    await api?.cleanup();
});

describe('update', () => {
    let ids: Awaited<ReturnType<typeof seedBlog>>;
    beforeEach(async () => {
        api = await openApi();
        ids = await seedBlog(api.s);
    });

    it('changes only what is sent and answers with the document a GET returns', async () => {
        const before = await api.s.prisma.post.findUnique({ where: { id: ids.draft } });
        const res = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.draft}`, { data: { type: 'post', attributes: { viewCount: 9 } } });
        expect(res.status).toBe(200);
        const after = await api.s.prisma.post.findUnique({ where: { id: ids.draft } });
        expect(after).toEqual({ ...before, viewCount: 9 });
        const get = await api.call({ id: ids.u1 }, 'GET', `/post/${ids.draft}`);
        expect(docOf(res).data).toEqual(docOf(get).data);
    });

    it('accepts an empty update (no attributes, no relationships)', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call({ id: ids.u1 }, 'PUT', `/post/${ids.draft}`, { data: { type: 'post', id: ids.draft } });
        expect(res.status).toBe(200);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('replaces a to-many relationship sent in the body without modifying the related records otherwise', async () => {
        const before = await api.s.prisma.post.findMany({ orderBy: { id: 'asc' } });
        const res = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}`, {
            data: { type: 'user', attributes: { name: 'Uno' }, relationships: { posts: { data: [{ type: 'post', id: String(ids.pub) }] } } },
        });
        expect(res.status).toBe(200);
        expect(docOf(res).data.attributes.name).toBe('Uno');
        const after = await api.s.prisma.post.findMany({ orderBy: { id: 'asc' } });
        // only the foreign key of the post that left the set changed
        expect(after).toEqual(before.map((p: { id: number }) => (p.id === ids.draft ? { ...p, authorId: null } : p)));
    });

    it('clears a to-one relationship sent as null, and through a null foreign key attribute', async () => {
        const viaRel = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.pub}`, { data: { type: 'post', relationships: { author: { data: null } } } });
        expect(viaRel.status).toBe(200);
        expect(docOf(viaRel).data.attributes.authorId).toBeNull();
        await api.s.prisma.post.update({ where: { id: ids.pub }, data: { authorId: ids.u1 } });
        const viaFk = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.pub}`, { data: { type: 'post', attributes: { authorId: null } } });
        expect(viaFk.status).toBe(200);
        expect((await api.s.prisma.post.findUnique({ where: { id: ids.pub } })).authorId).toBeNull();
    });

    it('is all-or-nothing: attributes are not kept when a relationship change is denied', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}`, {
            data: { type: 'user', attributes: { name: 'changed' }, relationships: { posts: { data: [{ type: 'post', id: ids.pub }, { type: 'post', id: ids.u2draft }] } } },
        });
        expect(res.status).toBe(404); // user 2's draft is invisible to user 1
        expect(firstError(res).source?.pointer).toBe('/data/relationships/posts/data/1');
        const denied = await api.call({ id: ids.u2 }, 'PATCH', `/user/${ids.u2}`, {
            data: { type: 'user', attributes: { name: 'changed' }, relationships: { posts: { data: [{ type: 'post', id: ids.pub }] } } },
        });
        expect([denied.status, firstError(denied).code]).toEqual([403, 'forbidden']); // readable, but not user 2's to move
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('answers 409 for a data.id or type that differs from the URL, 404 for a missing id, 400 for a malformed one', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const idConflict = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.draft}`, { data: { type: 'post', id: ids.pub, attributes: { title: 'x' } } });
        expect([idConflict.status, firstError(idConflict).code, firstError(idConflict).source?.pointer]).toEqual([409, 'id-conflict', '/data/id']);
        const typeConflict = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.draft}`, { data: { type: 'user', attributes: { title: 'x' } } });
        expect([typeConflict.status, firstError(typeConflict).code]).toEqual([409, 'type-conflict']);
        const missing = await api.call({ id: ids.u1 }, 'PATCH', '/post/777', { data: { type: 'post', attributes: { title: 'x' } } });
        expect([missing.status, firstError(missing).code]).toEqual([404, 'not-found']);
        const malformed = await api.call({ id: ids.u1 }, 'PATCH', '/post/seven', { data: { type: 'post', attributes: { title: 'x' } } });
        expect([malformed.status, firstError(malformed).code]).toEqual([400, 'invalid-id']);
        const unknownType = await api.call({ id: ids.u1 }, 'PATCH', '/article/1', { data: { type: 'article' } });
        expect([unknownType.status, firstError(unknownType).code]).toEqual([404, 'unsupported-model']);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('validates updates with the zod schemas (partial: absent attributes are not required)', async () => {
        const ok = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.draft}`, { data: { type: 'post', attributes: { published: true } } }, { zod: true });
        expect(ok.status).toBe(200);
        const bad = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.draft}`, { data: { type: 'post', attributes: { title: '' } } }, { zod: true });
        expect([bad.status, errorsOf(bad).length, firstError(bad).source?.pointer]).toEqual([422, 1, '/data/attributes/title']);
        expect((await api.s.prisma.post.findUnique({ where: { id: ids.draft } })).title).toBe('draft');
    });

    it('updates typed values and answers with their serialization metadata', async () => {
        await api.s.prisma.allTypes.create({ data: { id: 'at' } });
        const res = await api.call(undefined, 'PATCH', '/allTypes/at', { data: { type: 'allTypes', attributes: { bigInt: 5, decimal: 0.5, bytes: 'AA==' } } });
        expect(res.status).toBe(200);
        expect(docOf(res).data.attributes).toMatchObject({ bigInt: '5', decimal: '0.5', bytes: 'AA==' });
        expect(docOf(res).meta.serialization.values).toMatchObject({ 'data.attributes.bigInt': ['bigint'], 'data.attributes.bytes': [['custom', 'Bytes']] });
        const row = await api.s.prisma.allTypes.findUnique({ where: { id: 'at' } });
        expect([row.bigInt, row.decimal.toString(), Buffer.from(row.bytes).toString('base64')]).toEqual([5n, '0.5', 'AA==']);
    });

    it('a user updates only itself', async () => {
        const other = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u2}`, { data: { type: 'user', attributes: { name: 'x' } } });
        expect([other.status, firstError(other).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
        const anon = await api.call(undefined, 'PATCH', `/user/${ids.u2}`, { data: { type: 'user', attributes: { name: 'x' } } });
        expect(anon.status).toBe(404); // anonymous users cannot read users at all
        const self = await api.call({ id: ids.u2 }, 'PATCH', `/user/${ids.u2}`, { data: { type: 'user', attributes: { name: 'Dos' } } });
        expect(self.status).toBe(200);
        expect((await api.s.prisma.user.findMany({ orderBy: { id: 'asc' } })).map((u: { name: string }) => u.name)).toEqual(['One', 'Dos']);
    });
});

describe('delete', () => {
    it('cascades as the schema says and is denied to anonymous users', async () => {
        api = await openApi();
        const ids = await seedBlog(api.s);
        expect((await api.call(undefined, 'DELETE', `/post/${ids.pub}`)).status).toBe(403);
        expect((await api.call({ id: ids.u1 }, 'DELETE', `/post/${ids.pub}`)).status).toBe(204);
        expect(await api.s.prisma.comment.count()).toBe(0);
        expect((await api.call({ id: ids.u1 }, 'DELETE', '/post/x')).status).toBe(400);
    });

    it('deletes by compound id', async () => {
        api = await openApi(LIBRARY_SCHEMA);
        await api.s.prisma.tag.create({ data: { key: 'a', lang: 'en' } });
        await api.s.prisma.tag.create({ data: { key: 'a', lang: 'fr' } });
        expect((await api.call(undefined, 'DELETE', '/tag/a_fr')).status).toBe(204);
        expect((await api.call(undefined, 'DELETE', '/tag/a_fr')).status).toBe(404);
        expect((await api.call(undefined, 'DELETE', '/tag/a')).status).toBe(400);
        expect(await api.s.prisma.tag.findMany()).toEqual([{ key: 'a', lang: 'en', label: '' }]);
    });
});
