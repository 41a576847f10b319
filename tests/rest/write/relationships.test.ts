import { ENDPOINT, LIBRARY_SCHEMA } from './fixtures';
import { BLOG_MODELS, docOf, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

// POST / PATCH / PUT / DELETE on /:type/:id/relationships/:rel, and PATCH/PUT on /:type/:id/:rel (to-one).

let api: Api;
afterEach(async () => {
    await api?.cleanup();
});

describe('relationship endpoints on the blog', () => {
    let ids: Awaited<ReturnType<typeof seedBlog>>;
    beforeEach(async () => {
        api = await openApi();
        ids = await seedBlog(api.s);
    });
    const authorOf = async (post: number) => (await api.s.prisma.post.findUnique({ where: { id: post } })).authorId;

    it('answers with the relationship document (links, total)', async () => {
        const res = await api.call({ id: ids.u1 }, 'POST', `/user/${ids.u1}/relationships/posts`, { data: [] });
        expect(res.status).toBe(200);
        expect(res.headers?.['content-type']).toBe('application/vnd.api+json');
        const doc = docOf(res);
        expect(doc.data).toEqual([
            { type: 'post', id: ids.draft },
            { type: 'post', id: ids.pub },
        ]);
        expect(doc.links.self).toBe(`${ENDPOINT}/user/${ids.u1}/relationships/posts`);
        expect(doc.meta.total).toBe(2);
    });

    it('adds and removes members of a to-many relationship, leaving the others alone', async () => {
        await api.s.prisma.post.update({ where: { id: ids.draft }, data: { authorId: null } });
        await api.s.prisma.post.update({ where: { id: ids.draft }, data: { published: true } });
        // an unowned published post: readable, but its update rule needs its author: denied
        const add = await api.call({ id: ids.u1 }, 'POST', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: String(ids.draft) }] });
        expect(add.status).toBe(403);
        expect(await authorOf(ids.draft)).toBeNull();

        const remove = await api.call({ id: ids.u1 }, 'DELETE', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: ids.pub }] });
        expect(remove.status).toBe(200);
        expect(docOf(remove).data).toEqual([]);
        expect(await authorOf(ids.pub)).toBeNull();
        expect((await api.s.prisma.post.findUnique({ where: { id: ids.pub } })).title).toBe('pub');
        // removing a record that is not a member changes nothing
        const again = await api.call({ id: ids.u1 }, 'DELETE', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: ids.pub }] });
        expect(again.status).toBe(200);
    });

    it('removing non-members from a relationship with a required foreign key changes nothing (200); removing a member is refused', async () => {
        const other = await api.s.prisma.post.create({ data: { title: 'other', published: true, authorId: ids.u1 } });
        const before = await snapshot(api.s, BLOG_MODELS);
        for (const data of [[{ type: 'comment', id: ids.comment }], [], [{ type: 'comment', id: '999' }]]) {
            const res = await api.call({ id: ids.u1 }, 'DELETE', `/post/${other.id}/relationships/comments`, { data });
            expect(res.status).toBe(200);
            expect(docOf(res).data).toEqual([]);
        }
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
        // a member cannot be detached: its foreign key is required
        const member = await api.call({ id: ids.u1 }, 'DELETE', `/post/${ids.pub}/relationships/comments`, { data: [{ type: 'comment', id: ids.comment }] });
        expect(member.status).toBe(400);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('adding members already present succeeds and changes nothing, also for a user who may not update them (JSON:API)', async () => {
        const orphan = await api.s.prisma.post.create({ data: { title: 'orphan', published: true } });
        const before = await snapshot(api.s, BLOG_MODELS);
        // user 2 reads the published post and its comment, but only the post's author may update the comment
        const present = await api.call({ id: ids.u2 }, 'POST', `/post/${ids.pub}/relationships/comments`, { data: [{ type: 'comment', id: ids.comment }] });
        expect([present.status, docOf(present).data]).toEqual([200, [{ type: 'comment', id: ids.comment }]]);
        const posts = await api.call({ id: ids.u2 }, 'POST', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: ids.pub }] });
        expect([posts.status, docOf(posts).data]).toEqual([200, [{ type: 'post', id: ids.pub }]]);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
        // a present member beside a new one: the new one is attached under its rule (denied here: nothing changes)
        const mixed = await api.call({ id: ids.u2 }, 'POST', `/user/${ids.u1}/relationships/posts`, {
            data: [{ type: 'post', id: ids.pub }, { type: 'post', id: orphan.id }],
        });
        expect([mixed.status, firstError(mixed).code]).toEqual([403, 'forbidden']);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('adds a comment to a post (to-many, foreign key on the other side)', async () => {
        const other = await api.s.prisma.post.create({ data: { title: 'other', published: true, authorId: ids.u1 } });
        const res = await api.call({ id: ids.u1 }, 'POST', `/post/${other.id}/relationships/comments`, { data: [{ type: 'comment', id: ids.comment }] });
        expect(res.status).toBe(200);
        expect(docOf(res).data).toEqual([{ type: 'comment', id: ids.comment }]);
        expect((await api.s.prisma.comment.findUnique({ where: { id: ids.comment } })).postId).toBe(other.id);
    });

    it('replaces a to-one relationship with an identifier or null, also at /:type/:id/:rel', async () => {
        const viaRelated = await api.call({ id: ids.u1 }, 'PATCH', `/post/${ids.pub}/author`, { data: null });
        expect(viaRelated.status).toBe(200);
        expect(docOf(viaRelated).data).toBeNull();
        expect(await authorOf(ids.pub)).toBeNull();
        const put = await api.call({ id: ids.u1 }, 'PUT', `/post/${ids.draft}/relationships/author`, { data: { type: 'user', id: ids.u1 } });
        expect(put.status).toBe(200);
        expect(docOf(put).data).toEqual({ type: 'user', id: ids.u1 });
    });

    it('replaces the non-owning side of a one-to-one relationship', async () => {
        const profile = await api.s.prisma.profile.create({ data: { gender: 'x', userId: ids.u1 } });
        const res = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}/relationships/profile`, { data: { type: 'profile', id: profile.id } });
        expect(res.status).toBe(200);
        expect(docOf(res).data).toEqual({ type: 'profile', id: profile.id });
        // the profile's user is required: clearing it is rejected by the data layer, nothing changes
        const clear = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}/relationships/profile`, { data: null });
        expect(clear.status).toBeGreaterThanOrEqual(400);
        expect(clear.status).toBeLessThan(500);
        expect(await api.s.prisma.profile.count({ where: { userId: ids.u1 } })).toBe(1);
    });

    it('rejects misuse of the relationship endpoints with 4xx and writes nothing', async () => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const me = { id: ids.u1 };
        const cases: Array<[string, string, unknown, number, string]> = [
            ['POST', `/post/${ids.pub}/relationships/author`, { data: { type: 'user', id: ids.u1 } }, 400, 'invalid-verb'],
            ['DELETE', `/post/${ids.pub}/relationships/author`, { data: null }, 400, 'invalid-verb'],
            ['PATCH', `/user/${ids.u1}/posts`, { data: [] }, 400, 'invalid-verb'],
            ['PATCH', `/user/${ids.u1}/relationships/nope`, { data: [] }, 404, 'unsupported-relationship'],
            ['PATCH', `/user/${ids.u1}/relationships/posts`, { data: { type: 'post', id: ids.pub } }, 400, 'invalid-payload'],
            ['PATCH', `/user/${ids.u1}/relationships/posts`, {}, 400, 'invalid-payload'],
            ['PATCH', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'user', id: 1 }] }, 400, 'invalid-payload'],
            ['PATCH', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: 'one' }] }, 400, 'invalid-id'],
            ['PATCH', `/post/${ids.pub}/relationships/author`, { data: [] }, 400, 'invalid-payload'],
            ['PATCH', `/comment/${ids.comment}/relationships/post`, { data: null }, 400, 'invalid-payload'],
            ['POST', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: 31337 }] }, 404, 'not-found'],
            ['PATCH', `/user/999/relationships/posts`, { data: [] }, 404, 'not-found'],
        ];
        for (const [method, path, body, status, code] of cases) {
            const res = await api.call(me, method, path, body);
            expect({ method, path, body, status: res.status, code: firstError(res).code }).toEqual({ method, path, body, status, code });
        }
        const withQuery = await api.call(me, 'PATCH', `/user/${ids.u1}/relationships/posts`, { data: [] }, { query: { include: 'posts' } });
        expect(withQuery.status).toBe(400);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('never detaches, on replacement, a member the user may not update or cannot see', async () => {
        const u2pub = await api.s.prisma.post.create({ data: { title: 'u2 pub', published: true, authorId: ids.u2 } });
        // user 2's published post is visible to user 1, but only its author may change it
        const denied = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u2}/relationships/posts`, { data: [] });
        expect([denied.status, firstError(denied).code]).toEqual([403, 'forbidden']);
        await api.s.prisma.post.delete({ where: { id: u2pub.id } });
        // user 2's draft is invisible to user 1: the set user 1 sees is empty already, the draft stays
        const noop = await api.call({ id: ids.u1 }, 'PUT', `/user/${ids.u2}/relationships/posts`, { data: [] });
        expect(noop.status).toBe(200);
        expect(await authorOf(ids.u2draft)).toBe(ids.u2);
        // the same through a resource update
        const viaUpdate = await api.call({ id: ids.u2 }, 'PATCH', `/user/${ids.u2}`, { data: { type: 'user', relationships: { posts: { data: [] } } } });
        expect(viaUpdate.status).toBe(200);
        expect(await authorOf(ids.u2draft)).toBeNull(); // user 2 sees and owns it: detached
        // an anonymous user cannot see users at all: 404, nothing written
        const anon = await api.call(undefined, 'PATCH', `/user/${ids.u1}/relationships/posts`, { data: [] });
        expect(anon.status).toBe(404);
        expect(await authorOf(ids.pub)).toBe(ids.u1);
    });

    it('checks the owner record’s own policy on a to-one change (its foreign key changes)', async () => {
        const steal = await api.call({ id: ids.u2 }, 'PATCH', `/post/${ids.pub}/relationships/author`, { data: { type: 'user', id: ids.u2 } });
        expect([steal.status, firstError(steal).code]).toEqual([403, 'forbidden']);
        const clear = await api.call({ id: ids.u2 }, 'PATCH', `/post/${ids.pub}/author`, { data: null });
        expect(clear.status).toBe(403);
        const comment = await api.call({ id: ids.u2 }, 'PATCH', `/comment/${ids.comment}/relationships/post`, { data: { type: 'post', id: ids.u2draft } });
        expect(comment.status).toBe(403);
        expect(await authorOf(ids.pub)).toBe(ids.u1);
        expect((await api.s.prisma.comment.findUnique({ where: { id: ids.comment } })).postId).toBe(ids.pub);
    });

    it('points at the identifier that names a missing record', async () => {
        const res = await api.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}/relationships/posts`, {
            data: [{ type: 'post', id: ids.pub }, { type: 'post', id: 5555 }],
        });
        expect([res.status, firstError(res).source?.pointer]).toEqual([404, '/data/1']);
        expect(await authorOf(ids.draft)).toBe(ids.u1);
    });
});

