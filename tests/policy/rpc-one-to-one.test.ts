import { describePg, requirePg } from '../support/postgres';
import { ONE_TO_ONE_HIDDEN_KEY_SCHEMA, ONE_TO_ONE_SCHEMA, ONE_TO_ONE_SHAPES_SCHEMA, seedOneToOne, seedOneToOneHiddenKeys, seedOneToOneShapes } from '../support/one-to-one-schema';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcCaller } from '../rpc/support';
import { seedZoo, ZOO_SCHEMA } from '../compat/zoo-schema';

/**
 * Linking one side of a one-to-one relation makes Prisma detach the record linked before, an update
 * ZenStack 2.x does not check: through a plain pass-through, a link could detach a locked profile
 * (non-owner side) or take a user away from another profile (owner side). The RPC handler links owner
 * sides by foreign key (a taken target is a unique violation) and unlinks non-owner sides first, checked.
 */

type Row = { id: number; userId?: number | null; personId?: number };

function suite(provider: Provider) {
    let s: TestSchema;
    beforeEach(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(ONE_TO_ONE_SCHEMA, { provider });
        await seedOneToOne(s);
    });
    afterEach(() => s?.cleanup());

    const profiles = async () => Object.fromEntries((await s.prisma.profile.findMany({ orderBy: { id: 'asc' } })).map((p: Row) => [p.id, p.userId]));
    const cards = async () => Object.fromEntries((await s.prisma.card.findMany({ orderBy: { id: 'asc' } })).map((c: Row) => [c.id, c.personId]));
    const call = (method: string, path: string, body: unknown) => rpcCaller(s, { user: { id: 1 } })(method, path, { body });
    const skip = () => provider === 'postgresql' && !s;

    it('non-owner side: linking a profile to a user whose profile may not be updated is refused (403), writing nothing', async () => {
        if (skip()) return;
        const before = await profiles();
        for (const profile of [{ connect: { id: 2 } }, { create: { id: 7 } }, { connectOrCreate: { where: { id: 7 }, create: { id: 7 } } }]) {
            const res = await call('PUT', '/user/update', { where: { id: 1 }, data: { profile } });
            expect({ profile, status: res.status, reason: res.body.error?.reason }).toEqual({ profile, status: 403, reason: 'ACCESS_POLICY_VIOLATION' });
            expect(await profiles()).toEqual(before);
        }
        const upsert = await call('POST', '/user/upsert', { where: { id: 1 }, create: { id: 1 }, update: { profile: { connect: { id: 2 } } } });
        expect(upsert.status).toBe(403);
        expect(await profiles()).toEqual(before);
    });

    it('non-owner side: a partner that may be updated is detached and the new one linked', async () => {
        if (skip()) return;
        const res = await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { connect: { id: 2 } } }, include: { profile: true } });
        expect([res.status, res.body.data?.profile?.id]).toEqual([200, 2]);
        expect(await profiles()).toEqual({ 1: 1, 2: 2, 3: null });
        // a user without a profile, and the partner linked again: nothing to detach
        expect((await call('PUT', '/user/update', { where: { id: 3 }, data: { profile: { create: { id: 8 } } } })).status).toBe(200);
        expect((await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { connect: { id: 2 } } } })).status).toBe(200);
        expect(await profiles()).toEqual({ 1: 1, 2: 2, 3: null, 8: 3 });
        // an upsert of a user that is not there creates it with its profile
        expect((await call('POST', '/user/upsert', { where: { id: 5 }, create: { id: 5, profile: { connect: { id: 3 } } }, update: {} })).status).toBe(200);
        expect((await profiles())[3]).toBe(5);
    });

    it('owner side: linking a user that another profile holds is a unique violation (400), writing nothing', async () => {
        if (skip()) return;
        const before = await profiles();
        const update = await call('PUT', '/profile/update', { where: { id: 2 }, data: { user: { connect: { id: 2 } } } });
        expect([update.status, update.body.error?.code]).toEqual([400, 'P2002']);
        const create = await call('POST', '/profile/create', { data: { id: 9, user: { connect: { id: 2 } } } });
        expect([create.status, create.body.error?.code]).toEqual([400, 'P2002']);
        const connectOrCreate = await call('POST', '/profile/create', { data: { id: 9, user: { connectOrCreate: { where: { id: 2 }, create: { id: 2 } } } } });
        expect([connectOrCreate.status, connectOrCreate.body.error?.code]).toEqual([400, 'P2002']);
        expect(await profiles()).toEqual(before);
        // the required side the same way
        const card = await call('PUT', '/card/update', { where: { id: 2 }, data: { person: { connect: { id: 2 } } } });
        expect([card.status, card.body.error?.code]).toEqual([400, 'P2002']);
        expect(await cards()).toEqual({ 1: 1, 2: 3, 3: 2 });
    });

    it('owner side: a free user is linked; a hidden user is not found, exactly as a missing one', async () => {
        if (skip()) return;
        expect((await call('PUT', '/profile/update', { where: { id: 2 }, data: { user: { connect: { id: 3 } } } })).status).toBe(200);
        expect((await call('POST', '/profile/create', { data: { id: 9, user: { connectOrCreate: { where: { id: 4 }, create: { id: 4 } } } } })).status).toBe(201);
        expect(await profiles()).toEqual({ 1: 1, 2: 3, 3: 2, 9: 4 });
        const hidden = await call('POST', '/profile/create', { data: { id: 10, user: { connect: { id: 9 } } } });
        const missing = await call('POST', '/profile/create', { data: { id: 10, user: { connect: { id: 77 } } } });
        expect(hidden.status).toBe(404);
        expect(JSON.stringify(hidden.body).replace('9', '77')).toBe(JSON.stringify(missing.body));
        expect((await profiles())[10]).toBeUndefined();
        // linking the user it holds already changes nothing
        expect((await call('PUT', '/profile/update', { where: { id: 3 }, data: { user: { connect: { id: 2 } } } })).status).toBe(200);
        expect((await profiles())[3]).toBe(2);
    });

    it('non-owner side with a required foreign key: displacing the partner fails (4xx), writing nothing', async () => {
        if (skip()) return;
        // a person without a card takes one: the card's previous person simply has none now
        expect((await call('PUT', '/person/update', { where: { id: 4 }, data: { card: { connect: { id: 2 } } } })).status).toBe(200);
        expect(await cards()).toEqual({ 1: 1, 2: 4, 3: 2 });
        // a person with a card (locked or not) cannot take another: its card cannot be left without a person
        for (const [person, card] of [
            [1, 3],
            [2, 2],
        ]) {
            const res = await call('PUT', '/person/update', { where: { id: person }, data: { card: { connect: { id: card } } } });
            expect([res.status, res.body.error?.code]).toEqual([400, 'P2014']);
            expect(await cards()).toEqual({ 1: 1, 2: 4, 3: 2 });
        }
    });

    it('non-owner side: a partner deleted by the same write is deleted under its delete rule, not detached under its update rule', async () => {
        if (skip()) return;
        // profile 1 (user 1's) may be deleted but not updated: Prisma deletes it, then links profile 2, as ZenStack alone does
        const res = await call('PUT', '/user/update', { where: { id: 1 }, data: { profile: { delete: true, connect: { id: 2 } } }, include: { profile: true } });
        expect([res.status, res.body.data?.profile?.id]).toEqual([200, 2]);
        expect(await profiles()).toEqual({ 2: 1, 3: 2 });
        // a create in its place: ZenStack alone made the create first, then deleted the new profile and left profile 3 detached
        expect((await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { delete: true, create: { id: 5 } } } })).status).toBe(200);
        expect(await profiles()).toEqual({ 2: 1, 5: 2 });
        // in an upsert's update branch the same; of a user that is not there, its create runs and nothing is deleted
        expect((await call('POST', '/user/upsert', { where: { id: 2 }, create: { id: 2 }, update: { profile: { delete: true, create: { id: 6 } } } })).status).toBe(200);
        expect(await profiles()).toEqual({ 2: 1, 6: 2 });
        expect((await call('POST', '/user/upsert', { where: { id: 7 }, create: { id: 7 }, update: { profile: { delete: true, create: { id: 8 } } } })).status).toBe(200);
        expect([await profiles(), await s.prisma.user.count({ where: { id: 7 } })]).toEqual([{ 2: 1, 6: 2 }, 1]);
        // deleting the partner and naming it again: Prisma finds the named record before the delete and links nothing
        // else, so the partner is deleted (as Prisma alone, ZenStack alone and 2.22.3 do), under its delete rule
        const again = await call('PUT', '/user/update', { where: { id: 1 }, data: { profile: { delete: true, connect: { id: 2 } } }, include: { profile: true } });
        expect([again.status, again.body.data?.profile]).toEqual([200, null]);
        expect(await profiles()).toEqual({ 6: 2 });
        // `delete: false` deletes nothing: the partner is still detached first, under its update rule
        await s.prisma.profile.update({ where: { id: 6 }, data: { locked: true } });
        const kept = await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { delete: false, create: { id: 9 } } } });
        expect([kept.status, kept.body.error?.reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
        expect(await profiles()).toEqual({ 6: 2 });
    });

    describe("non-owner side: nested writes beside a link run in Prisma's order, on the partner before it and on the new one after it", () => {
        const locks = async () => Object.fromEntries((await s.prisma.profile.findMany({ orderBy: { id: 'asc' } })).map((p: Row & { locked: boolean }) => [p.id, p.locked]));

        it('a link naming the current partner detaches nothing, so the writes after it change that partner', async () => {
            if (skip()) return;
            const named = await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { connect: { id: 3 }, update: { locked: true } } }, include: { profile: true } });
            expect([named.status, named.body.data?.profile]).toEqual([200, { id: 3, userId: 2, locked: true }]);
            await s.prisma.profile.update({ where: { id: 3 }, data: { locked: false } });
            const upsert = { create: { id: 3 }, update: { locked: true } };
            const both = await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { connectOrCreate: { where: { id: 3 }, create: { id: 3 } }, upsert } } });
            expect(both.status).toBe(200);
            expect([await profiles(), (await locks())[3]]).toEqual([{ 1: 1, 2: null, 3: 2 }, true]);
        });

        it('after a link to another record, the writes change the new partner', async () => {
            if (skip()) return;
            const res = await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { connect: { id: 2 }, update: { locked: true } } }, include: { profile: true } });
            expect([res.status, res.body.data?.profile]).toEqual([200, { id: 2, userId: 2, locked: true }]);
            expect([await profiles(), await locks()]).toEqual([{ 1: 1, 2: 2, 3: null }, { 1: true, 2: true, 3: false }]);
        });

        it('before a link, the writes change the current partner, which is then detached under its update rule', async () => {
            if (skip()) return;
            const unlocked = await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { update: { locked: false }, connect: { id: 2 } } } });
            expect(unlocked.status).toBe(200);
            expect(await profiles()).toEqual({ 1: 1, 2: 2, 3: null });
            // the partner locked by the same write may no longer be updated: detaching it is refused, and nothing stays
            const before = [await profiles(), await locks()];
            const locked = await call('PUT', '/user/update', { where: { id: 2 }, data: { profile: { update: { locked: true }, connect: { id: 3 } } } });
            expect([locked.status, locked.body.error?.reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
            expect([await profiles(), await locks()]).toEqual(before);
        });
    });

    it('a guarded link inside a sequential transaction rolls the whole transaction back', async () => {
        if (skip()) return;
        const before = await profiles();
        const res = await rpcCaller(s, { user: { id: 1 } })('POST', '/$transaction/sequential', {
            body: [
                { model: 'profile', op: 'update', args: { where: { id: 2 }, data: { user: { connect: { id: 3 } } } } },
                { model: 'user', op: 'update', args: { where: { id: 1 }, data: { profile: { connect: { id: 3 } } } } },
            ],
        });
        expect([res.status, res.body.error?.failedOperation]).toEqual([403, 1]);
        expect(await profiles()).toEqual(before);
    });
}

