import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller, type RpcCaller } from '../rpc/support';

/**
 * A to-many `set` must not detach records the user may not update. ZenStack 2.x runs `set` without
 * checking the detached records' update rule (nor the parent's rule when only relations change), so
 * through a plain pass-through, Alice could empty Bob's `posts`. The RPC handler rewrites `set` as a
 * policy-checked `disconnect` + `connect` of the difference.
 */

describe('relation set on the blog', () => {
    let s: TestSchema;
    const ALICE = { id: 1 };
    const BOB = { id: 2 };
    let ids: { alicePost: number; bobPub: number; bobDraft: number; bobOther: number };

    beforeEach(async () => {
        s = await loadSchema();
        await s.prisma.user.createMany({
            data: [
                { id: 1, email: 'alice@x' },
                { id: 2, email: 'bob@x' },
            ],
        });
        const post = (title: string, authorId: number, published: boolean) => s.prisma.post.create({ data: { title, authorId, published } });
        ids = {
            alicePost: (await post('alice', 1, true)).id,
            bobPub: (await post('bob published', 2, true)).id,
            bobDraft: (await post('bob draft', 2, false)).id,
            bobOther: (await post('bob other', 2, true)).id,
        };
    });
    afterEach(() => s.cleanup());

    const authors = async () =>
        Object.fromEntries(
            (await s.prisma.post.findMany({ orderBy: { id: 'asc' }, select: { id: true, authorId: true } })).map((p: { id: number; authorId: number | null }) => [
                p.id,
                p.authorId,
            ]),
        );
    const as = (user: { id: number }): RpcCaller => rpcCaller(s, { user });

    it('refuses to detach records the user may see but not update (403), writing nothing', async () => {
        const before = await authors();
        const res = await as(ALICE)('PUT', '/user/update', { body: { where: { id: 2 }, data: { posts: { set: [] } } } });
        expect(res.status).toBe(403);
        expect(res.body.error.reason).toBe('ACCESS_POLICY_VIOLATION');
        expect(await authors()).toEqual(before);
        const upsert = await as(ALICE)('POST', '/user/upsert', {
            body: { where: { id: 2 }, create: { email: 'new@x' }, update: { posts: { set: [{ id: ids.alicePost }] } } },
        });
        expect(upsert.status).toBe(403);
        expect(await authors()).toEqual(before);
    });

    it('on a record the user cannot read answers as on a missing one, also when the set changes nothing', async () => {
        // anonymous users may not read users
        for (const set of [[], [{ id: ids.bobPub }]]) {
            const hidden = await rpcCaller(s)('PUT', '/user/update', { body: { where: { id: 2 }, data: { posts: { set } } } });
            const missing = await rpcCaller(s)('PUT', '/user/update', { body: { where: { id: 99 }, data: { posts: { set } } } });
            expect(missing.status).toBe(404);
            expect([hidden.status, hidden.body]).toEqual([missing.status, missing.body]);
        }
    });

    it('leaves records the user cannot see attached', async () => {
        // only Bob's draft is left on Bob: Alice cannot see it, so her empty set changes nothing
        await s.prisma.post.updateMany({ where: { id: { in: [ids.bobPub, ids.bobOther] } }, data: { authorId: null } });
        const res = await as(ALICE)('PUT', '/user/update', { body: { where: { id: 2 }, data: { posts: { set: [] } } } });
        expect(res.status).toBe(200);
        expect((await authors())[ids.bobDraft]).toBe(2);
    });

    it('replaces the relation for its owner: detaches what is not listed, keeps what is', async () => {
        const res = await as(BOB)('PUT', '/user/update', {
            body: { where: { id: 2 }, data: { name: 'Bob', posts: { set: [{ id: ids.bobPub }] } }, include: { posts: { orderBy: { id: 'asc' } } } },
        });
        expect(res.status).toBe(200);
        expect(res.body.data.posts.map((p: { id: number }) => p.id)).toEqual([ids.bobPub]);
        expect(await authors()).toEqual({ [ids.alicePost]: 1, [ids.bobPub]: 2, [ids.bobDraft]: null, [ids.bobOther]: null });
    });

    it('refuses to attach a record the user may not update', async () => {
        const res = await as(BOB)('PUT', '/user/update', { body: { where: { id: 2 }, data: { posts: { set: [{ id: ids.bobPub }, { id: ids.alicePost }] } } } });
        expect(res.status).toBe(403);
        expect((await authors())[ids.alicePost]).toBe(1);
        expect((await authors())[ids.bobDraft]).toBe(2);
    });

    it('refuses a member that does not exist as a connect of it, one the user cannot see the same way, writing nothing', async () => {
        // Prisma alone skips a missing member of a one-to-many set (the others detached, nothing linked), and so did
        // 2.22.3 where ZenStack checks no update rule on the member (AllTypes: 200); a connect of it is Prisma's P2018
        await s.prisma.allTypes.create({ data: { id: 'kept', ownerId: 2 } });
        const owners = async () => (await s.prisma.allTypes.findMany({ select: { id: true, ownerId: true } })).map((a: { id: string; ownerId: number | null }) => `${a.id}:${a.ownerId}`);
        for (const set of [[{ id: 'nowhere' }], [{ id: 'kept' }, { id: 'nowhere' }]]) {
            const res = await as(BOB)('PUT', '/user/update', { body: { where: { id: 2 }, data: { allTypes: { set } } } });
            expect([res.status, res.body.error.code]).toEqual([404, 'P2018']);
            expect(await owners()).toEqual(['kept:2']);
        }
        // where ZenStack checks the member's update rule (Post), it refuses a missing one: 403, as 2.22.3; Alice cannot
        // see Bob's draft, which answers the same
        const before = await authors();
        const answers = [];
        for (const member of [9999, ids.bobDraft]) {
            const res = await as(ALICE)('PUT', '/user/update', { body: { where: { id: 1 }, data: { posts: { set: [{ id: member }] } } } });
            answers.push([res.status, res.body]);
            expect(await authors()).toEqual(before);
        }
        expect(answers[0][0]).toBe(403);
        expect(answers[1]).toEqual(answers[0]);
    });

    it('guards a set nested under a to-one update', async () => {
        await s.prisma.allTypes.createMany({
            data: [
                { id: 'a', ownerId: 2 },
                { id: 'b', ownerId: 2 },
                { id: 'c', ownerId: 1 },
            ],
        });
        const owners = async () => (await s.prisma.allTypes.findMany({ orderBy: { id: 'asc' } })).map((r: { ownerId: number | null }) => r.ownerId);
        // Bob, through his post's author (himself): b is detached
        const toOne = await as(BOB)('PUT', '/post/update', {
            body: { where: { id: ids.bobPub }, data: { author: { update: { allTypes: { set: [{ id: 'a' }] } } } } },
        });
        expect(toOne.status).toBe(200);
        expect(await owners()).toEqual([2, null, 1]);
        // Alice, through Bob's post: denied, nothing detached
        const foreign = await as(ALICE)('PUT', '/post/update', {
            body: { where: { id: ids.bobPub }, data: { author: { update: { allTypes: { set: [] } } } } },
        });
        expect(foreign.status).toBe(403);
        expect(await owners()).toEqual([2, null, 1]);
    });

    it('takes only unique filters as members (400, writing nothing), as Prisma does', async () => {
        const before = await authors();
        // a filter matching several posts, a filter by a non-unique field, a value that is not a filter
        for (const set of [[{ published: true }], [{ title: 'bob published' }], [{ id: ids.bobPub }, 7], [{ id: { in: [ids.bobPub] } }], [{ toString: 1 }]]) {
            const res = await as(BOB)('PUT', '/user/update', { body: { where: { id: 2 }, data: { posts: { set } } } });
            expect([res.status, res.body.error.message]).toEqual([400, expect.stringMatching(/"set" of relation "posts": item \d must be a unique filter of Post|"data\.posts\.set\.1" must be an object|Post has no field "toString"/)]);
        }
        expect(await authors()).toEqual(before);
        // a unique key with further conditions is a unique filter (Prisma's extended unique filters)
        const extended = await as(BOB)('PUT', '/user/update', { body: { where: { id: 2 }, data: { posts: { set: [{ id: ids.bobPub, published: true }] } } } });
        expect(extended.status).toBe(200);
        expect(await authors()).toEqual({ ...before, [ids.bobDraft]: null, [ids.bobOther]: null });
    });

    it("leaves the caller's arguments as they were (the rewrite works on a copy)", async () => {
        const handler = RPCApiHandler();
        const body = { where: { id: 2 }, data: { posts: { set: [{ id: ids.bobPub }] } } };
        const sent = JSON.stringify(body);
        const res = await handler({ method: 'PUT', path: '/user/update', query: {}, requestBody: body, prisma: s.enhance(BOB), modelMeta: s.modelMeta, logger: null });
        expect(res.status).toBe(200);
        expect(JSON.stringify(body)).toBe(sent);
        expect(await authors()).toEqual({ [ids.alicePost]: 1, [ids.bobPub]: 2, [ids.bobDraft]: null, [ids.bobOther]: null });
    });

    it('guards a set inside a sequential transaction and rolls the whole transaction back', async () => {
        const before = await authors();
        const res = await as(ALICE)('POST', '/$transaction/sequential', {
            body: [
                { model: 'post', op: 'update', args: { where: { id: ids.alicePost }, data: { title: 'changed' } } },
                { model: 'user', op: 'update', args: { where: { id: 2 }, data: { posts: { set: [] } } } },
            ],
        });
        expect(res.status).toBe(403);
        expect(res.body.error.failedOperation).toBe(1);
        expect(await authors()).toEqual(before);
        expect((await s.prisma.post.findUnique({ where: { id: ids.alicePost } })).title).toBe('alice');
    });
});

