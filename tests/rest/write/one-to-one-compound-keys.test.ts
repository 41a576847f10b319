import { describePg } from '../../support/postgres';
import type { Provider } from '../../support/schema';
import { COMPOUND_KEY_TEAMS_SCHEMA as SCHEMA } from '../../support/one-to-one-schema';
import { docOf, firstError, freshPerTest, openApi, snapshot, type Api } from './harness';

/**
 * One-to-one links by a compound foreign key, changed from the side without the key (`team.coach`). ZenStack
 * cannot detach a partner by such a key from this side, so the handler never lets Prisma's `connect` do it
 * unchecked: a partner the user cannot see blocks a link (409, as from the owner side) and is left linked by
 * `null`; a partner the user can see is detached under its update rule.
 */


const MODELS = ['team', 'coach'] as const;
const ME = { id: 1 };

/**
 * Teams a/t1 to a/t5. Coaches 1 (hidden, locked) of t1, 2 (hidden) of t2, 3 (locked) of t3, 4 of t4; free coaches
 * 5, 6 (locked) and 7 (hidden). Team t5 has no coach.
 */
async function seed(a: Api): Promise<void> {
    for (const code of ['t1', 't2', 't3', 't4', 't5']) await a.s.prisma.team.create({ data: { org: 'a', code } });
    const coaches: [number, boolean, boolean, string | null][] = [
        [1, true, true, 't1'],
        [2, true, false, 't2'],
        [3, false, true, 't3'],
        [4, false, false, 't4'],
        [5, false, false, null],
        [6, false, true, null],
        [7, true, false, null],
    ];
    for (const [id, hidden, locked, code] of coaches) {
        await a.s.prisma.coach.create({ data: { id, hidden, locked, teamOrg: code && 'a', teamCode: code } });
    }
}