describe('relationship endpoints with compound ids', () => {
    it('replaces, adds and removes with compound identifiers given as strings', async () => {
        api = await openApi(LIBRARY_SCHEMA);
        const author = await api.s.prisma.author.create({ data: { name: 'A' } });
        await api.s.prisma.book.create({ data: { id: 1, title: 'one' } });
        await api.s.prisma.book.create({ data: { id: 2, title: 'two' } });
        await api.s.prisma.tag.create({ data: { key: 'sci', lang: 'en' } });
        await api.s.prisma.bookTag.create({ data: { bookId: 1, tagKey: 'sci', tagLang: 'en' } });

        const add = await api.call(undefined, 'POST', `/author/${author.id}/relationships/books`, { data: [{ type: 'book', id: '1' }, { type: 'book', id: 2 }] });
        expect(add.status).toBe(200);
        expect(docOf(add).data).toEqual([
            { type: 'book', id: 1 },
            { type: 'book', id: 2 },
        ]);
        const remove = await api.call(undefined, 'DELETE', `/author/${author.id}/relationships/books`, { data: [{ type: 'book', id: '2' }] });
        expect(docOf(remove).data).toEqual([{ type: 'book', id: 1 }]);

        const tags = await api.call(undefined, 'GET', '/book/1/relationships/tags');
        expect(docOf(tags).data).toEqual([{ type: 'bookTag', id: '1_sci_en' }]);
        // a BookTag's book is part of its id: moving it is a data-layer matter, not a 500
        const move = await api.call(undefined, 'POST', '/book/2/relationships/tags', { data: [{ type: 'bookTag', id: '1_sci_en' }] });
        expect(move.status).toBeLessThan(500);
    });

    it('removes and replaces members with a compound id, each detach checked under the member\'s update rule', async () => {
        api = await openApi(`
model Hall {
  id    Int    @id
  seats Seat[]
  @@allow('all', true)
}
model Seat {
  row    Int
  num    Int
  locked Boolean @default(false)
  hall   Hall?   @relation(fields: [hallId], references: [id])
  hallId Int?
  @@id([row, num])
  @@allow('read,create', true)
  @@allow('update', !locked)
}
`);
        await api.s.prisma.hall.create({ data: { id: 1 } });
        await api.s.prisma.seat.createMany({
            data: [
                { row: 1, num: 1, hallId: 1 },
                { row: 1, num: 2, hallId: 1 },
                { row: 2, num: 1, hallId: 1 },
                { row: 9, num: 9, hallId: 1, locked: true },
            ],
        });
        const hallOf = async () =>
            Object.fromEntries((await api.s.prisma.seat.findMany({ orderBy: [{ row: 'asc' }, { num: 'asc' }] })).map((r: { row: number; num: number; hallId: number | null }) => [`${r.row}_${r.num}`, r.hallId]));
        const seat = (id: string) => ({ type: 'seat', id });

        const removed = await api.call(undefined, 'DELETE', '/hall/1/relationships/seats', { data: [seat('1_1')] });
        expect([removed.status, docOf(removed).data]).toEqual([200, [seat('1_2'), seat('2_1'), seat('9_9')]]);
        // a locked member is not detached, and nothing else is either
        const locked = await api.call(undefined, 'PATCH', '/hall/1/relationships/seats', { data: [seat('1_2')] });
        expect(locked.status).toBe(403);
        expect(await hallOf()).toEqual({ '1_1': null, '1_2': 1, '2_1': 1, '9_9': 1 });
        await api.s.prisma.seat.update({ where: { row_num: { row: 9, num: 9 } }, data: { locked: false } });
        const replaced = await api.call(undefined, 'PATCH', '/hall/1/relationships/seats', { data: [seat('1_2'), seat('1_1')] });
        expect([replaced.status, docOf(replaced).data]).toEqual([200, [seat('1_1'), seat('1_2')]]);
        const cleared = await api.call(undefined, 'PATCH', '/hall/1', { data: { type: 'hall', id: '1', relationships: { seats: { data: [] } } } });
        expect(cleared.status).toBe(200);
        expect(await hallOf()).toEqual({ '1_1': null, '1_2': null, '2_1': null, '9_9': null });
        // an upsert that updates replaces them the same way
        await api.s.prisma.seat.updateMany({ data: { hallId: 1 } });
        const upsert = { data: { type: 'hall', attributes: { id: 1 }, relationships: { seats: { data: [seat('2_1')] } } }, meta: { operation: 'upsert', matchFields: ['id'] } };
        expect((await api.call(undefined, 'POST', '/hall', upsert)).status).toBe(201);
        expect(await hallOf()).toEqual({ '1_1': null, '1_2': null, '2_1': 1, '9_9': null });
    });

    it('a compound-id member whose link is required is not detached (400), and nothing changes', async () => {
        api = await openApi(LIBRARY_SCHEMA);
        await api.s.prisma.book.create({ data: { id: 1, title: 'one' } });
        await api.s.prisma.tag.create({ data: { key: 'sci', lang: 'en' } });
        await api.s.prisma.bookTag.create({ data: { bookId: 1, tagKey: 'sci', tagLang: 'en' } });
        for (const [method, body] of [
            ['DELETE', { data: [{ type: 'bookTag', id: '1_sci_en' }] }],
            ['PATCH', { data: [] }],
        ] as const) {
            const res = await api.call(undefined, method, '/book/1/relationships/tags', body);
            expect([method, res.status, firstError(res).code]).toEqual([method, 400, 'orm-error']);
        }
        expect(await api.s.prisma.bookTag.count()).toBe(1);
    });

    it('replacing a to-one relationship that is part of a compound id answers for the record under its new id', async () => {
        api = await openApi(LIBRARY_SCHEMA);
        await api.s.prisma.book.create({ data: { id: 1, title: 'one' } });
        await api.s.prisma.book.create({ data: { id: 2, title: 'two' } });
        await api.s.prisma.tag.create({ data: { key: 'sci', lang: 'en' } });
        await api.s.prisma.bookTag.create({ data: { bookId: 1, tagKey: 'sci', tagLang: 'en', weight: 3 } });

        // the write moves the link to book 2, so the record's id becomes 2_sci_en (as with 2.x: 200)
        const res = await api.call(undefined, 'PATCH', '/bookTag/1_sci_en/relationships/book', { data: { type: 'book', id: 2 } });
        expect(res.status).toBe(200);
        expect(docOf(res).data).toEqual({ type: 'book', id: 2 });
        expect(docOf(res).links.self).toBe(`${ENDPOINT}/bookTag/2_sci_en/relationships/book`);
        expect(await api.s.prisma.bookTag.findMany()).toEqual([{ bookId: 2, tagKey: 'sci', tagLang: 'en', weight: 3 }]);

        const related = await api.call(undefined, 'PUT', '/bookTag/2_sci_en/book', { data: { type: 'book', id: 1 } });
        expect([related.status, docOf(related).data]).toEqual([200, { type: 'book', id: 1 }]);
        expect(await api.s.prisma.bookTag.findMany()).toEqual([{ bookId: 1, tagKey: 'sci', tagLang: 'en', weight: 3 }]);
    });
});
