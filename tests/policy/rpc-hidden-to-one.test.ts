import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * Nested to-one writes on the partner of a one-to-one relation. ZenStack looks the partner up without its
 * read rule, so `{ profile: { update | delete | disconnect } }` on a user whose profile the caller cannot
 * read answered 403 (or wrote the hidden profile) where a user without a profile answers 404 (200 for a
 * disconnect): whether a user has a hidden profile was a yes/no question. A partner the caller cannot read
 * is treated as none. And an `upsert` whose create runs (its `where` does not match the partner) made
 * Prisma detach the current partner without its update rule being checked.
 */

const SCHEMA = `
model User {
  id      Int      @id
  profile Profile?
  @@allow('all', true)
}
model Profile {
  id     Int     @id
  bio    String  @default('')
  secret Boolean @default(false)
  locked Boolean @default(false)
  user   User?   @relation(fields: [userId], references: [id])
  userId Int?    @unique
  @@allow('read', !secret)
  @@allow('create', true)
  @@allow('update,delete', !locked)
}
`;

// user 1: a hidden, locked profile; 2: a hidden profile; 3: none; 4: a visible, locked one; 5: a visible one
const HIDDEN_LOCKED = 1;
const HIDDEN = 2;
const NONE = 3;

let s: TestSchema;
beforeEach(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({ data: [1, 2, 3, 4, 5].map((id) => ({ id })) });
    await s.prisma.profile.createMany({
        data: [
            { id: 1, userId: 1, secret: true, locked: true },
            { id: 2, userId: 2, secret: true },
            { id: 4, userId: 4, locked: true },
            { id: 5, userId: 5 },
        ],
    });
});
afterEach(() => s.cleanup());

const profiles = async () => s.prisma.profile.findMany({ orderBy: { id: 'asc' } });
const update = (user: number, profile: unknown) => rpcAs(s, { id: 9 }, 'PUT', '/user/update', { where: { id: user }, data: { profile } });

const NESTED: [string, unknown][] = [
    ['update', { update: { bio: 'mine' } }],
    ['update with { where, data }', { update: { where: { bio: '' }, data: { bio: 'mine' } } }],
    ['delete', { delete: true }],
    ['disconnect', { disconnect: true }],
];

it.each(NESTED)('a nested to-one %s of a hidden partner answers as for no partner, and changes nothing', async (_name, profile) => {
    const before = await profiles();
    const none = await update(NONE, profile);
    for (const user of [HIDDEN_LOCKED, HIDDEN]) {
        const hidden = await update(user, profile);
        expect({ user, status: hidden.status, text: hidden.text.replace(`"id":${user}`, `"id":${NONE}`) }).toEqual({ user, status: none.status, text: none.text });
    }
    expect(await profiles()).toEqual(before);
});

it('a nested to-one upsert of a hidden partner runs its create, which detaches the partner only under its update rule', async () => {
    const upsert = { upsert: { create: { id: 7 }, update: { bio: 'mine' } } };
    const before = await profiles();
    expect((await update(HIDDEN_LOCKED, upsert)).status).toBe(403);
    expect(await profiles()).toEqual(before);
    expect((await update(HIDDEN, upsert)).status).toBe(200);
    expect((await update(NONE, { upsert: { create: { id: 8 }, update: { bio: 'mine' } } })).status).toBe(200);
    const after = await profiles();
    expect(after.map((p: { id: number; userId: number | null; bio: string }) => [p.id, p.userId, p.bio])).toEqual([
        [1, 1, ''],
        [2, null, ''],
        [4, 4, ''],
        [5, 5, ''],
        [7, 2, ''],
        [8, 3, ''],
    ]);
});

it('an upsert whose where does not match the partner does not detach a partner that may not be updated', async () => {
    const upsert = { upsert: { where: { bio: 'no such bio' }, create: { id: 7 }, update: { bio: 'mine' } } };
    const before = await profiles();
    const res = await update(4, upsert);
    expect([res.status, res.body.error?.reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
    expect(await profiles()).toEqual(before);
    // one that may be updated is detached; a matching where updates the partner in place
    expect((await update(5, upsert)).status).toBe(200);
    expect((await update(5, { upsert: { where: { id: 7 }, create: { id: 8 }, update: { bio: 'mine' } } })).status).toBe(200);
    const rows = (await profiles()).map((p: { id: number; userId: number | null; bio: string }) => [p.id, p.userId, p.bio]);
    expect(rows).toEqual([
        [1, 1, ''],
        [2, 2, ''],
        [4, 4, ''],
        [5, null, ''],
        [7, 5, 'mine'],
    ]);
});

it('an update beside a write that makes a partner updates the partner just made, as Prisma orders them, also where the current one is hidden', async () => {
    type Row = { id: number; userId: number | null; bio: string };
    const rows = async () => (await profiles()).map((p: Row) => [p.id, p.userId, p.bio]);
    // no partner: Prisma makes one, then updates it (this was a 404: the update was narrowed to match no partner)
    await s.prisma.user.create({ data: { id: 6 } });
    expect((await update(NONE, { create: { id: 7 }, update: { bio: 'new' } })).status).toBe(200);
    expect((await update(6, { upsert: { create: { id: 8 }, update: {} }, update: { bio: 'newer' } })).status).toBe(200);
    // a hidden partner that may be updated is detached first, under its rule; the update goes to the new partner
    expect((await update(HIDDEN, { create: { id: 9 }, update: { bio: 'mine' } })).status).toBe(200);
    expect(await rows()).toEqual([
        [1, 1, ''],
        [2, null, ''],
        [4, 4, ''],
        [5, 5, ''],
        [7, 3, 'new'],
        [8, 6, 'newer'],
        [9, 2, 'mine'],
    ]);
    // a hidden partner that may not be updated is not detached: 403, nothing written
    const before = await profiles();
    const refused = await update(HIDDEN_LOCKED, { create: { id: 10 }, update: { bio: 'mine' } });
    expect(refused.status).toBe(403);
    expect(await profiles()).toEqual(before);
});

it('an update before a create acts on the current partner: on a hidden one it answers as for none, and changes nothing', async () => {
    const before = await profiles();
    const profile = { update: { bio: 'mine' }, create: { id: 11 } };
    const none = await update(NONE, profile);
    expect(none.status).toBe(404);
    for (const user of [HIDDEN_LOCKED, HIDDEN]) {
        const hidden = await update(user, profile);
        expect({ user, status: hidden.status, text: hidden.text.replace(`"id":${user}`, `"id":${NONE}`) }).toEqual({ user, status: none.status, text: none.text });
    }
    expect(await profiles()).toEqual(before);
});

it('a disconnect after a create acts on the partner just made, also where the current one is hidden', async () => {
    type Row = { id: number; userId: number | null };
    const links = async () => Object.fromEntries((await profiles()).map((p: Row) => [p.id, p.userId]));
    expect((await update(NONE, { create: { id: 11 }, disconnect: true })).status).toBe(200);
    // the hidden partner that may be updated is detached first, under its rule
    expect((await update(HIDDEN, { create: { id: 12 }, disconnect: true })).status).toBe(200);
    expect(await links()).toEqual({ 1: 1, 2: null, 4: 4, 5: 5, 11: null, 12: null });
});
