import { describePg } from '../../support/postgres';
import type { Provider } from '../../support/schema';
import { docOf, errorsOf, firstError, openForSuite, snapshot, type Api } from './harness';

/**
 * What adding members to a to-many relationship answers and leaves behind, under every kind of rule ZenStack holds a
 * linked record to (its update rules, `@@deny`, a field-level update rule on its foreign key, post-update and
 * validation rules), with missing records and records the user cannot read named beside them. Written against the
 * one-by-one nested `connect` and kept for any faster form of it: the same status, error and rows.
 */

const SCHEMA = `
model Team {
  id      Int      @id
  members Member[]
  badges  Badge[]
  @@allow('all', true)
}

model Badge {
  id     Int     @id
  locked Boolean @default(false)
  team   Team    @relation(fields: [teamId], references: [id])
  teamId Int
  @@allow('read,create', true)
  @@allow('update', !locked)
}

model Member {
  id     Int     @id
  name   String  @length(1, 8)
  locked Boolean @default(false)
  hidden Boolean @default(false)
  team   Team?   @relation(fields: [teamId], references: [id])
  teamId Int?    @allow('update', name != 'fieldpin')

  @@allow('read', !hidden)
  @@allow('create', true)
  @@allow('update', !locked)
  @@deny('update', name == 'denied')
  @@deny('update', future().teamId == 1 && future().name == 'notone')
}
`;

const MODELS = ['team', 'member', 'badge'];

type Row = { id: number; name?: string; locked?: boolean; hidden?: boolean; teamId?: number | null };

