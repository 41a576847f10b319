import { describePg, requirePg } from '../../support/postgres';
import type { Provider } from '../../support/schema';
import { docOf, firstError, openApi, type Api } from './harness';

/**
 * Relationship changes naming as many members as a request may (1,000) whose members are linked one by one, on SQLite:
 * Prisma finds them with one statement of one `OR` term per member, past SQLite's bounds (999 parameters, an
 * expression 1,000 deep), which was a 400 `P2029` whatever the rules said. They are now sent in parts
 * (member-parts.ts), in the write's one transaction.
 */
const SCHEMA = `
model Team {
  id      Int       @id
  name    String    @default('')
  tags    Tag[]
  stamped Stamped[]
  pairs   Pair[]
  @@allow('all', true)
}

model Tag {
  id     Int     @id
  locked Boolean @default(false)
  teams  Team[]
  @@allow('read,create', true)
  @@allow('update', !locked)
}

model Stamped {
  id     Int      @id
  at     DateTime @updatedAt
  team   Team?    @relation(fields: [teamId], references: [id])
  teamId Int?
  @@allow('all', true)
}

model Pair {
  a      Int
  b      Int
  team   Team?   @relation(fields: [teamId], references: [id])
  teamId Int?
  @@id([a, b])
  @@allow('all', true)
}
`;

const N = 1000;
const USER = { id: 1 };

async function seeded(provider: Provider = 'sqlite'): Promise<Api> {
    // what is checked here is the database's bound on a statement, not time: each member is checked one by one in the
    // request's transaction, so a busy machine gets more than Prisma's default 5 s (as the README advises for such writes)
    const api = await openApi(SCHEMA, provider, { transactionOptions: { timeout: 30_000 } });
    const p = api.s.prisma;
    await p.team.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await p.tag.createMany({ data: Array.from({ length: N }, (_, i) => ({ id: i + 1 })) });
    await p.stamped.createMany({ data: Array.from({ length: N }, (_, i) => ({ id: i + 1 })) });
    await p.pair.createMany({ data: Array.from({ length: N }, (_, i) => ({ a: i + 1, b: 7 })) });
    return api;
}

const tags = (ids: number[]) => ids.map((id) => ({ type: 'tag', id: String(id) }));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function tagIdsOf(api: Api, team: number): Promise<number[]> {
    const t = await api.s.prisma.team.findUnique({ where: { id: team }, select: { tags: { select: { id: true }, orderBy: { id: 'asc' } } } });
    return (t?.tags ?? []).map((x: { id: number }) => x.id);
}

