import { LIBRARY_SCHEMA } from './fixtures';
import { BLOG_MODELS, docOf, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

// Id fields sent in `attributes`: where @zenstackhq/server 2.x clients put client-chosen ids and
// upsert match fields (2.x reads ids from nowhere else), next to JSON:API's `data.id`.

let api: Api;
afterEach(async () => {
    await api?.cleanup();
});

describe('id fields in attributes on the blog', () => {
    let ids: Awaited<ReturnType<typeof seedBlog>>;
    beforeEach(async () => {
        api = await openApi();
        ids = await seedBlog(api.s);
    });

    it('create: an id attribute sets the new record id, alone or agreeing with data.id', async () => {
        const alone = await api.call({ id: ids.u1 }, 'POST', '/user', { data: { type: 'user', attributes: { id: 70, email: 'seventy@x' } } });
        expect(alone.status).toBe(201);
        expect(alone.headers?.Location).toMatch(/\/user\/70$/);
        const both = await api.call({ id: ids.u1 }, 'POST', '/user', { data: { type: 'user', id: '71', attributes: { id: 71, email: 'seventy-one@x' } } });
        expect(both.status).toBe(201);
        const rows = await api.s.prisma.user.findMany({ where: { id: { in: [70, 71] } }, orderBy: { id: 'asc' }, select: { id: true, email: true } });
        expect(rows).toEqual([
            { id: 70, email: 'seventy@x' },
            { id: 71, email: 'seventy-one@x' },
        ]);
    });

    it('create: an id attribute contradicting data.id, or of the wrong type, is a 400 naming it, and nothing is written', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const conflict = await api.call(undefined, 'POST', '/user', { data: { type: 'user', id: '72', attributes: { id: 73, email: 'x@x' } } });
        expect([conflict.status, firstError(conflict).code, firstError(conflict).source?.pointer]).toEqual([400, 'invalid-payload', '/data/attributes/id']);
        const wrongType = await api.call(undefined, 'POST', '/user', { data: { type: 'user', attributes: { id: '74', email: 'y@x' } } });
        expect([wrongType.status, firstError(wrongType).source?.pointer]).toEqual([400, '/data/attributes/id']);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('update: an id attribute naming the record of the URL is accepted; another id is a 409 and nothing changes', async () => {
        const same = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}`, { data: { type: 'user', attributes: { id: ids.u1, name: 'Same' } } });
        expect(same.status).toBe(200);
        expect(docOf(same).data).toMatchObject({ id: ids.u1, attributes: { name: 'Same' } });

        const before = await snapshot(api.s, BLOG_MODELS);
        const moved = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}`, { data: { type: 'user', attributes: { id: 999, name: 'Moved' } } });
        expect([moved.status, firstError(moved).code, firstError(moved).source?.pointer]).toEqual([409, 'id-conflict', '/data/attributes/id']);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('upsert in the 2.x form: the id match field sent as an attribute creates, then updates the same row', async () => {
        const body = (name: string) => ({ data: { type: 'user', attributes: { id: 500, email: 'five@x', name } }, meta: { operation: 'upsert', matchFields: ['id'] } });
        const created = await api.call({ id: ids.u1 }, 'POST', '/user', body('First'));
        expect([created.status, docOf(created).data.id]).toEqual([201, 500]);
        const updated = await api.call({ id: 500 }, 'POST', '/user', body('Second'));
        expect([updated.status, docOf(updated).data.id, docOf(updated).data.attributes.name]).toEqual([201, 500, 'Second']);
        expect(await api.s.prisma.user.findMany({ where: { email: 'five@x' }, select: { id: true, name: true } })).toEqual([{ id: 500, name: 'Second' }]);
    });

    it('an autoincrement id given with a to-one link: the link is written as its foreign key (Prisma takes such an id only so)', async () => {
        const post = async (id: number) => api.s.prisma.post.findUnique({ where: { id }, select: { title: true, authorId: true } });
        const linked = await api.call({ id: ids.u1 }, 'POST', '/post', { data: { type: 'post', attributes: { id: 501, title: 't' }, relationships: { author: { data: { type: 'user', id: ids.u1 } } } } });
        expect([linked.status, docOf(linked).data.id, await post(501)]).toEqual([201, 501, { title: 't', authorId: ids.u1 }]);
        const fk = await api.call({ id: ids.u1 }, 'POST', '/post', { data: { type: 'post', id: '502', attributes: { title: 't', authorId: ids.u1 } } });
        expect([fk.status, await post(502)]).toEqual([201, { title: 't', authorId: ids.u1 }]);

        // the 2.x upsert form: creates, then updates the same row, its author too
        const upsert = (title: string, author: number) => ({
            data: { type: 'post', attributes: { id: 503, title, published: true }, relationships: { author: { data: { type: 'user', id: author } } } },
            meta: { operation: 'upsert', matchFields: ['id'] },
        });
        expect((await api.call({ id: ids.u1 }, 'POST', '/post', upsert('first', ids.u1))).status).toBe(201);
        const updated = await api.call({ id: ids.u1 }, 'POST', '/post', upsert('second', ids.u2));
        expect([updated.status, await post(503)]).toEqual([201, { title: 'second', authorId: ids.u2 }]);

        // a missing author is a 404 at the relationship; the create rule still applies to the linked record
        const before = await snapshot(api.s, BLOG_MODELS);
        const missing = await api.call({ id: ids.u1 }, 'POST', '/post', { data: { type: 'post', attributes: { id: 504, title: 't' }, relationships: { author: { data: { type: 'user', id: 999 } } } } });
        expect([missing.status, firstError(missing).source?.pointer]).toEqual([404, '/data/relationships/author/data']);
        const denied = await api.call({ id: ids.u2 }, 'POST', '/post', { data: { type: 'post', attributes: { id: 505, title: 't' }, relationships: { author: { data: { type: 'user', id: ids.u1 } } } } });
        expect(denied.status).toBe(403);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('create: a string id no URL can name ("", ".", "..") is a 400 naming it, and nothing is written; other dotted ids work', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        for (const id of ['', '.', '..']) {
            const inData = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', id, attributes: { string: 's' } } });
            expect([id, inData.status, firstError(inData).code, firstError(inData).source?.pointer]).toEqual([id, 400, 'invalid-id', '/data/id']);
            const inAttributes = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', attributes: { id, string: 's' } } });
            expect([id, inAttributes.status, firstError(inAttributes).source?.pointer]).toEqual([id, 400, '/data/attributes/id']);
            const upsert = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', attributes: { id, string: 's' } }, meta: { operation: 'upsert', matchFields: ['id'] } });
            expect([id, upsert.status, firstError(upsert).code]).toEqual([id, 400, 'invalid-id']);
        }
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);

        for (const id of ['...', '.hidden', 'a.b']) {
            const created = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', id, attributes: { string: 's' } } });
            expect([id, created.status, created.headers?.Location]).toEqual([id, 201, `http://localhost/api/allTypes/${id}`]);
            expect(new URL(created.headers!.Location as string).pathname).toBe(`/api/allTypes/${id}`);
            const read = await api.call(undefined, 'GET', `/allTypes/${encodeURIComponent(id)}`);
            expect([id, read.status, docOf(read).data.id]).toEqual([id, 200, id]);
        }
    });

    it('upsert matched on another unique field: an id attribute names the record to create and never changes the matched one', async () => {
        const body = { data: { type: 'user', attributes: { id: 600, email: 'u1@x', name: 'Matched' } }, meta: { operation: 'upsert', matchFields: ['email'] } };
        const res = await api.call({ id: ids.u1 }, 'POST', '/user', body);
        expect([res.status, docOf(res).data.id, docOf(res).data.attributes.name]).toEqual([201, ids.u1, 'Matched']);
        expect(await api.s.prisma.user.count({ where: { id: 600 } })).toBe(0);
    });
});

describe('id fields in attributes on compound ids', () => {
    beforeEach(async () => {
        api = await openApi(LIBRARY_SCHEMA);
    });

    it('creates a compound-id record from its id attributes, and upserts on them', async () => {
        const res = await api.call(undefined, 'POST', '/tag', { data: { type: 'tag', attributes: { key: 'art', lang: 'de', label: 'Kunst' } } });
        expect([res.status, docOf(res).data.id]).toEqual([201, 'art_de']);

        const upsert = (label: string) => ({ data: { type: 'tag', attributes: { key: 'art', lang: 'de', label } }, meta: { operation: 'upsert', matchFields: ['key', 'lang'] } });
        expect((await api.call(undefined, 'POST', '/tag', upsert('Die Kunst'))).status).toBe(201);
        expect(await api.s.prisma.tag.findMany()).toEqual([{ key: 'art', lang: 'de', label: 'Die Kunst' }]);
    });

    it('the parts of a compound id are read as attributes, and an update may repeat them but not change them (409)', async () => {
        await api.s.prisma.tag.create({ data: { key: 'sci', lang: 'en', label: 'Science' } });
        const read = await api.call(undefined, 'GET', '/tag/sci_en');
        expect(docOf(read).data).toMatchObject({ id: 'sci_en', attributes: { key: 'sci', lang: 'en', label: 'Science' } });

        const same = await api.call(undefined, 'PATCH', '/tag/sci_en', { data: { type: 'tag', attributes: { ...docOf(read).data.attributes, label: 'Sciences' } } });
        expect([same.status, docOf(same).data.attributes.label]).toEqual([200, 'Sciences']);
        const moved = await api.call(undefined, 'PATCH', '/tag/sci_en', { data: { type: 'tag', attributes: { lang: 'fr' } } });
        expect([moved.status, firstError(moved).code, firstError(moved).source?.pointer]).toEqual([409, 'id-conflict', '/data/attributes/lang']);
        expect(await api.s.prisma.tag.findMany()).toEqual([{ key: 'sci', lang: 'en', label: 'Sciences' }]);
    });

    it('id attributes that are foreign keys connect their records (a missing one is a 404, nothing written)', async () => {
        await api.s.prisma.book.create({ data: { id: 1, title: 'A' } });
        await api.s.prisma.tag.create({ data: { key: 'sci', lang: 'en' } });
        const res = await api.call(undefined, 'POST', '/bookTag', { data: { type: 'bookTag', attributes: { bookId: 1, tagKey: 'sci', tagLang: 'en', weight: 3 } } });
        expect([res.status, docOf(res).data.id]).toEqual([201, '1_sci_en']);
        const missing = await api.call(undefined, 'POST', '/bookTag', { data: { type: 'bookTag', attributes: { bookId: 2, tagKey: 'sci', tagLang: 'en' } } });
        expect(missing.status).toBe(404);
        expect(await api.s.prisma.bookTag.findMany()).toEqual([{ bookId: 1, tagKey: 'sci', tagLang: 'en', weight: 3 }]);
    });
});

describe('a DateTime id in the URL', () => {
    const READINGS = `
model Reading {
  at    DateTime @id
  value Int
  @@allow('all', true)
}
`;
    const MARCH_1 = new Date('2024-03-01T00:00:00.000Z');

    beforeEach(async () => {
        api = await openApi(READINGS);
        await api.s.prisma.reading.create({ data: { at: MARCH_1, value: 1 } });
    });

    it('is read in ISO 8601 only, and a day the calendar lacks names nothing (new Date() read both as March 1st)', async () => {
        const iso = await api.call(undefined, 'GET', `/reading/${encodeURIComponent(MARCH_1.toISOString())}`);
        expect([iso.status, docOf(iso).data.attributes.value]).toEqual([200, 1]);
        for (const id of ['Feb 30 2024', '2024-02-30T00:00:00.000Z', '1709251200000']) {
            const res = await api.call(undefined, 'GET', `/reading/${encodeURIComponent(id)}`);
            expect([id, res.status, firstError(res).code]).toEqual([id, 400, 'invalid-id']);
        }
        const patched = await api.call(undefined, 'PATCH', `/reading/${encodeURIComponent('Feb 30 2024')}`, { data: { type: 'reading', attributes: { value: 2 } } });
        expect(patched.status).toBe(400);
        expect((await api.s.prisma.reading.findUnique({ where: { at: MARCH_1 } })).value).toBe(1);
    });
});
