import Decimal from 'decimal.js';
import { requirePg } from '../../support/postgres';
import type { Provider } from '../../support/schema';
import { ALL_TYPES_TAGS, ENDPOINT } from './fixtures';
import { BLOG_MODELS, docOf, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

/**
 * The core write behaviour, run on every provider (core.test.ts: SQLite and PostgreSQL). Each test
 * gets a fresh database.
 */
export function defineCoreWriteTests(provider: Provider): void {
    let api: Api | undefined;
    const open = async (): Promise<Api | undefined> => {
        if (provider === 'postgresql' && !(await requirePg())) return undefined;
        api = await openApi(undefined, provider);
        return api;
    };
    afterEach(async () => {
        await api?.cleanup();
        api = undefined;
    });

    it('creates with to-one and to-many relationships: 201, Location, the document a GET returns', async () => {
        const a = await open();
        if (!a) return;
        const ids = await seedBlog(a.s);
        const res = await a.call({ id: ids.u1 }, 'POST', '/post', {
            data: {
                type: 'post',
                attributes: { title: 'hello', published: true },
                relationships: { author: { data: { type: 'user', id: String(ids.u1) } }, comments: { data: [{ type: 'comment', id: ids.comment }] } },
            },
        });
        expect(res.status).toBe(201);
        const doc = docOf(res);
        const id = doc.data.id;
        expect(typeof id).toBe('number');
        expect(doc.data.links.self).toBe(`${ENDPOINT}/post/${id}`);
        expect(res.headers?.Location).toBe(`${ENDPOINT}/post/${id}`);
        expect(res.headers?.['content-type']).toBe('application/vnd.api+json');
        expect(doc.data.attributes).toMatchObject({ title: 'hello', published: true, viewCount: 0, authorId: ids.u1 });

        const get = await a.call({ id: ids.u1 }, 'GET', `/post/${id}`);
        expect(get.status).toBe(200);
        expect(docOf(get).data).toEqual(doc.data);

        const row = await a.s.prisma.post.findUnique({ where: { id }, include: { comments: true } });
        expect(row.authorId).toBe(ids.u1);
        expect(row.comments.map((c: { id: number }) => c.id)).toEqual([ids.comment]);
        // the connected comment was attached, not otherwise modified
        expect(row.comments[0].content).toBe('nice');
    });

    it('stores typed values identically from plain JSON and from meta.serialization', async () => {
        const a = await open();
        if (!a) return;
        const attributes = {
            string: 's',
            int: 7,
            float: 1.25,
            boolean: true,
            dateTime: '2024-02-03T04:05:06.789Z',
            bigInt: '9007199254740993',
            decimal: '123.456',
            bytes: 'AAECAwT/',
            json: { nested: [1, 'two', null] },
            role: 'ADMIN',
        };
        const plain = await a.call(undefined, 'POST', '/allTypes', { data: { type: 'allTypes', id: 'plain1', attributes } });
        const tagged = await a.call(undefined, 'POST', '/allTypes', {
            data: { type: 'allTypes', id: 'tagged1', attributes },
            meta: {
                serialization: {
                    values: ALL_TYPES_TAGS,
                },
            },
        });
        expect([plain.status, tagged.status]).toEqual([201, 201]);
        expect(docOf(plain).data.id).toBe('plain1');
        expect(docOf(tagged).data.attributes).toEqual(docOf(plain).data.attributes);
        expect(docOf(plain).meta?.serialization).toEqual(docOf(tagged).meta?.serialization);

        const rows = await a.s.prisma.allTypes.findMany({ orderBy: { id: 'asc' } });
        expect(rows).toHaveLength(2);
        for (const row of rows) {
            expect(row.dateTime).toEqual(new Date('2024-02-03T04:05:06.789Z'));
            expect(row.bigInt).toBe(9007199254740993n);
            expect(new Decimal(row.decimal.toString()).equals('123.456')).toBe(true);
            expect(Buffer.from(row.bytes)).toEqual(Buffer.from([0, 1, 2, 3, 4, 255]));
            expect(row.json).toEqual({ nested: [1, 'two', null] });
            expect(row.role).toBe('ADMIN');
        }
        const { id: _a, ...first } = rows[0];
        const { id: _b, ...second } = rows[1];
        expect(second).toEqual(first);
    });

    it('updates partially; PATCH and PUT give identical results', async () => {
        const a = await open();
        if (!a) return;
        const ids = await seedBlog(a.s);
        const other = await a.s.prisma.post.create({ data: { title: 'pub', published: true, authorId: ids.u1 } });
        const body = (id: number) => ({ data: { type: 'post', id: String(id), attributes: { title: 'renamed' } } });
        const patched = await a.call({ id: ids.u1 }, 'PATCH', `/post/${ids.pub}`, body(ids.pub));
        const put = await a.call({ id: ids.u1 }, 'PUT', `/post/${other.id}`, body(other.id));
        expect([patched.status, put.status]).toEqual([200, 200]);
        const strip = (d: { id: unknown; attributes: Record<string, unknown> }) => ({ ...d.attributes, createdAt: undefined });
        expect(strip(docOf(put).data)).toEqual(strip(docOf(patched).data));
        const row = await a.s.prisma.post.findUnique({ where: { id: ids.pub } });
        expect(row).toMatchObject({ title: 'renamed', published: true, viewCount: 0, authorId: ids.u1 });
        expect(await a.s.prisma.comment.count({ where: { postId: ids.pub } })).toBe(1);
    });

    it('adds to, removes from and replaces relationships', async () => {
        const a = await open();
        if (!a) return;
        const ids = await seedBlog(a.s);
        const me = { id: ids.u1 };
        const extra = await a.s.prisma.post.create({ data: { title: 'loose', published: true } });
        await a.s.prisma.post.update({ where: { id: extra.id }, data: { authorId: null } });
        const postsOf = async () =>
            (await a.s.prisma.post.findMany({ where: { authorId: ids.u1 }, orderBy: { id: 'asc' } })).map((p: { id: number }) => p.id);

        // an orphan post, no policy allows user 1 to update it (it has no author): denied
        const denied = await a.call(me, 'POST', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: extra.id }] });
        expect(denied.status).toBe(403);
        expect(await postsOf()).toEqual([ids.draft, ids.pub]);

        const removed = await a.call(me, 'DELETE', `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: String(ids.draft) }] });
        expect(removed.status).toBe(200);
        expect(docOf(removed).data).toEqual([{ type: 'post', id: ids.pub }]);
        expect(await postsOf()).toEqual([ids.pub]);

        const missing = await a.call(me, 'PATCH', `/comment/${ids.comment}/relationships/post`, { data: { type: 'post', id: 9999 } });
        expect([missing.status, firstError(missing).code, firstError(missing).source?.pointer]).toEqual([404, 'not-found', '/data']);
        expect((await a.s.prisma.comment.findUnique({ where: { id: ids.comment } })).postId).toBe(ids.pub);

        const cleared = await a.call(me, 'PATCH', `/user/${ids.u1}/relationships/posts`, { data: [] });
        expect(cleared.status).toBe(200);
        expect(docOf(cleared).data).toEqual([]);
        expect(await postsOf()).toEqual([]);

        // user 1 takes their post back through the post's to-one relationship (null, then an identifier)
        await a.s.prisma.post.update({ where: { id: ids.pub }, data: { authorId: ids.u1 } });
        const toOne = await a.call(me, 'PATCH', `/post/${ids.pub}/relationships/author`, { data: { type: 'user', id: String(ids.u1) } });
        expect(toOne.status).toBe(200);
        expect(docOf(toOne).data).toEqual({ type: 'user', id: ids.u1 });
        const nulled = await a.call(me, 'PATCH', `/post/${ids.pub}/relationships/author`, { data: null });
        expect(nulled.status).toBe(200);
        expect(docOf(nulled).data).toBeNull();
        expect((await a.s.prisma.post.findUnique({ where: { id: ids.pub } })).authorId).toBeNull();
    });

    it('deletes: 204 empty, 404 missing or unreadable, 403 readable but denied', async () => {
        const a = await open();
        if (!a) return;
        const ids = await seedBlog(a.s);
        const del = await a.call({ id: ids.u1 }, 'DELETE', `/post/${ids.draft}`);
        expect(del.status).toBe(204);
        expect(del.body).toBeUndefined();
        expect(await a.s.prisma.post.findUnique({ where: { id: ids.draft } })).toBeNull();

        expect((await a.call({ id: ids.u1 }, 'DELETE', `/post/${ids.draft}`)).status).toBe(404);
        const unreadable = await a.call({ id: ids.u1 }, 'DELETE', `/post/${ids.u2draft}`);
        expect([unreadable.status, firstError(unreadable).code]).toEqual([404, 'not-found']);
        const forbidden = await a.call({ id: ids.u2 }, 'DELETE', `/post/${ids.pub}`);
        expect([forbidden.status, firstError(forbidden).code]).toEqual([403, 'forbidden']);
        expect(await a.s.prisma.post.count()).toBe(2);
    });

    it('enforces the policy per user on create and update, writing nothing when denied', async () => {
        const a = await open();
        if (!a) return;
        const ids = await seedBlog(a.s);
        const before = await snapshot(a.s, BLOG_MODELS);
        const anon = await a.call(undefined, 'POST', '/post', { data: { type: 'post', attributes: { title: 'x' } } });
        expect([anon.status, firstError(anon).code, firstError(anon).reason]).toEqual([403, 'forbidden', 'ACCESS_POLICY_VIOLATION']);
        const forOther = await a.call({ id: ids.u1 }, 'POST', '/post', {
            data: { type: 'post', attributes: { title: 'x' }, relationships: { author: { data: { type: 'user', id: ids.u2 } } } },
        });
        expect(forOther.status).toBe(403);
        const readable = await a.call({ id: ids.u2 }, 'PATCH', `/post/${ids.pub}`, { data: { type: 'post', attributes: { title: 'hacked' } } });
        expect([readable.status, firstError(readable).code]).toEqual([403, 'forbidden']);
        const hidden = await a.call({ id: ids.u2 }, 'PATCH', `/post/${ids.draft}`, { data: { type: 'post', attributes: { title: 'hacked' } } });
        expect([hidden.status, firstError(hidden).code]).toEqual([404, 'not-found']);
        // a post whose nested connect is denied (someone else's comment) is not created either
        const u2comment = await a.s.prisma.comment.create({ data: { content: 'theirs', postId: ids.u2draft } });
        const nested = await a.call({ id: ids.u1 }, 'POST', '/post', {
            data: {
                type: 'post',
                attributes: { title: 'mine' },
                relationships: { author: { data: { type: 'user', id: ids.u1 } }, comments: { data: [{ type: 'comment', id: u2comment.id }] } },
            },
        });
        expect(nested.status).toBeGreaterThanOrEqual(400);
        expect(nested.status).toBeLessThan(500);
        await a.s.prisma.comment.delete({ where: { id: u2comment.id } });
        expect(await snapshot(a.s, BLOG_MODELS)).toEqual(before);
    });

    it('answers 403 RESULT_NOT_READABLE when the write succeeded but cannot be read back, and keeps it', async () => {
        const a = await open();
        if (!a) return;
        const ids = await seedBlog(a.s);
        // anyone may sign up, only signed-in users read users
        const signup = await a.call(undefined, 'POST', '/user', { data: { type: 'user', attributes: { email: 'new@x' } } });
        expect([signup.status, firstError(signup).code, firstError(signup).reason]).toEqual([403, 'forbidden', 'RESULT_NOT_READABLE']);
        expect(await a.s.prisma.user.count({ where: { email: 'new@x' } })).toBe(1);
        // user 1 hands an unpublished post to user 2: allowed, but user 1 can no longer read it
        const handOver = await a.call({ id: ids.u1 }, 'PATCH', `/post/${ids.draft}`, {
            data: { type: 'post', relationships: { author: { data: { type: 'user', id: ids.u2 } } } },
        });
        expect([handOver.status, firstError(handOver).reason]).toEqual([403, 'RESULT_NOT_READABLE']);
        expect((await a.s.prisma.post.findUnique({ where: { id: ids.draft } })).authorId).toBe(ids.u2);
    });

    it('answers 409 with ormCode P2002 on a unique violation', async () => {
        const a = await open();
        if (!a) return;
        const ids = await seedBlog(a.s);
        const res = await a.call({ id: ids.u1 }, 'PATCH', `/user/${ids.u1}`, { data: { type: 'user', attributes: { email: 'u2@x' } } });
        expect([res.status, firstError(res).code, firstError(res).ormCode]).toEqual([409, 'unique-violation', 'P2002']);
        expect((await a.s.prisma.user.findUnique({ where: { id: ids.u1 } })).email).toBe('u1@x');
    });
}
