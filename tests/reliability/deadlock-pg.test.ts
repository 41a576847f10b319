import type { DbClientContract } from '@zenstackhq/runtime';
import { Client } from 'pg';
import { withTransactionCleanup } from '../../src';
import type { Response } from '../../src/types';
import { driverAdapter } from '../support/generated';
import { describePg, pgAdminQuery, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { hookStatement, writesTo } from './support/statement-hook';
import { until } from './support/until';
import { restDirect, rpcDirect } from './support/direct';

/**
 * Real deadlocks on PostgreSQL at its default isolation (Read Committed). A request's write changes two rows, A then
 * B. Just before it changes B, another session changes B and then waits for A, which the request holds: a cycle.
 * PostgreSQL's deadlock check runs in a session once it has waited `deadlock_timeout`; the other session sets its own
 * to 10 s and is already waiting when the request starts to, so the request's check (100 ms, set for the test database)
 * finds the cycle and PostgreSQL rolls the request's transaction back (40P01). Then the other session commits. The
 * request's write, whole in one transaction that left nothing behind, runs again and succeeds. On the old source it
 * answered 503 (conflict, try again) without a retry. A write that keeps losing answers 503 with `Retry-After` after
 * three runs, having written nothing.
 */

type Send = (s: TestSchema, prisma: DbClientContract) => Promise<Response>;
/** A row as the test reads it; `ownerId: 'new'`: the user the request created. */
type Row = { string: string; int: number; ownerId: number | 'new' };

const ROWS = ['row-a', 'row-b'];
const NEW_EMAIL = 'new@deadlock.test';

/**
 * A write that holds a lock when it comes to change row B, as each protocol makes one, and how the other session makes
 * the cycle: it changes B, then waits for what the write holds with `waitFor`, and ends with `end` once it got it.
 */
interface Write {
    name: string;
    user: number;
    send: Send;
    /** The request's statements that write to AllTypes: the `nth` of each run is B's. */
    nth: number;
    waitFor: string;
    end: 'COMMIT' | 'ROLLBACK';
    /** What the rows hold after the write and the other session's change. */
    wrote: Row;
    /** What they hold after the other sessions' changes alone. */
    untouched: Row;
}

const WRITES: Write[] = [
    {
        name: 'RPC $transaction/sequential',
        user: 1,
        send: (s, prisma) =>
            rpcDirect(s, prisma, 'POST', '/$transaction/sequential', ROWS.map((id) => ({ model: 'allTypes', op: 'update', args: { where: { id }, data: { int: { increment: 1 } } } }))),
        nth: 2,
        waitFor: `UPDATE "AllTypes" SET string = 'other' WHERE id = 'row-a'`,
        end: 'COMMIT',
        wrote: { string: 'other', int: 1, ownerId: 1 },
        untouched: { string: 'other', int: 0, ownerId: 1 },
    },
    {
        name: 'RPC update with nested updates (one ORM call)',
        user: 1,
        send: (s, prisma) =>
            rpcDirect(s, prisma, 'PUT', '/user/update', { where: { id: 1 }, data: { allTypes: { update: ROWS.map((id) => ({ where: { id }, data: { int: { increment: 1 } } })) } } }),
        nth: 2,
        waitFor: `UPDATE "AllTypes" SET string = 'other' WHERE id = 'row-a'`,
        end: 'COMMIT',
        wrote: { string: 'other', int: 1, ownerId: 1 },
        untouched: { string: 'other', int: 0, ownerId: 1 },
    },
    {
        // the new user's row, not yet committed, is what the other session's insert of the same e-mail waits for
        name: 'JSON:API create linking both rows',
        user: 1,
        send: (s, prisma) =>
            restDirect(s, prisma, 'POST', '/user', { data: { type: 'user', attributes: { email: NEW_EMAIL }, relationships: { allTypes: { data: ROWS.map((id) => ({ type: 'allTypes', id })) } } } }),
        nth: 1,
        waitFor: `INSERT INTO "User" (email) VALUES ('${NEW_EMAIL}')`,
        end: 'ROLLBACK',
        wrote: { string: '', int: 0, ownerId: 'new' },
        untouched: { string: '', int: 0, ownerId: 1 },
    },
];

describePg('deadlocks at the default isolation', () => {
    let s: TestSchema | undefined;
    let admin: Client;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        // the sessions the application's pool opens from now on find a deadlock 100 ms after they start to wait
        await pgAdminQuery(`ALTER DATABASE "${new URL(s.databaseUrl).pathname.slice(1)}" SET deadlock_timeout = '100ms'`);
        // from the id sequence (users 1 and 2 of a new database), which the user the JSON:API create makes continues
        await s.prisma.user.create({ data: { email: 'one@deadlock.test' } });
        await s.prisma.user.create({ data: { email: 'two@deadlock.test' } });
        admin = new Client({ connectionString: s.databaseUrl });
        await admin.connect();
    });
    afterAll(async () => {
        await admin?.end();
        await s?.cleanup();
    });

    /**
     * Sends `write` over a client on which, before the request's statement that changes row B, another session changes
     * B and waits for what the request holds, up to `deadlocks` times. Resolves with the answer once the other sessions
     * have ended.
     */
    async function withDeadlocks(write: Write, deadlocks: number): Promise<Response> {
        const db = s!;
        await db.prisma.allTypes.deleteMany();
        await db.prisma.user.deleteMany({ where: { id: { gt: 2 } } });
        for (const id of ROWS) await db.prisma.allTypes.create({ data: { id, ownerId: 1 } });
        const others: Promise<unknown>[] = [];
        const sessions: Client[] = [];
        let writes = 0;
        const interfere = async () => {
            const other = new Client({ connectionString: db.databaseUrl });
            sessions.push(other);
            await other.connect();
            // this session never finds the deadlock first: the request's session does
            await other.query(`SET deadlock_timeout = '10s'`);
            const { rows } = await other.query('SELECT pg_backend_pid() AS pid');
            await other.query('BEGIN');
            await other.query(`UPDATE "AllTypes" SET string = 'other' WHERE id = $1`, [ROWS[1]]);
            others.push(other.query(write.waitFor).then(() => other.query(write.end)));
            await until('the other session waits for the request', async () => {
                const { rows: waiting } = await admin.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [rows[0].pid]);
                return waiting[0]?.wait_event_type === 'Lock';
            });
        };
        const writesToAllTypes = writesTo('AllTypes');
        const client = db.createClient(
            withTransactionCleanup(
                hookStatement(await driverAdapter('postgresql', db.databaseUrl), {
                    matches: (sql) => writesToAllTypes(sql) && ++writes % write.nth === 0,
                    before: interfere,
                    times: deadlocks,
                }) as never,
            ),
        );
        try {
            const res = await write.send(db, db.enhanceClient(client, { id: write.user }));
            await Promise.all(others);
            return res;
        } finally {
            await client.$disconnect();
            await Promise.all(sessions.map((c) => c.end()));
        }
    }

    const rows = async () => (await s!.prisma.allTypes.findMany({ orderBy: { id: 'asc' }, select: { string: true, int: true, ownerId: true } })) as Row[];

    it.each(WRITES)('$name: the request that PostgreSQL rolled back runs again and succeeds', async (write) => {
        if (!s) return;
        const res = await withDeadlocks(write, 1);
        expect(res.status).toBeLessThan(300);
        const created = await s.prisma.user.findUnique({ where: { email: NEW_EMAIL } });
        const wrote = { ...write.wrote, ownerId: write.wrote.ownerId === 'new' ? created?.id : write.wrote.ownerId };
        expect(await rows()).toEqual([wrote, wrote]);
    });

    it.each(WRITES)('$name: after three deadlocks in a row, 503 with Retry-After and nothing written', async (write) => {
        if (!s) return;
        const res = await withDeadlocks(write, 3);
        expect([res.status, res.headers?.['retry-after']]).toEqual([503, '1']);
        // the other sessions' changes only: the request wrote nothing
        expect(await rows()).toEqual([write.untouched, write.untouched]);
        expect(await s.prisma.user.count()).toBe(2);
    });
});