function suite(provider: Provider) {
    let api!: Api;
    const ready = openForSuite(SCHEMA, provider, (opened) => (api = opened));

    /** Team 1 with member 1, team 2 with members 2..n+1 (and `special` ones, in team 2 unless said). */
    async function seed(n: number, special: Row[] = []): Promise<void> {
        const p = api.s.prisma;
        await p.badge.deleteMany();
        await p.member.deleteMany();
        await p.team.deleteMany();
        await p.team.createMany({ data: [{ id: 1 }, { id: 2 }] });
        const rows = Array.from({ length: n }, (_, i) => ({ id: i + 2, name: `m${i + 2}`, teamId: 2 }));
        await p.member.createMany({ data: [{ id: 1, name: 'one', teamId: 1 }, ...rows, ...special.map((r) => ({ name: 'x', teamId: 2, ...r }))] });
    }

    const ids = (...n: number[]) => n.map((id) => ({ type: 'member', id: String(id) }));
    const teamOf = async (id: number) => (await api.s.prisma.member.findUnique({ where: { id } }))?.teamId;

    /** Adds `members` to team 1: by POST, by a replacement keeping member 1, by a resource PATCH doing the same. */
    async function add(how: number, members: number[]): Promise<ReturnType<Api['call']>> {
        const data = ids(...members);
        if (how === 0) return api.call({ id: 1 }, 'POST', '/team/1/relationships/members', { data });
        const all = [...ids(1), ...data];
        if (how === 1) return api.call({ id: 1 }, 'PATCH', '/team/1/relationships/members', { data: all });
        return api.call({ id: 1 }, 'PATCH', '/team/1', { data: { type: 'team', id: '1', relationships: { members: { data: all } } } });
    }
    /** Where `add`'s body puts the i-th of the members it adds. */
    const pointer = (how: number, i: number) => (how === 0 ? `/data/${i}` : how === 1 ? `/data/${i + 1}` : `/data/relationships/members/data/${i + 1}`);

    it.each([0, 1, 2])('%#: members the user may update are linked (200), from another record or from none', async (how) => {
        if (!(await ready())) return;
        await seed(3, [{ id: 50, teamId: null }]);
        const res = await add(how, [2, 3, 50]);
        expect(res.status).toBe(200);
        if (how < 2) expect(docOf(res).data.map((d: { id: number }) => d.id).sort()).toEqual([1, 2, 3, 50]);
        expect(await Promise.all([1, 2, 3, 4, 50].map(teamOf))).toEqual([1, 1, 1, 2, 1]);
    });

    it.each([
        ['its update rule is false (@@allow)', { id: 50, locked: true }],
        ['a @@deny rule refuses it', { id: 50, name: 'denied' }],
        ['a field-level update rule on its foreign key refuses it', { id: 50, name: 'fieldpin' }],
        ['a post-update rule refuses the linked state', { id: 50, name: 'notone' }],
    ])('a member whose link is refused (%s): 403, nothing written', async (_what, special) => {
        if (!(await ready())) return;
        for (const how of [0, 1, 2]) {
            await seed(3, [special]);
            const before = await snapshot(api.s, MODELS);
            const res = await add(how, [2, 50, 3]);
            expect([res.status, firstError(res)]).toEqual([403, expect.objectContaining({ code: 'forbidden', ormCode: 'P2004', reason: 'ACCESS_POLICY_VIOLATION' })]);
            expect(await snapshot(api.s, MODELS)).toEqual(before);
        }
    });

    it('a linked member failing its validation rules: 422, nothing written; beside a refused one: the 403', async () => {
        if (!(await ready())) return;
        for (const how of [0, 1, 2]) {
            await seed(2, [{ id: 50, name: 'much too long' }, { id: 51, locked: true }]);
            const before = await snapshot(api.s, MODELS);
            const res = await add(how, [2, 50]);
            expect(res.status).toBe(422);
            expect(errorsOf(res).map((e) => [e.code, e.reason])).toEqual([['validation-error', 'DATA_VALIDATION_VIOLATION']]);
            expect(await snapshot(api.s, MODELS)).toEqual(before);
            for (const order of [[50, 51], [51, 50]]) {
                const both = await add(how, [2, ...order]);
                expect([both.status, firstError(both).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
                expect(await snapshot(api.s, MODELS)).toEqual(before);
            }
        }
    });

    it('a missing record, or one the user cannot read beside a refused member: 404 pointing at it, nothing written', async () => {
        if (!(await ready())) return;
        for (const how of [0, 1, 2]) {
            await seed(2, [{ id: 50, locked: true }, { id: 60, hidden: true }]);
            const before = await snapshot(api.s, MODELS);
            for (const [members, at] of [
                [[2, 999], 1],
                [[2, 50, 999], 2],
                [[60, 50, 2], 0],
            ] as const) {
                const res = await add(how, [...members]);
                expect([res.status, firstError(res).code, firstError(res).source]).toEqual([404, 'not-found', { pointer: pointer(how, at) }]);
                expect(await snapshot(api.s, MODELS)).toEqual(before);
            }
        }
    });

    it('a record the user cannot read but may update is linked, as ZenStack links it (only its update rule is checked)', async () => {
        if (!(await ready())) return;
        for (const how of [0, 1, 2]) {
            await seed(2, [{ id: 60, hidden: true }]);
            const res = await add(how, [2, 60]);
            expect(res.status).toBe(200);
            if (how < 2) expect(docOf(res).data).toEqual([{ type: 'member', id: 1 }, { type: 'member', id: 2 }]);
            expect(await Promise.all([2, 60].map(teamOf))).toEqual([1, 1]);
        }
    });

    it('members whose link is required are moved (200); a refused or missing one: 403 or 404, nothing written', async () => {
        if (!(await ready())) return;
        const badges = (...n: number[]) => n.map((id) => ({ type: 'badge', id: String(id) }));
        const reseed = async () => {
            await seed(0);
            await api.s.prisma.badge.createMany({ data: [{ id: 1, teamId: 1 }, { id: 2, teamId: 2 }, { id: 3, teamId: 2 }, { id: 4, teamId: 2, locked: true }] });
            return snapshot(api.s, MODELS);
        };
        const badgeTeams = async () => (await api.s.prisma.badge.findMany({ orderBy: { id: 'asc' } })).map((b: { teamId: number }) => b.teamId);
        let before = await reseed();
        const moved = await api.call({ id: 1 }, 'POST', '/team/1/relationships/badges', { data: badges(2, 3) });
        expect([moved.status, docOf(moved).data.map((d: { id: number }) => d.id)]).toEqual([200, [1, 2, 3]]);
        expect(await badgeTeams()).toEqual([1, 1, 1, 2]);
        for (const [method, data, status, source] of [
            ['POST', badges(2, 4), 403, undefined],
            ['POST', badges(2, 9), 404, { pointer: '/data/1' }],
            ['PATCH', badges(1, 2, 4), 403, undefined],
            ['PATCH', badges(2, 3), 400, undefined],
            ['PATCH', badges(2, 4), 403, undefined],
        ] as const) {
            before = await reseed();
            const res = await api.call({ id: 1 }, method, '/team/1/relationships/badges', { data });
            expect([res.status, firstError(res).source]).toEqual([status, source]);
            if (status === 400) expect(firstError(res).ormCode).toBe('P2014');
            expect(await snapshot(api.s, MODELS)).toEqual(before);
        }
        // a replacement keeping every current member and adding others
        await reseed();
        const kept = await api.call({ id: 1 }, 'PATCH', '/team/1/relationships/badges', { data: badges(1, 2, 3) });
        expect(kept.status).toBe(200);
        expect(await badgeTeams()).toEqual([1, 1, 1, 2]);
    });

    it('a replacement that detaches and links: a refused link leaves the detached members linked, 403', async () => {
        if (!(await ready())) return;
        await seed(3, [{ id: 50, locked: true }]);
        await api.s.prisma.member.update({ where: { id: 2 }, data: { teamId: 1 } });
        const before = await snapshot(api.s, MODELS);
        const res = await api.call({ id: 1 }, 'PATCH', '/team/1/relationships/members', { data: ids(3, 50) });
        expect([res.status, firstError(res).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
        expect(await snapshot(api.s, MODELS)).toEqual(before);
        const ok = await api.call({ id: 1 }, 'PATCH', '/team/1/relationships/members', { data: ids(3, 4) });
        expect(ok.status).toBe(200);
        expect(await Promise.all([1, 2, 3, 4, 50].map(teamOf))).toEqual([null, null, 1, 1, 2]);
    });
}

describe('adding members to a to-many relationship [sqlite]', () => {
    suite('sqlite');
});

describePg('adding members to a to-many relationship', () => {
    suite('postgresql');
});