describe('RPC one-to-one links with other relations in the same write [sqlite]', () => {
    const SCHEMA = `
model Holder {
  id    Int    @id
  badge Badge?
  @@allow('all', true)
}

model Group {
  id     Int     @id
  name   String  @default("")
  badges Badge[]
  @@allow('all', true)
}

model Badge {
  id       Int     @id
  holder   Holder? @relation(fields: [holderId], references: [id])
  holderId Int?    @unique
  group    Group?  @relation(fields: [groupId], references: [id])
  groupId  Int?
  @@allow('all', true)
}
`;
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.holder.createMany({ data: [{ id: 1 }, { id: 2 }, { id: 3 }] });
        await s.prisma.group.create({ data: { id: 1 } });
        await s.prisma.badge.create({ data: { id: 1, holderId: 1, groupId: 1 } });
    });
    afterEach(() => s.cleanup());
    const call = (method: string, path: string, body: unknown) => rpcCaller(s, { user: { id: 1 } })(method, path, { body });
    const badges = async () => (await s.prisma.badge.findMany({ orderBy: { id: 'asc' } })).map((b: { id: number; holderId: number | null; groupId: number | null }) => [b.id, b.holderId, b.groupId]);

    it('writes the other owner-side relations as keys too: connect, create, connectOrCreate, disconnect', async () => {
        const connect = await call('POST', '/badge/create', { data: { id: 2, holder: { connect: { id: 2 } }, group: { connect: { id: 1 } } } });
        expect(connect.status).toBe(201);
        const create = await call('POST', '/badge/create', { data: { id: 3, holder: { connect: { id: 3 } }, group: { create: { id: 2, name: 'new' } } } });
        expect(create.status).toBe(201);
        expect((await s.prisma.group.findUnique({ where: { id: 2 } })).name).toBe('new');
        const disconnect = await call('PUT', '/badge/update', { where: { id: 1 }, data: { holder: { connectOrCreate: { where: { id: 4 }, create: { id: 4 } } }, group: { disconnect: true } } });
        expect(disconnect.status).toBe(200);
        expect(await badges()).toEqual([
            [1, 4, null],
            [2, 2, 1],
            [3, 3, 2],
        ]);
    });

    it('a taken target writes none of them; other nested writes of those relations are a 400 saying so', async () => {
        const before = await badges();
        const taken = await call('POST', '/badge/create', { data: { id: 5, holder: { connect: { id: 1 } }, group: { create: { id: 5 } } } });
        expect([taken.status, taken.body.error?.code]).toEqual([400, 'P2002']);
        expect(await s.prisma.group.count()).toBe(1);
        const nested = await call('PUT', '/badge/update', { where: { id: 1 }, data: { holder: { connect: { id: 2 } }, group: { update: { name: 'x' } } } });
        expect([nested.status, nested.body.error?.message]).toEqual([400, expect.stringMatching(/"group": a write that links a one-to-one relation by its foreign key/)]);
        expect(await badges()).toEqual(before);
    });

    it("an upsert writes nothing ahead for a branch that does not run, and refuses a branch it cannot guard", async () => {
        // the record is there: the create branch, which names a holder that does not exist, is not run
        const existing = await call('POST', '/badge/upsert', { where: { id: 1 }, create: { id: 1, holder: { connect: { id: 77 } } }, update: { holder: { connect: { id: 2 } } } });
        expect(existing.status).toBe(200);
        expect(await badges()).toEqual([[1, 2, 1]]);
        // nor is a new group of that branch made
        const noGroup = await call('POST', '/badge/upsert', { where: { id: 1 }, create: { id: 1, holder: { connect: { id: 3 } }, group: { create: { id: 9 } } }, update: {} });
        expect([noGroup.status, noGroup.body.error?.message]).toEqual([400, expect.stringMatching(/"holder": an upsert branch that links an existing record one to one/)]);
        expect(await s.prisma.group.count()).toBe(1);
        // the record is not there: the create branch runs, its link written as the key (a taken holder is refused)
        const taken = await call('POST', '/badge/upsert', { where: { id: 4 }, create: { id: 4, holder: { connect: { id: 2 } } }, update: {} });
        expect([taken.status, taken.body.error?.code]).toEqual([400, 'P2002']);
        const created = await call('POST', '/badge/upsert', { where: { id: 4 }, create: { id: 4, holder: { connectOrCreate: { where: { id: 5 }, create: { id: 5 } } } }, update: {} });
        expect(created.status).toBe(200);
        expect(await badges()).toEqual([
            [1, 2, 1],
            [4, 5, null],
        ]);
    });
});

