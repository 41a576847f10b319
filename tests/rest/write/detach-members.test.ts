import { describePg } from '../../support/postgres';
import type { Provider } from '../../support/schema';
import { docOf, errorsOf, firstError, openForSuite, snapshot, type Api } from './harness';

/**
 * What removing members of a to-many relationship answers and leaves behind, under every kind of rule ZenStack holds
 * a detached record to: the model's update rule (`@@allow`, `@@deny`), a field-level update rule on its foreign key,
 * `post-update` rules and validation rules, with a member the user cannot read named beside them, and a required link.
 * Written against the one-by-one nested `disconnect` (each member checked with statements of its own) and kept for
 * any faster form of it: the same status, error and rows, and nothing written when it is refused.
 */

const SCHEMA = `
model Team {
  id      Int      @id
  members Member[]
  pinned  Pinned[]
  @@allow('create,read,delete', true)
  @@allow('update', id != 3)
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
  @@deny('update', future().teamId == null && future().name == 'needteam')
}

model Pinned {
  id     Int  @id
  team   Team @relation(fields: [teamId], references: [id])
  teamId Int
  @@allow('all', true)
}
`;

const MODELS = ['team', 'member', 'pinned'];

type Row = { id: number; name?: string; locked?: boolean; hidden?: boolean };

