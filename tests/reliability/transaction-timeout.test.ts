import { PrismaPg } from '@prisma/adapter-pg';
import { Client } from 'pg';
import { RestApiHandler } from '../../src/api/rest';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * A write whose transaction outlives its `timeout` while one of its statements waits on a row lock:
 * Prisma 6.19 answers P2028 (503) and sends ROLLBACK behind the waiting statement, but the operation
 * goes on, and its next statements ran on the connection after the ROLLBACK, outside any transaction:
 * half of an unacknowledged write was committed. With the wrapper they are refused: nothing is written.
 */

const ROWS = ['a1', 'a2', 'a3'];

async function owners(s: TestSchema): Promise<Record<string, number | null>> {
    const rows = await s.prisma.allTypes.findMany({ where: { id: { in: ROWS } }, orderBy: { id: 'asc' } });
    return Object.fromEntries(rows.map((r: { id: string; ownerId: number | null }) => [r.id, r.ownerId]));
}

/** Polls until no session of the database but `except` is running a statement or inside a transaction. */
async function untilQuiet(admin: Client, except: number): Promise<void> {
    for (let i = 0; i < 500; i++) {
        const { rows } = await admin.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), $1) AND state <> 'idle'`,
            [except],
        );
        if (rows[0].n === 0) return;
        await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the database never became quiet');
}

describePg('a transaction that times out while a statement waits on a lock (PostgreSQL)', () => {
    let s: TestSchema;
    afterEach(async () => {
        await s?.cleanup();
    });

    it('answers 503 and leaves nothing of the write behind', async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        await s.prisma.user.create({ data: { id: 1, email: 'a@x' } });
        for (const id of ROWS) await s.prisma.allTypes.create({ data: { id, ownerId: id === 'a3' ? 1 : null } });
        const client = s.createClient(withTransactionCleanup(new PrismaPg({ connectionString: s.databaseUrl })), { transactionOptions: { timeout: 300, maxWait: 5000 } });
        const locker = new Client({ connectionString: s.databaseUrl });
        await locker.connect();
        const admin = new Client({ connectionString: s.databaseUrl });
        await admin.connect();
        try {
            const before = await owners(s);
            // another session locks a3, which the replacement must detach, well beyond the transaction's timeout
            // (Prisma waits for its ROLLBACK, queued behind the blocked statement, before it answers)
            await locker.query('BEGIN');
            await locker.query(`SELECT * FROM "AllTypes" WHERE id = 'a3' FOR UPDATE`);
            const unlock = new Promise((r) => setTimeout(r, 3000)).then(() => locker.query('COMMIT'));
            const res = await RestApiHandler({ endpoint: 'http://localhost/api' })({
                method: 'PATCH',
                path: '/user/1',
                query: {},
                requestBody: { data: { type: 'user', id: '1', relationships: { allTypes: { data: [{ type: 'allTypes', id: 'a1' }] } } } },
                prisma: s.enhanceClient(client, { id: 1 }),
                modelMeta: s.modelMeta,
                logger: null,
            });
            expect(res.status).toBe(503);
            // the lock went; whatever the timed-out operation still had to send has run by now
            await unlock;
            const { rows } = await locker.query('SELECT pg_backend_pid() AS pid');
            await untilQuiet(admin, rows[0].pid);
            await client.allTypes.count(); // one more round trip through the application's pool
            await untilQuiet(admin, rows[0].pid);
            expect(await owners(s)).toEqual(before);
        } finally {
            await locker.end();
            await admin.end();
            await client.$disconnect();
        }
    });
});
