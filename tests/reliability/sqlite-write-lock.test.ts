import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { withTransactionCleanup } from '../../src';
import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';
import { hookStatement } from './support/statement-hook';

/**
 * Several processes on one SQLite file (PM2 cluster mode, Node's `cluster`, two containers on one volume): a
 * policy-checked write reads before it writes, in one transaction. Another connection to the file (another
 * process's, here a second connection that waits for nothing) writes between that read and the write. Opened with
 * a plain BEGIN, the transaction then fails at its write with SQLITE_BUSY at once (SQLite does not let a
 * transaction that has read wait for the write lock) and the request answers 503; `withTransactionCleanup` opens
 * it with BEGIN IMMEDIATE, so it holds the write lock from the start: the other connection's write waits for it
 * (here: is refused) and the request succeeds. `scale-out.test.ts` shows the effect with three server processes.
 */

type Client = ReturnType<TestSchema['createClient']>;
type Locker = InstanceType<typeof Database>;

const isWrite = (sql: string) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql);

/** What the other connection does between the transaction's read and its write; `undefined`: SQLite refused it (busy). */
const INTERFERENCE: Record<string, (locker: Locker) => string | undefined> = {
    'takes the write lock': (locker) => {
        locker.exec('BEGIN IMMEDIATE');
        return 'locked';
    },
    'commits a write': (locker) => {
        locker.prepare(`INSERT INTO "User" (email) VALUES ('other@write-lock.test')`).run();
        return 'committed';
    },
};

describe.each([
    ['WAL', true],
    ['rollback journal', false],
])('SQLite (%s): another connection writes between a transaction’s read and its write', (_mode, wal) => {
    let s: TestSchema;
    let client: Client | undefined;
    let locker: Locker | undefined;

    beforeEach(async () => {
        s = await loadSchema(undefined, { sqlite: { wal } });
        await s.prisma.user.create({ data: { id: 1, email: 'author@write-lock.test' } });
        await s.prisma.post.create({ data: { id: 1, title: 'counted', published: true, authorId: 1 } });
    });

    afterEach(async () => {
        if (locker?.inTransaction) locker.exec('ROLLBACK');
        locker?.close();
        locker = undefined;
        await client?.$disconnect();
        client = undefined;
        await s.cleanup();
    });

    it.each(Object.keys(INTERFERENCE))('it %s: the request succeeds; the other connection would have had to wait', async (name) => {
        // waits for nothing, so that it never blocks this thread: its write is refused while the request's transaction holds the lock
        locker = new Database(s.dbFile!, { timeout: 0 });
        let interfered: string | undefined;
        const interfere = () => {
            try {
                interfered = INTERFERENCE[name](locker!);
            } catch (err) {
                if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY') !== true) throw err;
            }
        };
        client = s.createClient(withTransactionCleanup(hookStatement(new PrismaBetterSQLite3({ url: s.databaseUrl, timeout: 5000 }), { matches: isWrite, before: interfere })));
        const handler = RPCApiHandler();
        const res = await handler({
            method: 'put',
            path: '/post/update',
            requestBody: { where: { id: 1 }, data: { viewCount: { increment: 1 } }, select: { viewCount: true } },
            prisma: s.enhanceClient(client, { id: 1 }),
            modelMeta: s.modelMeta,
            zodSchemas: s.zodSchemas,
            logger: null,
        });
        if (locker.inTransaction) locker.exec('ROLLBACK');
        expect([res.status, res.body]).toEqual([200, { data: { viewCount: 1 } }]);
        expect((await s.prisma.post.findUnique({ where: { id: 1 } })).viewCount).toBe(1);
        // the other connection's write came after the transaction had the lock: SQLite refused it
        expect(interfered).toBeUndefined();
    });
});

describe('SQLite: a connection that may not write (PRAGMA query_only)', () => {
    it('still reads in transactions ($transaction/sequential of reads), and its writes answer 503', async () => {
        const s = await loadSchema();
        try {
            await s.prisma.user.create({ data: { id: 1, email: 'author@write-lock.test' } });
            await s.prisma.$executeRawUnsafe('PRAGMA query_only = ON');
            const handler = RPCApiHandler();
            const send = (requestBody: unknown) =>
                handler({ method: 'post', path: '/$transaction/sequential', requestBody, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });
            const read = await send([{ model: 'user', op: 'count', args: {} }, { model: 'post', op: 'count', args: {} }]);
            expect([read.status, read.body]).toEqual([200, { data: [1, 0] }]);
            const write = await send([{ model: 'post', op: 'create', args: { data: { title: 'refused', authorId: 1 } } }]);
            expect(write.status).toBe(503);
        } finally {
            await s.prisma.$executeRawUnsafe('PRAGMA query_only = OFF');
            await s.cleanup();
        }
    });
});
