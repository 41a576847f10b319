import { RestApiHandler } from '../../../src/api/rest';
import { withTransactionCleanup } from '../../../src/driver/transaction-cleanup';
import { hookStatement } from '../../reliability/support/statement-hook';
import { driverAdapter } from '../../support/generated';
import { describePg, requirePg } from '../../support/postgres';
import type { Provider } from '../../support/schema';
import { ENDPOINT } from './fixtures';
import { docOf, firstError, openApi, snapshot, type Api } from './harness';

/** Members without validation or post-update rules: the update rules are all there is to check. */
const PLAIN_SCHEMA = `
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
  locked Boolean @default(false)
  team   Team?   @relation(fields: [teamId], references: [id])
  teamId Int?
  @@allow('read,create', true)
  @@allow('update', !locked)
}
`;

/**
 * What adding or removing 1,000 members costs the database: with the nested connect one statement per member (its
 * update rule), with the nested disconnect two (the member looked up, its update rule); a few with one `updateMany` of
 * the user's client per 400 (members-at-once.ts).
 */
function costSuite(provider: Provider) {
    it('adding 1,000 members from another record: a few statements, not one or more per member; a refused one is still a 403', async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        const api = await openApi(PLAIN_SCHEMA, provider);
        const counted = await countingEnhanced(api);
        try {
            const p = api.s.prisma;
            await p.team.createMany({ data: [{ id: 1 }, { id: 2 }] });
            await p.member.createMany({ data: Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, teamId: 2 })) });
            const members = Array.from({ length: 1000 }, (_, i) => ({ type: 'member', id: String(i + 1) }));
            // (on SQLite, one read naming all 1,000 exceeded Prisma's bound of 999 query parameters: a 400 P2029)
            const body = { data: members };
            counted.reset();
            const res = await counted.call('POST', '/team/1/relationships/members', body);
            expect([res.status, docOf(res).meta.total]).toEqual([200, body.data.length]);
            // with the nested connect: one statement per member (its update rule)
            expect(counted.count()).toBeLessThanOrEqual(25);

            await p.member.updateMany({ data: { teamId: 2 } });
            await p.member.update({ where: { id: 700 }, data: { locked: true } });
            const before = await snapshot(api.s, ['team', 'member']);
            const refused = await counted.call('POST', '/team/1/relationships/members', body);
            expect([refused.status, firstError(refused).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
            expect(await snapshot(api.s, ['team', 'member'])).toEqual(before);
        } finally {
            await counted.close();
            await api.cleanup();
        }
    });

    it('removing 1,000 members of a 1,001: a few statements, not one or more per member; a refused one is still a 403', async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        const api = await openApi(PLAIN_SCHEMA, provider);
        const counted = await countingEnhanced(api);
        try {
            const p = api.s.prisma;
            await p.team.create({ data: { id: 1 } });
            await p.member.createMany({ data: Array.from({ length: 1001 }, (_, i) => ({ id: i + 1, teamId: 1 })) });
            const members = Array.from({ length: 1000 }, (_, i) => ({ type: 'member', id: String(i + 2) }));
            const body = { data: members };
            const [method, path] = ['DELETE', '/team/1/relationships/members'];
            counted.reset();
            const res = await counted.call(method, path, body);
            expect([res.status, docOf(res).data]).toEqual([200, [{ type: 'member', id: 1 }]]);
            // the transaction, the record and its members read, 2 per 400 members (ZenStack's updateMany: Prisma's select of the
            // rows, their update), the record's update and read-back, the answer's read
            expect(counted.count()).toBeLessThanOrEqual(25);
            expect(await p.member.count({ where: { teamId: 1 } })).toBe(1);

            await p.member.updateMany({ data: { teamId: 1 } });
            await p.member.update({ where: { id: 700 }, data: { locked: true } });
            const before = await snapshot(api.s, ['team', 'member']);
            const refused = await counted.call(method, path, body);
            expect([refused.status, firstError(refused).reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
            expect(await snapshot(api.s, ['team', 'member'])).toEqual(before);
        } finally {
            await counted.close();
            await api.cleanup();
        }
    });
}

describe('the cost of moving members whose link is required [sqlite]', () => {
    it('moving 900 from another record: a few statements, not one per member', async () => {
        const api = await openApi(PLAIN_SCHEMA);
        const counted = await countingEnhanced(api);
        try {
            await api.s.prisma.team.createMany({ data: [{ id: 1 }, { id: 2 }] });
            await api.s.prisma.badge.createMany({ data: Array.from({ length: 900 }, (_, i) => ({ id: i + 1, teamId: 2 })) });
            counted.reset();
            const res = await counted.call('POST', '/team/1/relationships/badges', { data: Array.from({ length: 900 }, (_, i) => ({ type: 'badge', id: String(i + 1) })) });
            expect([res.status, docOf(res).meta.total]).toEqual([200, 900]);
            expect(counted.count()).toBeLessThanOrEqual(25);
        } finally {
            await counted.close();
            await api.cleanup();
        }
    });
});

/** The handler over a second client of `api`'s database whose statements are counted (inside transactions too). */
async function countingEnhanced(api: Api) {
    let statements = 0;
    const adapter = hookStatement(await driverAdapter(api.s.provider, api.s.databaseUrl), {
        matches: () => {
            statements++;
            return false;
        },
    });
    const client = api.s.createClient(withTransactionCleanup(adapter));
    const handle = RestApiHandler({ endpoint: ENDPOINT });
    return {
        call: (method: string, path: string, body: unknown) =>
            handle({ method, path, query: {}, requestBody: body, prisma: api.s.enhanceClient(client, { id: 1 }), modelMeta: api.s.modelMeta, logger: null }),
        count: () => statements,
        reset: () => (statements = 0),
        close: () => client.$disconnect(),
    };
}

describe('the cost of adding and removing members [sqlite]', () => {
    costSuite('sqlite');
});

describePg('the cost of adding and removing members', () => {
    costSuite('postgresql');
});