describe('RPC one-to-one links by a key the user may not read [sqlite]', () => {
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(ONE_TO_ONE_HIDDEN_KEY_SCHEMA);
        await seedOneToOneHiddenKeys(s);
    });
    afterEach(() => s.cleanup());
    const call = (method: string, path: string, body: unknown) => rpcCaller(s, { user: { id: 1 } })(method, path, { body });
    const locker = async (id: number) => s.prisma.locker.findUnique({ where: { id } });

    it('links as the ORM does when the key cannot be read, never dropping the link', async () => {
        expect((await call('PUT', '/locker/update', { where: { id: 1 }, data: { member: { connect: { id: 1 } } } })).status).toBe(200);
        expect((await locker(1)).memberCode).toBe('m1');
        // the same for another relation of a write that links one to one by a readable key
        expect((await call('POST', '/locker/create', { data: { id: 3, owner: { connect: { id: 1 } }, club: { connect: { id: 1 } } } })).status).toBe(201);
        expect(await locker(3)).toMatchObject({ ownerId: 1, clubCode: 'c1' });
    });

    it('a record that would be created for another relation and whose key cannot be read refuses the whole write (400)', async () => {
        const res = await call('POST', '/locker/create', { data: { id: 4, owner: { connect: { id: 2 } }, club: { create: { id: 5, code: 'c5' } } } });
        expect([res.status, res.body.error?.message]).toEqual([400, expect.stringMatching(/the new "club" cannot be linked by its foreign key/)]);
        expect(await s.prisma.club.count()).toBe(1);
        expect(await locker(4)).toBeNull();
    });

    it('a target made by the write whose key cannot be read is linked by its id (it has no partner to lose)', async () => {
        const res = await call('PUT', '/locker/update', { where: { id: 1 }, data: { member: { connectOrCreate: { where: { id: 7 }, create: { id: 7, code: 'm7' } } } } });
        expect(res.status).toBe(200);
        expect((await locker(1)).memberCode).toBe('m7');
        // named by the key the user may not read: not found, as a missing one, so made; another made beside it too
        const made = await call('POST', '/locker/create', {
            data: { id: 5, member: { connectOrCreate: { where: { code: 'm1' }, create: { id: 8, code: 'm8' } } }, club: { create: { id: 5, code: 'c5' } } },
        });
        expect(made.status).toBe(201);
        expect(await locker(5)).toMatchObject({ memberCode: 'm8', clubCode: 'c5' });
        expect((await locker(1)).memberCode).toBe('m7');
    });
});