function defineTests(provider: Provider): void {
    const open = freshPerTest(SCHEMA, provider, seed, MODELS);
    const rows = (a: Api) => snapshot(a.s, MODELS);
    /** Each coach's team (`a_t1`), by coach id, read without the policy. */
    const teamsOf = async (a: Api) => {
        const coaches: { id: number; teamOrg: string | null; teamCode: string | null }[] = await a.s.prisma.coach.findMany({ orderBy: { id: 'asc' } });
        return Object.fromEntries(coaches.map((c) => [c.id, c.teamOrg && `${c.teamOrg}_${c.teamCode}`]));
    };
    const link = (id: string | null) => ({ data: id === null ? null : { type: 'coach', id } });
    const resource = (team: string, id: string | null) => ({ data: { type: 'team', id: team, relationships: { coach: link(id) } } });

    it('a team whose coach the user cannot see: a link is a 409 at the relationship, and that coach keeps its team', async () => {
        const o = await open();
        if (!o) return;
        // coach 1 (hidden, locked) and coach 2 (hidden, its update allowed) alike: never detached unchecked
        for (const team of ['a_t1', 'a_t2']) {
            const viaRelationship = await o.a.call(ME, 'PATCH', `/team/${team}/relationships/coach`, link('5'));
            expect([team, viaRelationship.status, firstError(viaRelationship).code, firstError(viaRelationship).source?.pointer]).toEqual([team, 409, 'unique-violation', '/data']);
            expect(await rows(o.a)).toEqual(o.before);
            const viaResource = await o.a.call(ME, 'PATCH', `/team/${team}`, resource(team, '5'));
            expect([team, viaResource.status, firstError(viaResource).code, firstError(viaResource).source?.pointer]).toEqual([team, 409, 'unique-violation', '/data/relationships/coach/data']);
            expect(await rows(o.a)).toEqual(o.before);
        }
        // a coach that is not there, or hidden, is the 404 of any link (before anything about the team's coach)
        for (const id of ['77', '7']) {
            const res = await o.a.call(ME, 'PATCH', '/team/a_t1/relationships/coach', link(id));
            expect([id, res.status, firstError(res).source?.pointer]).toEqual([id, 404, '/data']);
        }
        expect(await rows(o.a)).toEqual(o.before);
    });

    it('links as before where no coach is hidden: a free team, the current coach, a visible coach under its update rule', async () => {
        const o = await open();
        if (!o) return;
        const fresh = await o.a.call(ME, 'PATCH', '/team/a_t5/relationships/coach', link('5'));
        expect([fresh.status, docOf(fresh).data]).toEqual([200, { type: 'coach', id: 5 }]);
        expect((await teamsOf(o.a))[5]).toBe('a_t5');
        const after = await rows(o.a);
        const same = await o.a.call(ME, 'PATCH', '/team/a_t5', resource('a_t5', '5'));
        expect(same.status).toBe(200);
        expect(await rows(o.a)).toEqual(after);
        // the coach to link has its own update rule: coach 6 is locked
        const lockedTarget = await o.a.call(ME, 'PATCH', '/team/a_t5/relationships/coach', link('6'));
        expect([lockedTarget.status, firstError(lockedTarget).code]).toEqual([403, 'forbidden']);
        expect(await rows(o.a)).toEqual(after);
        // coach 3 (visible, locked) is not detached from t3; coach 4 is detached from t4 for coach 5 (which leaves t5)
        const locked = await o.a.call(ME, 'PATCH', '/team/a_t3/relationships/coach', link('5'));
        expect([locked.status, firstError(locked).code]).toEqual([403, 'forbidden']);
        expect(await rows(o.a)).toEqual(after);
        const replaced = await o.a.call(ME, 'PATCH', '/team/a_t4', resource('a_t4', '5'));
        expect(replaced.status).toBe(200);
        expect(await teamsOf(o.a)).toEqual({ 1: 'a_t1', 2: 'a_t2', 3: 'a_t3', 4: null, 5: 'a_t4', 6: null, 7: null });
    });

    it('null detaches a visible coach under its update rule, and leaves a coach the user cannot see linked', async () => {
        const o = await open();
        if (!o) return;
        // coach 3 is locked: nothing written, either way
        const locked = await o.a.call(ME, 'PATCH', '/team/a_t3/relationships/coach', link(null));
        expect([locked.status, firstError(locked).code]).toEqual([403, 'forbidden']);
        const lockedResource = await o.a.call(ME, 'PATCH', '/team/a_t3', resource('a_t3', null));
        expect([lockedResource.status, firstError(lockedResource).code]).toEqual([403, 'forbidden']);
        expect(await rows(o.a)).toEqual(o.before);
        // no coach, or one the user cannot see (as none): 200, nothing changes
        for (const team of ['a_t5', 'a_t1', 'a_t2']) {
            const res = await o.a.call(ME, 'PATCH', `/team/${team}/relationships/coach`, link(null));
            expect([team, res.status, docOf(res).data]).toEqual([team, 200, null]);
            const viaResource = await o.a.call(ME, 'PATCH', `/team/${team}`, resource(team, null));
            expect([team, viaResource.status]).toEqual([team, 200]);
        }
        expect(await rows(o.a)).toEqual(o.before);
        // coach 4 is detached
        const unlinked = await o.a.call(ME, 'PATCH', '/team/a_t4/relationships/coach', link(null));
        expect([unlinked.status, docOf(unlinked).data]).toEqual([200, null]);
        expect((await teamsOf(o.a))[4]).toBeNull();
        await o.a.s.prisma.coach.update({ where: { id: 4 }, data: { teamOrg: 'a', teamCode: 't4' } });
        const viaResource = await o.a.call(ME, 'PATCH', '/team/a_t4', resource('a_t4', null));
        expect(viaResource.status).toBe(200);
        expect(await teamsOf(o.a)).toEqual({ 1: 'a_t1', 2: 'a_t2', 3: 'a_t3', 4: null, 5: null, 6: null, 7: null });
    });
}

describe('REST one-to-one relationships by a compound foreign key [sqlite]', () => defineTests('sqlite'));
describePg('REST one-to-one relationships by a compound foreign key', () => defineTests('postgresql'));

describe('REST one-to-one relationships by a compound foreign key the user may not read in full [sqlite]', () => {
    it('a link from the side without the key is a 400 (the key cannot be written), and null changes nothing', async () => {
        const api = await openApi(`
model Team {
  id    Int    @id
  org   String
  code  String @allow('read', false)
  coach Coach?
  @@unique([org, code])
  @@allow('all', true)
}

model Coach {
  id       Int     @id
  team     Team?   @relation(fields: [teamOrg, teamCode], references: [org, code])
  teamOrg  String?
  teamCode String?
  @@unique([teamOrg, teamCode])
  @@allow('all', true)
}
`);
        try {
            await api.s.prisma.team.create({ data: { id: 1, org: 'a', code: 't1' } });
            await api.s.prisma.coach.create({ data: { id: 1 } });
            const before = await snapshot(api.s, MODELS);
            const res = await api.call(ME, 'PATCH', '/team/1/relationships/coach', { data: { type: 'coach', id: '1' } });
            expect([res.status, firstError(res).code, firstError(res).source?.pointer]).toEqual([400, 'invalid-payload', '/data']);
            const unlink = await api.call(ME, 'PATCH', '/team/1/relationships/coach', { data: null });
            expect(unlink.status).toBe(200);
            expect(await snapshot(api.s, MODELS)).toEqual(before);
        } finally {
            await api.cleanup();
        }
    });
});
