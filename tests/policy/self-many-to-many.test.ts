import { RestApiHandler } from '../../src/api/rest';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A many-to-many relation from a model to itself (`following`/`followers`): ZenStack 2.x's metadata marks
 * neither side as owning it, so its policy engine checked no update rule when records were linked or
 * unlinked through it (any reader, anonymous too, could rewire anyone's followers). Both handlers check
 * what ZenStack checks for a many-to-many relation between two models: the record whose relation changes
 * and every record linked or unlinked, under their update rules. `Group.members` (between two models) is the
 * reference: ZenStack guards it itself, and the answers agree.
 */

const SCHEMA = `
model User {
  id        Int      @id
  role      String   @default('USER')
  hidden    Boolean  @default(false)
  touched   DateTime @updatedAt
  following User[]   @relation("follows")
  followers User[]   @relation("follows")
  groups    Group[]
  @@allow('read', !hidden || auth() == this)
  @@allow('create', true)
  @@allow('update', auth() == this || auth().role == 'ADMIN')
}
model Group {
  id      Int    @id
  members User[]
  @@allow('read,create', true)
  @@allow('update', auth().role == 'ADMIN')
}
`;

type User = { id: number; role?: string } | undefined;
const ALICE = { id: 1 };
const BOB = { id: 2 };
const ADMIN = { id: 9, role: 'ADMIN' };
const ENDPOINT = 'http://localhost/api';
const rest = RestApiHandler({ endpoint: ENDPOINT });

function suite(provider: Provider) {
    let s: TestSchema;
    beforeEach(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider });
        for (const id of [1, 2, 3, 4, 9]) {
            await s.prisma.user.create({ data: { id, role: id === 9 ? 'ADMIN' : 'USER', hidden: id === 4, touched: new Date('2020-01-01T00:00:00Z') } });
        }
        // alice follows carol; bob follows nobody
        await s.prisma.user.update({ where: { id: 1 }, data: { following: { connect: [{ id: 3 }] } } });
        await s.prisma.group.create({ data: { id: 1, members: { connect: [{ id: 1 }] } } });
    });
    afterEach(() => s?.cleanup());
    const skip = () => provider === 'postgresql' && !s;

    /** Who follows whom, and every `touched` (a check must not change it). */
    const state = async () => {
        const users = await s.prisma.user.findMany({ orderBy: { id: 'asc' }, select: { id: true, touched: true, following: { select: { id: true }, orderBy: { id: 'asc' } } } });
        return users.map((u: { id: number; touched: Date; following: { id: number }[] }) => `${u.id}->[${u.following.map((f) => f.id)}] ${u.touched.toISOString()}`);
    };
    const rpc = (user: User, method: string, path: string, args: unknown) => rpcAs(s, user as { id: number }, method, path, args);
    const restAs = (user: User, method: string, path: string, body?: unknown) =>
        rest({ method, path, query: {}, requestBody: body, prisma: s.enhance(user), modelMeta: s.modelMeta, logger: null });
    const ids = (...list: number[]) => ({ data: list.map((id) => ({ type: 'user', id: String(id) })) });

    it('RPC: a user who may not update a record cannot rewire its links, nor link or unlink records they may not update (403, nothing written)', async () => {
        if (skip()) return;
        const before = await state();
        const denied: [User, string, unknown][] = [
            [BOB, 'update', { where: { id: 1 }, data: { following: { set: [] } } }],
            [BOB, 'update', { where: { id: 1 }, data: { following: { disconnect: [{ id: 3 }] } } }],
            [BOB, 'update', { where: { id: 1 }, data: { following: { connect: [{ id: 2 }] } } }],
            [BOB, 'update', { where: { id: 3 }, data: { followers: { disconnect: [{ id: 1 }] } } }],
            // bob's own record, linking alice: her update rule (as for Group.members, below)
            [BOB, 'update', { where: { id: 2 }, data: { following: { connect: [{ id: 1 }] } } }],
            [BOB, 'update', { where: { id: 2 }, data: { followers: { set: [{ id: 3 }] } } }],
            [undefined, 'update', { where: { id: 1 }, data: { following: { connect: [{ id: 2 }] } } }],
            [BOB, 'create', { data: { id: 7, following: { connect: [{ id: 1 }] } } }],
            [BOB, 'upsert', { where: { id: 1 }, create: { id: 1 }, update: { following: { set: [] } } }],
            [BOB, 'upsert', { where: { id: 8 }, create: { id: 8, followers: { connect: [{ id: 3 }] } }, update: {} }],
        ];
        for (const [user, op, args] of denied) {
            const res = await rpc(user, op === 'update' ? 'PUT' : 'POST', `/user/${op}`, args);
            expect({ args, status: res.status, reason: res.body.error?.reason }).toEqual({ args, status: 403, reason: 'ACCESS_POLICY_VIOLATION' });
            expect(await state()).toEqual(before);
        }
        // the same links between two models: ZenStack refuses them itself
        const group = await rpc(BOB, 'PUT', '/user/update', { where: { id: 2 }, data: { groups: { connect: [{ id: 1 }] } } });
        expect(group.status).toBe(403);
    });

    it('RPC: links the user may make are written, and checking them changes nothing else (not even @updatedAt)', async () => {
        if (skip()) return;
        const before = await state();
        // alice unlinks herself from carol... carol's record is part of the link: only an admin may
        expect((await rpc(ALICE, 'PUT', '/user/update', { where: { id: 1 }, data: { following: { disconnect: [{ id: 3 }] } } })).status).toBe(403);
        // a disconnect of a record that is not a member changes nothing and checks nothing of it
        const none = await rpc(ALICE, 'PUT', '/user/update', { where: { id: 1 }, data: { following: { disconnect: [{ id: 2 }] } } });
        expect(none.status).toBe(200);
        // alice follows herself: her own record on both sides
        const self = await rpc(ALICE, 'PUT', '/user/update', { where: { id: 1 }, data: { following: { connect: [{ id: 1 }] } }, select: { following: { select: { id: true }, orderBy: { id: 'asc' } } } });
        expect([self.status, self.body.data]).toEqual([200, { following: [{ id: 1 }, { id: 3 }] }]);
        const admin = await rpc(ADMIN, 'PUT', '/user/update', { where: { id: 2 }, data: { following: { set: [{ id: 1 }, { id: 3 }] } } });
        expect(admin.status).toBe(200);
        const after = await state();
        expect(after).toEqual([`1->[1,3] ${before[0].split(' ')[1]}`, `2->[1,3] ${before[1].split(' ')[1]}`, before[2], before[3], before[4]]);
        // a record the user cannot read cannot be checked: connecting it is a 404, as if it were missing
        const hidden = await rpc(ALICE, 'PUT', '/user/update', { where: { id: 1 }, data: { following: { connect: [{ id: 4 }] } } });
        expect([hidden.status, hidden.body.error?.code]).toEqual([404, 'P2025']);
        // a connectOrCreate naming it runs its create, as for a missing record (here: a unique violation)
        const hiddenFound = { where: { id: 1 }, data: { following: { connectOrCreate: [{ where: { id: 4 }, create: { id: 4 } }] } } };
        const created = await rpc(ALICE, 'PUT', '/user/update', hiddenFound);
        expect([created.status, created.body.error?.code]).toEqual([400, 'P2002']);
        // one that finds its record checks it by writing its key back: alice may not update user 2, the admin may
        const found = { where: { id: 1 }, data: { following: { connectOrCreate: [{ where: { id: 2 }, create: { id: 2 } }] } } };
        expect((await rpc(ALICE, 'PUT', '/user/update', found)).status).toBe(403);
        expect(await state()).toEqual(after);
        expect((await rpc(ADMIN, 'PUT', '/user/update', found)).status).toBe(200);
        expect((await state())[0]).toBe(`1->[1,2,3] ${before[0].split(' ')[1]}`);
        // a scalar change beside the link: the ORM checks the record (and sets @updatedAt) itself
        const both = await rpc(ALICE, 'PUT', '/user/update', { where: { id: 1 }, data: { role: 'USER', following: { disconnect: [{ id: 1 }] } } });
        expect(both.status).toBe(200);
        expect(await s.prisma.user.findUnique({ where: { id: 1 }, select: { touched: true } })).not.toEqual({ touched: new Date('2020-01-01T00:00:00Z') });
    });

    it('RPC: an upsert of a record the user may update but not read runs as the create it is for them (the guards cannot see the record)', async () => {
        if (skip()) return;
        // carol follows the hidden user 4; the admin may update user 4 but not read it
        await s.prisma.user.update({ where: { id: 3 }, data: { following: { connect: [{ id: 4 }] } } });
        const before = await state();
        for (const update of [{ followers: { set: [] } }, { followers: { disconnect: [{ id: 3 }] } }, { following: { connect: [{ id: 1 }] } }]) {
            const res = await rpc(ADMIN, 'POST', '/user/upsert', { where: { id: 4 }, create: { id: 4 }, update });
            expect({ update, status: res.status, code: res.body.error?.code }).toEqual({ update, status: 400, code: 'P2002' });
            expect(await state()).toEqual(before);
        }
    });

    it('REST: relationship writes and resource writes through the self-relation are checked the same way', async () => {
        if (skip()) return;
        const before = await state();
        const denied: [User, string, string, unknown][] = [
            [BOB, 'PATCH', '/user/1/relationships/following', ids()],
            [BOB, 'DELETE', '/user/1/relationships/following', ids(3)],
            [BOB, 'POST', '/user/1/relationships/following', ids(2)],
            [BOB, 'POST', '/user/2/relationships/following', ids(1)],
            [undefined, 'POST', '/user/3/relationships/followers', ids(2)],
            [BOB, 'PATCH', '/user/1', { data: { type: 'user', id: '1', relationships: { following: ids() } } }],
            [BOB, 'POST', '/user', { data: { type: 'user', id: '7', relationships: { following: ids(1) } } }],
            [BOB, 'POST', '/user', { data: { type: 'user', id: '1', relationships: { followers: ids(3) } }, meta: { operation: 'upsert', matchFields: ['id'] } }],
            // not readable: cannot be checked, so not found (with a pointer at it)
            [BOB, 'POST', '/user/2/relationships/following', ids(4)],
        ];
        for (const [user, method, path, body] of denied) {
            const res = await restAs(user, method, path, body);
            const hidden = JSON.stringify(body).includes('"4"');
            expect({ method, path, status: res.status }).toEqual({ method, path, status: hidden ? 404 : 403 });
            expect(await state()).toEqual(before);
        }
        const ok = await restAs(ADMIN, 'PATCH', '/user/2/relationships/followers', ids(1, 3));
        expect(ok.status).toBe(200);
        const created = await restAs(BOB, 'POST', '/user', { data: { type: 'user', id: '7', relationships: { following: ids(2) } } });
        expect(created.status).toBe(201);
        const after = await state();
        expect(after.slice(0, 4)).toEqual([`1->[2,3] ${before[0].split(' ')[1]}`, `2->[] ${before[1].split(' ')[1]}`, `3->[2] ${before[2].split(' ')[1]}`, before[3]]);
        expect(after[4]).toMatch(/^7->\[2\] /);
        expect(after[5]).toBe(before[4]);
    });

    it('a record created linked to itself is linked, under its create rule (it is not there yet to look up)', async () => {
        if (skip()) return;
        const created = await restAs(BOB, 'POST', '/user', { data: { type: 'user', id: '7', relationships: { following: ids(7) } } });
        expect(created.status).toBe(201);
        const rpcCreated = await rpc(BOB, 'POST', '/user/create', { data: { id: 8, followers: { connect: [{ id: 8 }] } } });
        expect(rpcCreated.status).toBe(201);
        const after = await state();
        expect(after.slice(4, 6).map((line: string) => line.split(' ')[0])).toEqual(['7->[7]', '8->[8]']);
        // another record that is not there yet is still not found
        const missing = await rpc(BOB, 'POST', '/user/create', { data: { id: 10, followers: { connect: [{ id: 11 }] } } });
        expect(missing.status).toBe(404);
        // beside a record the user may not update: the 403 of that one (the new record is not a missing one)
        const denied = await restAs(BOB, 'POST', '/user', { data: { type: 'user', id: '12', relationships: { following: ids(12, 1) } } });
        expect([denied.status, (denied.body as { errors: { code: string }[] }).errors[0].code]).toEqual([403, 'forbidden']);
        expect((await state()).length).toBe(7);
    });
}

describe('links through a self-relation many-to-many [sqlite]', () => suite('sqlite'));
describePg('links through a self-relation many-to-many', () => suite('postgresql'));
