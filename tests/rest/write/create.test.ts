import { ENDPOINT, LIBRARY_SCHEMA } from './fixtures';
import { BLOG_MODELS, docOf, errorsOf, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

// POST /:type beyond the core suite: ids chosen by the client, defaults, Json null, include,
// foreign-key attributes, validation (zod and the enhanced client), missing related records.

let api: Api;
afterEach(async () => {
    await api?.cleanup();
});

describe('create on the blog', () => {
    beforeEach(async () => {
        api = await openApi();
    });

    it('uses a client-supplied id and fills defaults for what is not sent', async () => {
        const res = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', id: 'my-id' } });
        expect(res.status).toBe(201);
        expect(docOf(res).data).toMatchObject({ type: 'allTypes', id: 'my-id', attributes: { string: '', int: 0, bigInt: '0', role: 'USER', bytes: null } });
        expect(res.headers?.Location).toBe(`${ENDPOINT}/allTypes/my-id`);
        expect(await api.s.prisma.allTypes.findUnique({ where: { id: 'my-id' } })).not.toBeNull();
    });

    it('generates the id when none is sent (cuid) and links to it', async () => {
        const res = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', attributes: { int: 3 } } });
        expect(res.status).toBe(201);
        const id = docOf(res).data.id;
        expect(typeof id).toBe('string');
        expect(res.headers?.Location).toBe(`${ENDPOINT}/allTypes/${id}`);
    });

    it("accepts Bytes in superjson's Uint8Array form and refuses one that would not survive it", async () => {
        const send = (bytes: unknown, tag: unknown = ['typed-array', 'Uint8Array']) =>
            api.call(undefined, 'POST', '/allTypes', {
                data: { type: 'allTypes', attributes: { string: 'ta', bytes } },
                meta: { serialization: { values: { 'data.attributes.bytes': [tag] } } },
            });
        const ok = await send([1, 2, 255]);
        expect(ok.status).toBe(201);
        expect(docOf(ok).data.attributes.bytes).toBe('AQL/');
        // superjson alone stored 300 as 44, and a string as no bytes at all
        for (const [bytes, tag] of [[[1, 2, 300]], ['AQID'], [[0.5]], [[1], ['typed-array', 'Float64Array']]] as [unknown, unknown?][]) {
            const res = await send(bytes, tag);
            expect(res.status).toBe(400);
            expect(firstError(res).source?.pointer).toBe('/data/attributes/bytes');
        }
        expect(await api.s.prisma.allTypes.count({ where: { string: 'ta' } })).toBe(1);
    });

    it('refuses typed values a Json column would store changed or drop (Map, Set, Error, NaN, BigInt, bytes); keeps dates', async () => {
        const send = (json: unknown, tags: Record<string, unknown>) =>
            api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', attributes: { string: 'js', json } }, meta: { serialization: { values: tags } } });
        const cases: [unknown, Record<string, unknown>, RegExp][] = [
            [[[1, 2]], { 'data.attributes.json': ['map'] }, /a Map/], // was stored as {}
            [[1], { 'data.attributes.json': ['set'] }, /a Set/],
            // refused before superjson builds the Set, which finds a member by counting from the first: with a tagged
            // path into each of 20,000 members, 2.5 s of CPU (quadratic)
            [[1, 2], { 'data.attributes.json': ['set'], 'data.attributes.json.0': ['Date'], 'data.attributes.json.1': ['Date'] }, /tagged as a Set/],
            [[[1, 2]], { 'data.attributes.json': ['map', { '0.1': ['Date'] }] }, /tagged as a Map/],
            [{ name: 'E', message: 'm' }, { 'data.attributes.json': ['Error'] }, /got an Error/], // was stored without its message
            [{ n: 'NaN' }, { 'data.attributes.json.n': ['number'] }, /got NaN/], // was stored as null
            ['5', { 'data.attributes.json': ['bigint'] }, /got a bigint/],
            [[1, 2], { 'data.attributes.json': [['typed-array', 'Uint8Array']] }, /got bytes/],
        ];
        for (const [json, tags, detail] of cases) {
            const res = await send(json, tags);
            expect(res.status).toBe(400);
            expect(firstError(res)).toMatchObject({ code: 'invalid-payload', source: { pointer: '/data/attributes/json' } });
            expect(firstError(res).detail).toMatch(detail);
        }
        expect(await api.s.prisma.allTypes.count({ where: { string: 'js' } })).toBe(0);
        // a long array is walked without overflowing anything; a deep one is refused before the ORM
        // recurses into it (at 5,000 levels its stack overflowed: a 500)
        const long = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', id: 'long', attributes: { json: new Array(300_000).fill(0) } } });
        expect(long.status).toBe(201);
        let deep: unknown = 1;
        for (let i = 0; i < 20_000; i++) deep = [deep];
        const tooDeep = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', attributes: { string: 'js', json: deep } } });
        expect(tooDeep.status).toBe(400);
        expect(firstError(tooDeep).detail).toMatch(/nested too deeply \(more than 256 levels\)/);
        const dated = await send({ at: '2024-01-02T03:04:05.000Z' }, { 'data.attributes.json.at': ['Date'] });
        expect(dated.status).toBe(201);
        expect(docOf(dated).data.attributes.json).toEqual({ at: '2024-01-02T03:04:05.000Z' });
    });

    it('stores plain null in a Json attribute as database NULL, a tagged JsonNull as JSON null', async () => {
        const res = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', id: 'j', attributes: { json: null, bytes: null } } });
        expect(res.status).toBe(201);
        expect(docOf(res).data.attributes).toMatchObject({ json: null, bytes: null });
        const tagged = await api.call(undefined, 'POST', '/allTypes', {
            data: { type: 'allTypes', id: 'k', attributes: { json: null } },
            meta: { serialization: { values: { 'data.attributes.json': [['custom', 'JsonNull']] } } },
        });
        expect(tagged.status).toBe(201);
        const raw = await api.s.prisma.$queryRawUnsafe('SELECT "id", "json" IS NULL AS "dbnull" FROM "AllTypes" ORDER BY "id"');
        expect((raw as Array<{ id: string; dbnull: unknown }>).map((r) => [r.id, Number(r.dbnull)])).toEqual([
            ['j', 1], // plain null clears the optional column
            ['k', 0], // tagged JsonNull stores a JSON null value
        ]);
        const misplaced = await api.call(undefined, 'POST', '/allTypes', {
            data: { type: 'allTypes', attributes: { string: null } },
            meta: { serialization: { values: { 'data.attributes.string': [['custom', 'DbNull']] } } },
        });
        expect([misplaced.status, firstError(misplaced).source?.pointer]).toEqual([400, '/data/attributes/string']);
        // AnyNull is a filter's marker, no value to write (it reached Prisma, whose refusal had no pointer; a review on 2026-12-01)
        const anyNull = await api.call(undefined, 'POST', '/allTypes', {
            data: { type: 'allTypes', id: 'm', attributes: { json: null } },
            meta: { serialization: { values: { 'data.attributes.json': [['custom', 'AnyNull']] } } },
        });
        expect([anyNull.status, firstError(anyNull).source?.pointer, firstError(anyNull).detail]).toEqual([400, '/data/attributes/json', expect.stringMatching(/cannot be written AnyNull/)]);
        expect(await api.s.prisma.allTypes.count({ where: { id: 'm' } })).toBe(0);
    });

    it('returns the included relationships asked for with ?include, and rejects a bad parameter before writing', async () => {
        const ids = await seedBlog(api.s);
        const body = { data: { type: 'post', attributes: { title: 'inc' }, relationships: { author: { data: { type: 'user', id: ids.u1 } } } } };
        const res = await api.call({ id: ids.u1 }, 'POST', '/post', body, { query: { include: 'author' } });
        expect(res.status).toBe(201);
        expect(docOf(res).included).toEqual([expect.objectContaining({ type: 'user', id: ids.u1 })]);

        const before = await snapshot(api.s, BLOG_MODELS);
        const bad = await api.call({ id: ids.u1 }, 'POST', '/post', body, { query: { include: 'nope' } });
        expect(bad.status).toBe(400);
        const sorted = await api.call({ id: ids.u1 }, 'POST', '/post', body, { query: { sort: 'title' } });
        expect(sorted.status).toBe(400);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('turns a foreign-key attribute into a policy-checked connect', async () => {
        const ids = await seedBlog(api.s);
        const own = await api.call({ id: ids.u1 }, 'POST', '/post', { data: { type: 'post', attributes: { title: 'fk', authorId: ids.u1 } } });
        expect(own.status).toBe(201);
        expect(docOf(own).data.attributes.authorId).toBe(ids.u1);
        const other = await api.call({ id: ids.u1 }, 'POST', '/post', { data: { type: 'post', attributes: { title: 'fk', authorId: ids.u2 } } });
        expect([other.status, firstError(other).code]).toEqual([403, 'forbidden']);
        expect(await api.s.prisma.post.count({ where: { title: 'fk' } })).toBe(1);
    });

    it('accepts a foreign key that agrees with the relationship, rejects one that does not', async () => {
        const ids = await seedBlog(api.s);
        const agree = await api.call({ id: ids.u1 }, 'POST', '/post', {
            data: { type: 'post', attributes: { title: 'a', authorId: ids.u1 }, relationships: { author: { data: { type: 'user', id: String(ids.u1) } } } },
        });
        expect(agree.status).toBe(201);
        const conflict = await api.call({ id: ids.u1 }, 'POST', '/post', {
            data: { type: 'post', attributes: { title: 'b', authorId: ids.u2 }, relationships: { author: { data: { type: 'user', id: ids.u1 } } } },
        });
        expect([conflict.status, firstError(conflict).source?.pointer]).toEqual([400, '/data/attributes/authorId']);
        expect(await api.s.prisma.post.count({ where: { title: 'b' } })).toBe(0);
    });

    it('answers 404 with a pointer when a related record does not exist or is not visible', async () => {
        const ids = await seedBlog(api.s);
        const before = await snapshot(api.s, BLOG_MODELS);
        const missing = await api.call({ id: ids.u1 }, 'POST', '/comment', {
            data: { type: 'comment', attributes: { content: 'c' }, relationships: { post: { data: { type: 'post', id: 424242 } } } },
        });
        expect([missing.status, firstError(missing).code, firstError(missing).source?.pointer]).toEqual([404, 'not-found', '/data/relationships/post/data']);
        const hidden = await api.call({ id: ids.u1 }, 'POST', '/comment', {
            data: { type: 'comment', attributes: { content: 'c' }, relationships: { post: { data: { type: 'post', id: ids.u2draft } } } },
        });
        expect([hidden.status, firstError(hidden).source?.pointer]).toEqual([404, '/data/relationships/post/data']);
        // the same link given as the foreign-key attribute: the same answers, pointing at the attribute (a 403 for
        // the hidden post, against a 404 for a missing one, would tell that it exists)
        const byKey = async (postId: number) =>
            api.call({ id: ids.u1 }, 'POST', '/comment', { data: { type: 'comment', attributes: { content: 'c', postId } } });
        for (const res of [await byKey(424242), await byKey(ids.u2draft)]) {
            expect([res.status, firstError(res).code, firstError(res).source?.pointer]).toEqual([404, 'not-found', '/data/attributes/postId']);
        }
        expect(firstError(await byKey(ids.u2draft)).detail).toBe(firstError(await byKey(424242)).detail?.replace('424242', String(ids.u2draft)));
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
        const ok = await api.call({ id: ids.u2 }, 'POST', '/comment', {
            data: { type: 'comment', attributes: { content: 'c' }, relationships: { post: { data: { type: 'post', id: ids.pub } } } },
        });
        expect(ok.status).toBe(201);
        expect(docOf(ok).data.attributes).toEqual({ content: 'c', postId: ids.pub });
    });

    it('validates with the zod schemas when given: 422, one error per issue, nothing written', async () => {
        const ids = await seedBlog(api.s);
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call({ id: ids.u1 }, 'POST', '/post', { data: { type: 'post', attributes: { title: 'x'.repeat(201) } } }, { zod: true });
        expect(res.status).toBe(422);
        expect(errorsOf(res)).toEqual([expect.objectContaining({ status: 422, code: 'validation-error', reason: 'DATA_VALIDATION_VIOLATION', source: { pointer: '/data/attributes/title' } })]);
        const two = await api.call(undefined, 'POST', '/user', { data: { type: 'user', attributes: { name: 'no email', role: 'ROOT' } } }, { zod: true });
        expect(two.status).toBe(400); // the enum value is checked while reading the body (pointer to it)
        expect(firstError(two).source?.pointer).toBe('/data/attributes/role');
        const missing = await api.call(undefined, 'POST', '/user', { data: { type: 'user', attributes: { name: 'no email' } } }, { zod: true });
        expect([missing.status, firstError(missing).source?.pointer]).toEqual([422, '/data/attributes/email']);
        const several = await api.call({ id: ids.u1 }, 'POST', '/profile', { data: { type: 'profile', attributes: {} } }, { zod: true });
        expect(several.status).toBe(422);
        expect(errorsOf(several).map((e) => e.source?.pointer).sort()).toEqual(['/data/attributes/gender', '/data/attributes/userId']);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('answers 422 from the enhanced client’s own validation without zod schemas', async () => {
        const ids = await seedBlog(api.s);
        const res = await api.call({ id: ids.u1 }, 'POST', '/post', {
            data: { type: 'post', attributes: { title: '' }, relationships: { author: { data: { type: 'user', id: ids.u1 } } } },
        });
        expect([res.status, firstError(res).code, firstError(res).reason]).toEqual([422, 'validation-error', 'DATA_VALIDATION_VIOLATION']);
        expect(await api.s.prisma.post.count({ where: { title: '' } })).toBe(0);
    });

    it('creates a profile for oneself through its to-one relationship, not for someone else', async () => {
        const ids = await seedBlog(api.s);
        const body = (user: number) => ({ data: { type: 'profile', attributes: { gender: 'f' }, relationships: { user: { data: { type: 'user', id: user } } } } });
        expect((await api.call({ id: ids.u1 }, 'POST', '/profile', body(ids.u2))).status).toBe(403);
        const mine = await api.call({ id: ids.u1 }, 'POST', '/profile', body(ids.u1));
        expect(mine.status).toBe(201);
        expect(docOf(mine).data.relationships.user.data).toEqual({ type: 'user', id: ids.u1 });
        expect(await api.s.prisma.profile.count()).toBe(1);
    });

    it('answers 409 for a duplicate client-supplied id', async () => {
        await api.s.prisma.allTypes.create({ data: { id: 'dup' } });
        const res = await api.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', id: 'dup', attributes: { int: 5 } } });
        expect([res.status, firstError(res).ormCode]).toEqual([409, 'P2002']);
        expect((await api.s.prisma.allTypes.findUnique({ where: { id: 'dup' } })).int).toBe(0);
    });
});

describe('create on other schema shapes', () => {
    beforeEach(async () => {
        api = await openApi(LIBRARY_SCHEMA);
    });

    it('creates records with compound ids, compound foreign keys and Int ids given as strings', async () => {
        const book = await api.call(undefined, 'POST', '/book', { data: { type: 'book', id: '12', attributes: { title: 'B' } } });
        expect([book.status, docOf(book).data.id]).toEqual([201, 12]);
        const tag = await api.call(undefined, 'POST', '/tag', { data: { type: 'tag', id: 'sci_en', attributes: { label: 'Science' } } });
        expect([tag.status, docOf(tag).data.id]).toEqual([201, 'sci_en']);
        expect(tag.headers?.Location).toBe(`${ENDPOINT}/tag/sci_en`);

        const link = await api.call(undefined, 'POST', '/bookTag', {
            data: {
                type: 'bookTag',
                attributes: { weight: 5 },
                relationships: { book: { data: { type: 'book', id: 12 } }, tag: { data: { type: 'tag', id: 'sci_en' } } },
            },
        });
        expect(link.status).toBe(201);
        expect(docOf(link).data).toMatchObject({ id: '12_sci_en', attributes: { weight: 5 } });
        expect(await api.s.prisma.bookTag.findMany()).toEqual([{ bookId: 12, tagKey: 'sci', tagLang: 'en', weight: 5 }]);

        const byId = await api.call(undefined, 'POST', '/bookTag', { data: { type: 'bookTag', id: '12_sci_fr' } });
        expect(byId.status).toBe(404); // the tag sci/fr does not exist: the id's foreign keys connect
        expect(await api.s.prisma.bookTag.count()).toBe(1);
    });

    it('answers RESULT_NOT_READABLE for a model that may be created but never read, and keeps the row', async () => {
        const res = await api.call(undefined, 'POST', '/note', { data: { type: 'note', attributes: { text: 'secret' } } });
        expect([res.status, firstError(res).reason]).toEqual([403, 'RESULT_NOT_READABLE']);
        expect(await api.s.prisma.note.count()).toBe(1);
        // it cannot be read (nor deleted): a DELETE is a 404 whether or not the id exists, telling nothing
        const id = (await api.s.prisma.note.findFirst()).id;
        for (const target of [id, id + 100]) {
            const del = await api.call(undefined, 'DELETE', `/note/${target}`);
            expect([del.status, firstError(del).code]).toEqual([404, 'not-found']);
        }
        expect(await api.s.prisma.note.count()).toBe(1);
    });
});