describe('relation set nested under to-many updates, by other unique keys, with compound ids', () => {
    const SCHEMA = `
model Org {
  id     Int     @id
  squads Squad[]
  @@allow('all', true)
}

model Squad {
  id      Int      @id
  org     Org?     @relation(fields: [orgId], references: [id])
  orgId   Int?
  players Player[]
  members Member[]
  @@allow('all', true)
}

model Player {
  id      Int     @id
  handle  String  @unique
  locked  Boolean @default(false)
  squad   Squad?  @relation(fields: [squadId], references: [id])
  squadId Int?
  @@allow('read,create,delete', true)
  @@allow('update', !locked)
}

model Member {
  org     String
  num     Int
  squad   Squad?  @relation(fields: [squadId], references: [id])
  squadId Int?
  @@id([org, num])
  @@allow('all', true)
}
`;
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.org.create({ data: { id: 1, squads: { create: [{ id: 1 }, { id: 2 }] } } });
        await s.prisma.player.createMany({
            data: [
                { id: 1, handle: 'a', squadId: 1 },
                { id: 2, handle: 'b', squadId: 1 },
                { id: 3, handle: 'c' },
                { id: 4, handle: 'locked', locked: true, squadId: 2 },
            ],
        });
    });
    afterEach(() => s.cleanup());

    const squadOf = async () =>
        Object.fromEntries((await s.prisma.player.findMany({ orderBy: { id: 'asc' } })).map((p: { handle: string; squadId: number | null }) => [p.handle, p.squadId]));
    const update = (data: unknown) => rpcCaller(s, { user: { id: 1 } })('PUT', '/org/update', { body: { where: { id: 1 }, data } });

    it('replaces through a nested update, matching members by any unique key (in a nested upsert\'s update: a 400)', async () => {
        const nested = await update({ squads: { update: { where: { id: 1 }, data: { players: { set: [{ handle: 'b' }, { id: 3 }] } } } } });
        expect([nested.status, nested.body.error]).toEqual([200, undefined]);
        expect(await squadOf()).toEqual({ a: null, b: 1, c: 1, locked: 2 });
        // ZenStack checks no relation write there, the disconnect + connect of the rewrite neither (rpc-nested-upsert-writes.test.ts)
        const upsert = await update({ squads: { upsert: { where: { id: 1 }, create: { id: 1 }, update: { players: { set: [{ handle: 'locked' }] } } } } });
        expect(upsert.status).toBe(400);
        expect(await squadOf()).toEqual({ a: null, b: 1, c: 1, locked: 2 });
    });

    it('refuses a nested set that would detach a member the user may not update', async () => {
        const before = await squadOf();
        const res = await update({ squads: { update: { where: { id: 2 }, data: { players: { set: [{ id: 1 }] } } } } });
        expect(res.status).toBe(403);
        expect(await squadOf()).toEqual(before);
        // listing it keeps it without touching it
        const keep = await update({ squads: { update: { where: { id: 2 }, data: { players: { set: [{ handle: 'locked' }, { id: 3 }] } } } } });
        expect(keep.status).toBe(200);
        expect(await squadOf()).toEqual({ ...before, c: 2 });
    });

    it('attaches and detaches compound-id members by their compound key (ZenStack 2.x alone refuses the detach)', async () => {
        await s.prisma.member.create({ data: { org: 'x', num: 1, squadId: 1 } });
        await s.prisma.member.create({ data: { org: 'x', num: 2 } });
        const squadOfMembers = async () => (await s.prisma.member.findMany({ orderBy: { num: 'asc' } })).map((m: { squadId: number | null }) => m.squadId);
        const add = await update({ squads: { update: { where: { id: 1 }, data: { members: { set: [{ org_num: { org: 'x', num: 1 } }, { org_num: { org: 'x', num: 2 } }] } } } } });
        expect(add.status).toBe(200);
        expect(await squadOfMembers()).toEqual([1, 1]);
        // ZenStack's policy layer cannot disconnect by a compound id: the handler detaches them (rpc-compound-disconnect.test.ts)
        const remove = await update({ squads: { update: { where: { id: 1 }, data: { members: { set: [{ org_num: { org: 'x', num: 2 } }] } } } } });
        expect(remove.status).toBe(200);
        expect(await squadOfMembers()).toEqual([null, 1]);
    });
});