function suite(provider: Provider) {
    let api!: Api;
    const ready = openForSuite(SCHEMA, provider, (opened) => (api = opened));

    /** Team 1 with members 1..n (and `special` ones), team 2 with member 900. */
    async function seed(n: number, special: Row[] = []): Promise<void> {
        const p = api.s.prisma;
        await p.pinned.deleteMany();
        await p.member.deleteMany();
        await p.team.deleteMany();
        await p.team.createMany({ data: [{ id: 1 }, { id: 2 }] });
        const rows = Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `m${i + 1}`, teamId: 1 }));
        await p.member.createMany({ data: [...rows, ...special.map((r) => ({ name: 'x', ...r, teamId: 1 })), { id: 900, name: 'other', teamId: 2 }] });
        await p.pinned.createMany({ data: [{ id: 1, teamId: 1 }] });
    }

    const ids = (...n: number[]) => n.map((id) => ({ type: 'member', id: String(id) }));
    const teamOf = async (id: number) => (await api.s.prisma.member.findUnique({ where: { id } })).teamId;

    const removals = [
        ['DELETE on the relationship', (data: unknown[]) => ['DELETE', '/team/1/relationships/members', { data }] as const],
        // the same members left out of a replacement that keeps member 1
        ['a PATCH replacing the relationship', (data: unknown[]) => ['PATCH', '/team/1/relationships/members', { data: ids(1) }, data] as const],
        ['a resource PATCH replacing it', (data: unknown[]) => ['PATCH', '/team/1', { data: { type: 'team', id: '1', relationships: { members: { data: ids(1) } } } }, data] as const],
    ] as const;

    async function remove(how: number, members: number[]): Promise<ReturnType<Api['call']>> {
        const [method, path, body] = removals[how][1](ids(...members));
        return api.call({ id: 1 }, method, path, body);
    }

    it.each([0, 1, 2])('%#: members the user may update are detached (200), the others stay', async (how) => {
        if (!(await ready())) return;
        await seed(5);
        const res = await remove(how, [2, 3, 4, 5]);
        expect(res.status).toBe(200);
        // the relationship endpoints answer the members left (a resource PATCH, the resource)
        if (how < 2) expect(docOf(res).data).toEqual([{ type: 'member', id: 1 }]);
        expect(await Promise.all([1, 2, 3, 4, 5, 900].map(teamOf))).toEqual([1, null, null, null, null, 2]);
    });

    it.each([
        ['its update rule is false (@@allow)', { id: 50, locked: true }],
        ['a @@deny rule refuses it', { id: 50, name: 'denied' }],
        ['a field-level update rule on its foreign key refuses it', { id: 50, name: 'fieldpin' }],
        ['a post-update rule refuses the detached state', { id: 50, name: 'needteam' }],
    ])('a member whose detach is refused (%s): 403, nothing written', async (_what, special) => {
        if (!(await ready())) return;
        for (const how of [0, 1, 2]) {
            await seed(5, [special]);
            const before = await snapshot(api.s, MODELS);
            const res = await remove(how, [2, 3, 50, 4, 5]);
            expect([res.status, firstError(res)]).toEqual([403, expect.objectContaining({ code: 'forbidden', ormCode: 'P2004', reason: 'ACCESS_POLICY_VIOLATION' })]);
            expect(await snapshot(api.s, MODELS)).toEqual(before);
        }
    });

    it('a detached member failing its validation rules: 422 naming them, nothing written', async () => {
        if (!(await ready())) return;
        for (const how of [0, 1, 2]) {
            await seed(3, [{ id: 50, name: 'much too long' }]);
            const before = await snapshot(api.s, MODELS);
            const res = await remove(how, [2, 50, 3]);
            expect(res.status).toBe(422);
            expect(errorsOf(res).map((e) => [e.code, e.reason])).toEqual([['validation-error', 'DATA_VALIDATION_VIOLATION']]);
            expect(await snapshot(api.s, MODELS)).toEqual(before);
        }
    });

    it('a refused member and one failing validation: the refusal (403) is answered, nothing written', async () => {
        if (!(await ready())) return;
        for (const how of [0, 1, 2]) {
            for (const order of [[50, 51], [51, 50]]) {
                await seed(3, [{ id: 50, name: 'much too long' }, { id: 51, locked: true }]);
                const before = await snapshot(api.s, MODELS);
                const res = await remove(how, [2, ...order, 3]);
                expect([res.status, firstError(res).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
                expect(await snapshot(api.s, MODELS)).toEqual(before);
            }
        }
    });

    it('a refused member named beside a record the user cannot read: 404 pointing at that record, nothing written', async () => {
        if (!(await ready())) return;
        await seed(3, [{ id: 50, locked: true }, { id: 60, hidden: true }]);
        const before = await snapshot(api.s, MODELS);
        const res = await remove(0, [2, 50, 60]);
        expect([res.status, firstError(res).source]).toEqual([404, { pointer: '/data/2' }]);
        expect(await snapshot(api.s, MODELS)).toEqual(before);
        // alone, the unreadable record is no member the user can remove: nothing changes, 200
        const alone = await remove(0, [2, 60]);
        expect(alone.status).toBe(200);
        expect([await teamOf(2), await teamOf(60)]).toEqual([null, 1]);
    });

    it("the record's own update rule is not what a removal checks (the members' are): 200 where it refuses updates", async () => {
        if (!(await ready())) return;
        await seed(0);
        await api.s.prisma.team.create({ data: { id: 3 } });
        await api.s.prisma.member.createMany({ data: [{ id: 31, name: 'a', teamId: 3 }, { id: 32, name: 'b', teamId: 3 }, { id: 33, name: 'c', teamId: 3 }] });
        const res = await api.call({ id: 1 }, 'DELETE', '/team/3/relationships/members', { data: ids(31, 32) });
        expect([res.status, docOf(res).data]).toEqual([200, [{ type: 'member', id: 33 }]]);
        const replaced = await api.call({ id: 1 }, 'PATCH', '/team/3/relationships/members', { data: [] });
        expect([replaced.status, docOf(replaced).data]).toEqual([200, []]);
        expect(await Promise.all([31, 32, 33].map(teamOf))).toEqual([null, null, null]);
    });

    it('a member whose link is required cannot be detached: 400 P2014, nothing written', async () => {
        if (!(await ready())) return;
        await seed(1);
        const before = await snapshot(api.s, MODELS);
        const res = await api.call({ id: 1 }, 'DELETE', '/team/1/relationships/pinned', { data: [{ type: 'pinned', id: '1' }] });
        expect([res.status, firstError(res).ormCode]).toEqual([400, 'P2014']);
        expect(await snapshot(api.s, MODELS)).toEqual(before);
    });

    it('a replacement moves members of another record and detaches the left-out ones in one write', async () => {
        if (!(await ready())) return;
        await seed(4);
        const res = await api.call({ id: 1 }, 'PATCH', '/team/1/relationships/members', { data: ids(1, 900) });
        expect(res.status).toBe(200);
        expect(await Promise.all([1, 2, 3, 4, 900].map(teamOf))).toEqual([1, null, null, null, 1]);
    });
}

describe('removing members of a to-many relationship [sqlite]', () => {
    suite('sqlite');
});

describePg('removing members of a to-many relationship', () => {
    suite('postgresql');
});
