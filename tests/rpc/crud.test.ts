import Decimal from 'decimal.js';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { decodeData, encodeBody, encodeQuery, rpcCaller, type RpcCaller } from './support';

/**
 * The core CRUD suite with per-user policies, run unchanged on SQLite and on PostgreSQL.
 * PostgreSQL suites skip (with a visible warning) outside CI when no server answers.
 */

const suites: [Provider, (name: string, fn: () => void) => void][] = [
    ['sqlite', describe],
    ['postgresql', describePg],
];

for (const [provider, describeFor] of suites) {
    describeFor(`RPC core CRUD on ${provider}`, () => {
        let s: TestSchema | undefined;
        let alice: RpcCaller;
        let bob: RpcCaller;
        let anonymous: RpcCaller;
        let db: TestSchema['prisma'];
        // ids come from the database (explicit ids would not advance PostgreSQL's sequences)
        const ids = { alice: 0, bob: 0, alicePublic: 0, aliceDraft: 0, bobDraft: 0 };

        /** false when the provider is unavailable here (PostgreSQL outside CI): the test returns early. */
        const ready = async () => (provider === 'postgresql' ? (await requirePg()) && !!s : !!s);

        beforeAll(async () => {
            if (provider === 'postgresql' && !(await requirePg())) {
                return;
            }
            s = await loadSchema(undefined, { provider });
            db = s.prisma;
            ids.alice = (await db.user.create({ data: { email: 'alice@x', name: 'Alice' } })).id;
            ids.bob = (await db.user.create({ data: { email: 'bob@x', name: 'Bob' } })).id;
            ids.alicePublic = (await db.post.create({ data: { title: 'Alice public', published: true, authorId: ids.alice } })).id;
            ids.aliceDraft = (await db.post.create({ data: { title: 'Alice draft', published: false, authorId: ids.alice } })).id;
            ids.bobDraft = (await db.post.create({ data: { title: 'Bob draft', published: false, authorId: ids.bob } })).id;
            await db.comment.create({ data: { content: 'on public', postId: ids.alicePublic } });
            await db.comment.create({ data: { content: 'on draft', postId: ids.bobDraft } });
            alice = rpcCaller(s, { user: { id: ids.alice } });
            bob = rpcCaller(s, { user: { id: ids.bob } });
            anonymous = rpcCaller(s);
        });

        afterAll(async () => {
            await s?.cleanup();
        });

        it('reads are filtered per user', async () => {
            if (!(await ready())) return;
            const seeded = [ids.alicePublic, ids.aliceDraft, ids.bobDraft];
            const titles = async (caller: RpcCaller) =>
                (await caller('GET', '/post/findMany', { q: { where: { id: { in: seeded } }, orderBy: { id: 'asc' } } })).body.data.map((p: { title: string }) => p.title);
            expect(await titles(anonymous)).toEqual(['Alice public']);
            expect(await titles(alice)).toEqual(['Alice public', 'Alice draft']);
            expect(await titles(bob)).toEqual(['Alice public', 'Bob draft']);
            // users are readable only when signed in; included relations are filtered too
            expect((await anonymous('GET', '/user/findMany')).body.data).toEqual([]);
            const withPosts = await bob('GET', '/user/findUnique', { q: { where: { id: ids.alice }, include: { posts: { orderBy: { id: 'asc' } } } } });
            expect(withPosts.body.data.posts.map((p: { id: number }) => p.id)).toEqual([ids.alicePublic]);
            const comments = await alice('GET', '/comment/findMany', { q: { orderBy: { id: 'asc' } } });
            expect(comments.body.data.map((c: { content: string }) => c.content)).toEqual(['on public']);
            expect((await anonymous('GET', '/post/count', { q: { where: { id: { in: seeded } } } })).body.data).toBe(1);
        });

        it('create, read back, update, delete', async () => {
            if (!(await ready())) return;
            const created = await alice('POST', '/post/create', { body: { data: { title: 'crud', author: { connect: { id: ids.alice } } }, include: { author: true } } });
            expect(created.status).toBe(201);
            expect(created.body.data).toMatchObject({ title: 'crud', published: false, author: { email: 'alice@x' } });
            expect(created.body.meta.serialization.values).toEqual({ createdAt: ['Date'] });
            const id = created.body.data.id;

            const read = await alice('GET', '/post/findUnique', { q: { where: { id } } });
            expect(read.body.data.title).toBe('crud');
            expect((await bob('GET', '/post/findUnique', { q: { where: { id } } })).body.data).toBeNull();

            const updated = await alice('PUT', '/post/update', { body: { where: { id }, data: { published: true, viewCount: { increment: 3 } } } });
            expect(updated.body.data).toMatchObject({ published: true, viewCount: 3 });
            expect((await bob('GET', '/post/findUnique', { q: { where: { id } } })).body.data.title).toBe('crud');

            const deleted = await alice('DELETE', '/post/delete', { q: { where: { id } } });
            expect(deleted.status).toBe(200);
            expect(await db.post.findUnique({ where: { id } })).toBeNull();
        });

        it('writes are denied by the policy and leave no trace', async () => {
            if (!(await ready())) return;
            const forged = await alice('POST', '/post/create', { body: { data: { title: 'forged', published: false, authorId: ids.bob } } });
            expect(forged.status).toBe(403);
            expect(forged.body.error).toMatchObject({ rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION', code: 'P2004' });
            expect(await db.post.count({ where: { title: 'forged' } })).toBe(0);

            const edit = await alice('PATCH', '/post/update', { body: { where: { id: ids.alicePublic }, data: { title: 'mine' } } });
            expect(edit.status).toBe(200);
            const foreign = await bob('PATCH', '/post/update', { body: { where: { id: ids.alicePublic }, data: { title: 'stolen' } } });
            expect(foreign.status).toBe(403);
            expect((await db.post.findUnique({ where: { id: ids.alicePublic } })).title).toBe('mine');

            // bulk operations only touch what the user may change
            const bulk = await bob('PATCH', '/post/updateMany', { body: { data: { viewCount: 99 } } });
            expect(bulk.body.data).toEqual({ count: 1 });
            expect(await db.post.count({ where: { viewCount: 99 } })).toBe(1);
            const wipe = await bob('DELETE', '/post/deleteMany', { q: {} });
            expect(wipe.body.data).toEqual({ count: 1 });
            expect(await db.post.count({ where: { authorId: ids.alice } })).toBeGreaterThanOrEqual(2);
            expect(await db.post.count({ where: { authorId: ids.bob } })).toBe(0);
        });

        it('RESULT_NOT_READABLE for an anonymous sign-up; the row exists', async () => {
            if (!(await ready())) return;
            const res = await anonymous('POST', '/user/create', { body: { data: { email: `anon-${provider}@x` } } });
            expect(res.status).toBe(403);
            expect(res.body.error).toMatchObject({ reason: 'RESULT_NOT_READABLE', rejectedByPolicy: true });
            expect(await db.user.count({ where: { email: `anon-${provider}@x` } })).toBe(1);
        });

        it('typed values round-trip, including Json DbNull', async () => {
            if (!(await ready())) return;
            const big = 2n ** 62n + 7n;
            const body = encodeBody({ data: { string: 'typed', bigInt: big, decimal: new Decimal('98765.4321'), dateTime: new Date('2030-01-02T03:04:05.678Z'), bytes: Buffer.from([255, 0, 128]) } });
            const created = await alice('POST', '/allTypes/create', { body });
            expect(created.status).toBe(201);
            const found = await alice('GET', '/allTypes/findMany', encodeQuery({ where: { bigInt: big, decimal: { gt: new Decimal('98765') } } }));
            const row = decodeData(found.body)[0];
            expect(row.bigInt).toBe(big);
            expect(new Decimal(row.decimal).equals('98765.4321')).toBe(true);
            expect(row.dateTime).toEqual(new Date('2030-01-02T03:04:05.678Z'));
            expect([...row.bytes]).toEqual([255, 0, 128]);

            const nul = await alice('POST', '/allTypes/create', {
                body: { data: { string: 'dbnull', json: null }, meta: { serialization: { values: { 'data.json': [['custom', 'DbNull']] } } } },
            });
            expect(nul.status).toBe(201);
            const count = await alice('GET', '/allTypes/count', {
                q: { where: { string: 'dbnull', json: { equals: null } } },
                meta: { serialization: { values: { 'where.json.equals': [['custom', 'DbNull']] } } },
            });
            expect(count.body.data).toBe(1);
        });

        it('a unique violation is a 400 with the ORM code, a missing record a 404', async () => {
            if (!(await ready())) return;
            const dup = await bob('POST', '/user/create', { body: { data: { email: 'alice@x' } } });
            expect(dup.status).toBe(400);
            expect(dup.body.error).toMatchObject({ orm: true, prisma: true, code: 'P2002' });
            const missing = await bob('DELETE', '/post/delete', { q: { where: { id: 9999 } } });
            expect(missing.status).toBe(404);
            expect(missing.body.error.code).toBe('P2025');
        });

        it('a transaction commits or rolls back as a whole', async () => {
            if (!(await ready())) return;
            const ok = await alice('POST', '/$transaction/sequential', {
                body: [
                    { model: 'post', op: 'create', args: { data: { title: `tx-${provider}`, authorId: ids.alice } } },
                    { model: 'post', op: 'count', args: { where: { title: `tx-${provider}` } } },
                ],
            });
            expect(ok.status).toBe(200);
            expect(ok.body.data[1]).toBe(1);
            const bad = await alice('POST', '/$transaction/sequential', {
                body: [
                    { model: 'post', op: 'create', args: { data: { title: `tx2-${provider}`, authorId: ids.alice } } },
                    { model: 'post', op: 'create', args: { data: { title: 'not yours', authorId: ids.bob } } },
                ],
            });
            expect(bad.status).toBe(403);
            expect(await db.post.count({ where: { title: `tx2-${provider}` } })).toBe(0);
        });
    });
}

describePg('RPC PostgreSQL-only filters', () => {
    it('mode: insensitive reaches the database', async () => {
        if (!(await requirePg())) return;
        const s = await loadSchema(undefined, { provider: 'postgresql' });
        try {
            const user = await s.prisma.user.create({ data: { email: 'a@x', posts: { create: [{ title: 'Hello World', published: true }] } } });
            const call = rpcCaller(s, { user: { id: user.id } });
            const res = await call('GET', '/post/findMany', { q: { where: { title: { contains: 'hello world', mode: 'insensitive' } } } });
            expect(res.body.data.map((p: { title: string }) => p.title)).toEqual(['Hello World']);
        } finally {
            await s.cleanup();
        }
    });
});
