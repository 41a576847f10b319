import type { DbClientContract } from '@zenstackhq/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool } from 'pg';
import { withTransactionCleanup } from '../../src';
import type { Response } from '../../src/types';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { hookStatement, writesTo } from './support/statement-hook';
import { until } from './support/until';
import { restDirect, rpcDirect } from './support/direct';

/**
 * PostgreSQL ends a session while its transaction sits between two statements (`pg_terminate_backend`, an
 * `idle_in_transaction_session_timeout`, a failover): node-postgres then answers the transaction's next statement with
 * a plain error ("Client has encountered a connection error and is not queryable"), no code. The database rolled the
 * transaction back, so nothing is written, and trying again works: a 503 with `Retry-After`, in the protocol's format,
 * as when the session ends during a statement (it was a 500 "an unexpected error occurred").
 */

type Send = (s: TestSchema, prisma: DbClientContract) => Promise<Response>;

const ROWS = ['row-a', 'row-b'];

const WRITES: Array<{ name: string; send: Send }> = [
    {
        name: 'RPC $transaction/sequential',
        send: (s, prisma) =>
            rpcDirect(s, prisma, 'POST', '/$transaction/sequential', ROWS.map((id) => ({ model: 'allTypes', op: 'update', args: { where: { id }, data: { int: { increment: 1 } } } }))),
    },
    {
        name: 'RPC update with a nested update',
        // row B is user 1's: the policy checks it is, in the transaction, before the write
        send: (s, prisma) =>
            rpcDirect(s, prisma, 'PUT', '/user/update', { where: { id: 1 }, data: { allTypes: { update: { where: { id: ROWS[1] }, data: { int: { increment: 1 } } } } } }),
    },
    {
        // takes row A from user 2 and leaves row B to none
        name: 'JSON:API relationship replacement',
        send: (s, prisma) =>
            restDirect(s, prisma, 'PATCH', '/user/1/relationships/allTypes', { data: [{ type: 'allTypes', id: ROWS[0] }] }),
    },
];

describePg('a session ended between two statements of a transaction', () => {
    let s: TestSchema | undefined;
    let admin: Client;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        await s.prisma.user.create({ data: { email: 'one@ended.test' } });
        await s.prisma.user.create({ data: { email: 'two@ended.test' } });
        admin = new Client({ connectionString: s.databaseUrl });
        await admin.connect();
    });
    afterAll(async () => {
        await admin?.end();
        await s?.cleanup();
    });

    /** What the rows and their links hold. */
    const rows = async () => s!.prisma.allTypes.findMany({ orderBy: { id: 'asc' }, select: { id: true, int: true, ownerId: true } });

    /**
     * Sends `write` as user 1 over a client on which, just before the transaction's first write to AllTypes (after the
     * reads the policy makes in it), PostgreSQL ends the request's session; then sends it again on the same client.
     */
    async function endedOnce(write: { send: Send }): Promise<{ first: Response; before: unknown; after: unknown; again: Response }> {
        const db = s!;
        await db.prisma.allTypes.deleteMany();
        await db.prisma.allTypes.create({ data: { id: ROWS[0], ownerId: 2 } });
        await db.prisma.allTypes.create({ data: { id: ROWS[1], ownerId: 1 } });
        const before = await rows();
        const dbName = new URL(db.databaseUrl).pathname.slice(1);
        const pool = new Pool({ connectionString: db.databaseUrl });
        // the backends whose connections the application's client saw close
        const closed = new Set<number>();
        pool.on('connect', (session) => {
            const pid = (session as unknown as { processID: number }).processID;
            session.on('end', () => closed.add(pid));
        });
        const endSession = async () => {
            const { rows: ended } = await admin.query(
                `SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction'`,
                [dbName],
            );
            expect(ended).toHaveLength(1);
            // the transaction's connection has seen its session end (not only the database), so the next statement
            // meets a client that knows: the case of a session that ended while the transaction was idle
            await until('the application saw its session end', async () => closed.has(ended[0].pid));
        };
        const writesToAllTypes = writesTo('AllTypes');
        const client = db.createClient(
            withTransactionCleanup(
                hookStatement(new PrismaPg(pool, { disposeExternalPool: true }), {
                    matches: writesToAllTypes,
                    before: endSession,
                }) as never,
            ),
        );
        try {
            const first = await write.send(db, db.enhanceClient(client, { id: 1 }));
            const after = await rows();
            const again = await write.send(db, db.enhanceClient(client, { id: 1 }));
            return { first, before, after, again };
        } finally {
            await client.$disconnect();
        }
    }

    it.each(WRITES)('$name: 503 with Retry-After, nothing written, and the next request is served', async (write) => {
        if (!s) return;
        const { first, before, after, again } = await endedOnce(write);
        expect([first.status, first.headers?.['retry-after']]).toEqual([503, '1']);
        expect(JSON.stringify(first.body)).toMatch(/the database is unavailable/);
        expect(after).toEqual(before);
        expect(again.status).toBeLessThan(300);
    });
});