describe('RPC one-to-one links in shapes ZenStack writes its own way [sqlite]', () => {
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(ONE_TO_ONE_SHAPES_SCHEMA);
        await seedOneToOneShapes(s);
    });
    afterEach(() => s.cleanup());
    const call = (method: string, path: string, body: unknown) => rpcCaller(s, { user: { id: 1 } })(method, path, { body });
    const capitals = async () => (await s.prisma.capital.findMany({ orderBy: { id: 'asc' } })).map((c: { cCode: string | null; cLang: string | null }) => c.cCode && `${c.cCode}_${c.cLang}`);

    it('a compound foreign key: links from the other side, detaching a partner the user may update, refusing a locked one', async () => {
        const free = await call('PUT', '/country/update', { where: { code_lang: { code: 'ch', lang: 'de' } }, data: { capital: { connect: { id: 2 } } } });
        expect([free.status, free.body.error]).toEqual([200, undefined]);
        expect(await capitals()).toEqual(['fr_fr', 'ch_de', 'ch_fr']);
        const replace = await call('PUT', '/country/update', { where: { code_lang: { code: 'ch', lang: 'fr' } }, data: { capital: { create: { id: 9 } } } });
        expect(replace.status).toBe(200);
        expect(await capitals()).toEqual(['fr_fr', 'ch_de', null, 'ch_fr']);
        const locked = await call('PUT', '/country/update', { where: { code_lang: { code: 'fr', lang: 'fr' } }, data: { capital: { connect: { id: 3 } } } });
        expect(locked.status).toBe(403);
        expect(await capitals()).toEqual(['fr_fr', 'ch_de', null, 'ch_fr']);
    });

    it('a link from the other side under a to-one update', async () => {
        const res = await call('PUT', '/post/update', { where: { id: 1 }, data: { author: { update: { profile: { connect: { id: 2 } } } } } });
        expect([res.status, res.body.error]).toEqual([200, undefined]);
        expect((await s.prisma.profile.findUnique({ where: { id: 2 } })).personId).toBe(3);
        // with a partner: person 1's profile 1 is detached first
        await s.prisma.post.update({ where: { id: 1 }, data: { authorId: 1 } });
        const replace = await call('PUT', '/post/update', { where: { id: 1 }, data: { author: { update: { data: { profile: { connect: { id: 2 } } } } } } });
        expect([replace.status, replace.body.error]).toEqual([200, undefined]);
        expect((await s.prisma.profile.findMany({ orderBy: { id: 'asc' } })).map((p: { personId: number | null }) => p.personId)).toEqual([null, 1]);
    });

    it('a @@delegate model is written as sent (ZenStack turns keys back into connects there); an empty relation object is no change', async () => {
        const video = await call('PUT', '/video/update', { where: { id: 1 }, data: { cover: { connect: { id: 2 } }, owner: { connect: { id: 2 } } } });
        expect([video.status, video.body.error]).toEqual([200, undefined]);
        expect(await s.enhance().video.findUnique({ where: { id: 1 } })).toMatchObject({ coverId: 2, ownerId: 2 });
        const empty = await call('POST', '/post/create', { data: { id: 2, author: {} } });
        expect(empty.status).toBe(201);
        const profile = await call('POST', '/profile/create', { data: { id: 7, person: { connect: { id: 2 } } } });
        expect(profile.status).toBe(201);
    });
});