describe('relationship changes of 1,000 members linked one by one [sqlite]', () => {
    let api: Api;
    beforeEach(async () => {
        api = await seeded();
    });
    afterEach(async () => {
        await api.cleanup();
    });

    it('many-to-many: adds, replaces and removes 1,000 members', async () => {
        const added = await api.call(USER, 'POST', '/team/1/relationships/tags', { data: tags(range(1, N)) });
        expect([added.status, docOf(added).meta?.total]).toEqual([200, N]);
        expect(await tagIdsOf(api, 1)).toEqual(range(1, N));

        // a replacement detaching the first 500 and keeping the rest, then one naming all again
        const replaced = await api.call(USER, 'PATCH', '/team/1/relationships/tags', { data: tags(range(501, N)) });
        expect(replaced.status).toBe(200);
        expect(await tagIdsOf(api, 1)).toEqual(range(501, N));
        const again = await api.call(USER, 'PATCH', '/team/1/relationships/tags', { data: tags(range(1, N)) });
        expect(again.status).toBe(200);
        expect(await tagIdsOf(api, 1)).toEqual(range(1, N));

        const removed = await api.call(USER, 'DELETE', '/team/1/relationships/tags', { data: tags(range(1, N)) });
        expect([removed.status, docOf(removed).data]).toEqual([200, []]);
        expect(await tagIdsOf(api, 1)).toEqual([]);
    }, 60_000);

    it('a member refused by its rule in any part is a 403, and nothing of the other parts is written', async () => {
        await api.s.prisma.tag.update({ where: { id: 950 }, data: { locked: true } });
        const refused = await api.call(USER, 'POST', '/team/1/relationships/tags', { data: tags(range(1, N)) });
        expect([refused.status, firstError(refused).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
        expect(await tagIdsOf(api, 1)).toEqual([]);

        // the same in a resource update, whose attributes are written with the last part
        const patched = await api.call(USER, 'PATCH', '/team/1', {
            data: { type: 'team', id: '1', attributes: { name: 'renamed' }, relationships: { tags: { data: tags(range(1, N)) } } },
        });
        expect(patched.status).toBe(403);
        expect(await api.s.prisma.team.findUnique({ where: { id: 1 } })).toEqual({ id: 1, name: '' });
        expect(await tagIdsOf(api, 1)).toEqual([]);
    }, 60_000);

    it('a resource update with 1,000 members: the attributes and every member written, the answer read after the last part', async () => {
        const res = await api.call(USER, 'PATCH', '/team/1', {
            data: { type: 'team', id: '1', attributes: { name: 'renamed' }, relationships: { tags: { data: tags(range(1, N)) } } },
        });
        expect([res.status, docOf(res).data.attributes.name]).toEqual([200, 'renamed']);
        expect(await tagIdsOf(api, 1)).toEqual(range(1, N));
    }, 60_000);

    it('members with an @updatedAt field and with a compound id: added and removed 1,000 at a time', async () => {
        const stamped = range(1, N).map((id) => ({ type: 'stamped', id: String(id) }));
        expect((await api.call(USER, 'POST', '/team/1/relationships/stamped', { data: stamped })).status).toBe(200);
        expect(await api.s.prisma.stamped.count({ where: { teamId: 1 } })).toBe(N);
        expect((await api.call(USER, 'DELETE', '/team/1/relationships/stamped', { data: stamped })).status).toBe(200);
        expect(await api.s.prisma.stamped.count({ where: { teamId: 1 } })).toBe(0);

        const pairs = range(1, N).map((a) => ({ type: 'pair', id: `${a}_7` }));
        expect((await api.call(USER, 'POST', '/team/1/relationships/pairs', { data: pairs })).status).toBe(200);
        expect(await api.s.prisma.pair.count({ where: { teamId: 1 } })).toBe(N);
        // a replacement by the last 100 detaches the other 900
        expect((await api.call(USER, 'PATCH', '/team/1/relationships/pairs', { data: pairs.slice(900) })).status).toBe(200);
        expect(await api.s.prisma.pair.count({ where: { teamId: 1 } })).toBe(100);
    }, 120_000);

    it('removing 1,000 records of which none is a member changes nothing', async () => {
        await api.call(USER, 'POST', '/team/2/relationships/tags', { data: tags(range(1, 10)) });
        const res = await api.call(USER, 'DELETE', '/team/1/relationships/tags', { data: tags(range(1, N)) });
        expect([res.status, docOf(res).data]).toEqual([200, []]);
        expect(await tagIdsOf(api, 2)).toEqual(range(1, 10));
    }, 60_000);
});

describePg('relationship changes of 850 many-to-many members (sent whole; the listed members read in parts of 800)', () => {
    it('adds, replaces and removes 850 members; a refused one is a 403 and nothing is written', async () => {
        if (!(await requirePg())) return;
        // enough to read the listed members in two parts
        const PG_N = 850;
        const api = await seeded('postgresql');
        try {
            await api.s.prisma.tag.update({ where: { id: 825 }, data: { locked: true } });
            const refused = await api.call(USER, 'POST', '/team/1/relationships/tags', { data: tags(range(1, PG_N)) });
            expect([refused.status, firstError(refused).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
            expect(await tagIdsOf(api, 1)).toEqual([]);
            await api.s.prisma.tag.update({ where: { id: 825 }, data: { locked: false } });

            expect((await api.call(USER, 'POST', '/team/1/relationships/tags', { data: tags(range(1, PG_N)) })).status).toBe(200);
            expect(await tagIdsOf(api, 1)).toEqual(range(1, PG_N));
            expect((await api.call(USER, 'PATCH', '/team/1/relationships/tags', { data: tags(range(501, PG_N)) })).status).toBe(200);
            expect(await tagIdsOf(api, 1)).toEqual(range(501, PG_N));
            const removed = await api.call(USER, 'DELETE', '/team/1/relationships/tags', { data: tags(range(1, PG_N)) });
            expect([removed.status, docOf(removed).data]).toEqual([200, []]);
            expect(await tagIdsOf(api, 1)).toEqual([]);
        } finally {
            await api.cleanup();
        }
    }, 60_000);
});
