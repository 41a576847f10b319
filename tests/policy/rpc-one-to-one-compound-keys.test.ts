import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcCaller } from '../rpc/support';
import { COMPOUND_KEY_TEAMS_SCHEMA as SCHEMA } from '../support/one-to-one-schema';

/**
 * A `disconnect` from the side without the key of a one-to-one by a compound foreign key (`team.coach`), which
 * ZenStack 2.x cannot run (a 400 from inside it, whether or not a coach was linked): the handler detaches the
 * coach the user can see under its update rule, and leaves one the user cannot see linked, as for a missing one.
 */


function suite(provider: Provider) {
    let s: TestSchema;
    beforeEach(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider });
        for (const code of ['t1', 't2', 't3', 't4', 't5']) await s.prisma.team.create({ data: { org: 'a', code } });
        // coaches 1 (hidden, locked) of t1, 2 (hidden) of t2, 3 (locked) of t3, 4 of t4, and 5 free; t5 has none
        const coaches: [number, boolean, boolean, string | null][] = [
            [1, true, true, 't1'],
            [2, true, false, 't2'],
            [3, false, true, 't3'],
            [4, false, false, 't4'],
            [5, false, false, null],
        ];
        for (const [id, hidden, locked, code] of coaches) await s.prisma.coach.create({ data: { id, hidden, locked, teamOrg: code && 'a', teamCode: code } });
        await s.prisma.fan.create({ data: { id: 1, teamOrg: 'a', teamCode: 't4' } });
    });
    afterEach(() => s?.cleanup());
    const skip = () => provider === 'postgresql' && !s;
    const teams = async () =>
        Object.fromEntries((await s.prisma.coach.findMany({ orderBy: { id: 'asc' } })).map((c: { id: number; teamOrg: string | null; teamCode: string | null }) => [c.id, c.teamOrg && `${c.teamOrg}_${c.teamCode}`]));
    const BEFORE = { 1: 'a_t1', 2: 'a_t2', 3: 'a_t3', 4: 'a_t4', 5: null };
    const disconnect = (code: string, value: unknown = true) =>
        rpcCaller(s, { user: { id: 1 } })('PUT', '/team/update', { body: { where: { org_code: { org: 'a', code } }, data: { coach: { disconnect: value } }, include: { coach: true } } });

    it('detaches the coach the user can see under its update rule: 403 for a locked one, writing nothing', async () => {
        if (skip()) return;
        const locked = await disconnect('t3');
        expect([locked.status, locked.body.error?.reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
        expect(await teams()).toEqual(BEFORE);
        // a filter that does not match the coach detaches nothing
        const other = await disconnect('t4', { id: 5 });
        expect([other.status, other.body.data?.coach?.id]).toEqual([200, 4]);
        expect(await teams()).toEqual(BEFORE);
        const res = await disconnect('t4');
        expect([res.status, res.body.error, res.body.data?.coach]).toEqual([200, undefined, null]);
        expect(await teams()).toEqual({ ...BEFORE, 4: null });
    });

    it('under a to-one update too', async () => {
        if (skip()) return;
        const res = await rpcCaller(s, { user: { id: 1 } })('PUT', '/fan/update', { body: { where: { id: 1 }, data: { team: { update: { coach: { disconnect: true } } } } } });
        expect([res.status, res.body.error]).toEqual([200, undefined]);
        expect(await teams()).toEqual({ ...BEFORE, 4: null });
    });

    it('no coach, or one the user cannot see (as none): 200, nothing changes', async () => {
        if (skip()) return;
        for (const code of ['t5', 't1', 't2']) {
            const res = await disconnect(code);
            expect([code, res.status, res.body.error, res.body.data?.coach]).toEqual([code, 200, undefined, null]);
        }
        expect(await teams()).toEqual(BEFORE);
    });
}

describe('RPC one-to-one disconnect by a compound foreign key [sqlite]', () => suite('sqlite'));
describePg('RPC one-to-one disconnect by a compound foreign key', () => suite('postgresql'));