describe('RPC one-to-one links [sqlite]', () => suite('sqlite'));
describePg('RPC one-to-one links', () => suite('postgresql'));

describe('RPC one-to-one links by a unique field the user may not read [sqlite]', () => {
    const SCHEMA = `
model User {
  id      Int      @id
  email   String   @unique @allow('read', auth() == this)
  profile Profile?
  @@allow('all', true)
}
model Profile {
  id     Int    @id
  user   User   @relation(fields: [userId], references: [id])
  userId Int    @unique
  @@allow('all', true)
}
`;
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.user.createMany({ data: [{ id: 1, email: 'alice@x' }, { id: 2, email: 'bob@x' }] });
    });
    afterEach(() => s?.cleanup());

    it('is not found for a user who may not read it (anonymous: ZenStack leaves the lookup without a unique field), found by one who may', async () => {
        const args = { data: { id: 9, user: { connect: { email: 'bob@x' } } } };
        for (const user of [undefined, { id: 1 }]) {
            const res = await rpcCaller(s, { user, logger: null })('POST', '/profile/create', { body: args });
            expect({ user, status: res.status, code: res.body.error?.code }).toEqual({ user, status: 404, code: 'P2025' });
            expect(await s.prisma.profile.count()).toBe(0);
        }
        const bob = await rpcCaller(s, { user: { id: 2 } })('POST', '/profile/create', { body: args });
        expect([bob.status, bob.body.data]).toEqual([201, { id: 9, userId: 2 }]);
    });
});

describe('RPC one-to-one links beside writes on the partner, reached through a record with a compound id', () => {
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(ZOO_SCHEMA);
        await seedZoo(s);
    });
    afterEach(() => s?.cleanup());

    const badges = async () => (await s.prisma.badge.findMany({ orderBy: { id: 'asc' } })).map((b: { id: number; label: string; userId: number | null }) => [b.id, b.label, b.userId]);
    // doc a/one is user 1's, and user 1 holds badge 1; badge 2 is nobody's
    const upsertDoc = (connectOrCreate: unknown) => ({
        where: { ns_slug: { ns: 'a', slug: 'one' } },
        create: { ns: 'a', slug: 'one', title: 'New' },
        update: { owner: { update: { badge: { connectOrCreate, upsert: { create: { id: 1, label: 'New' }, update: { label: 'kept' } } } } } },
    });

    it('a connectOrCreate naming the current partner, then an upsert: the partner is updated (was a 400 from inside ZenStack)', async () => {
        const res = await rpcCaller(s, { user: { id: 1 } })('POST', '/doc/upsert', { body: upsertDoc({ where: { id: 1 }, create: { id: 1, label: 'New' } }) });
        expect(res.status).toBe(200);
        expect(await badges()).toEqual([[1, 'kept', 1], [2, 'loose', null]]);
    });

    it('a connectOrCreate of another record, then an upsert: the old partner is detached under its rule, the new one updated', async () => {
        const res = await rpcCaller(s, { user: { id: 1 } })('POST', '/doc/upsert', { body: upsertDoc({ where: { id: 2 }, create: { id: 2, label: 'New' } }) });
        expect(res.status).toBe(200);
        expect(await badges()).toEqual([[1, 'gold', null], [2, 'kept', 1]]);
    });
});
