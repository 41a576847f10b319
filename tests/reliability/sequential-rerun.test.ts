import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { withTransactionCleanup } from '../../src';
import { RPCApiHandler } from '../../src/api/rpc';
import type { Response } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';
import { hookStatement, writesTo } from './support/statement-hook';

/**
 * A `$transaction/sequential` that runs again (it holds an upsert, and an operation failed on a unique key, which may be
 * an upsert's lost race): the answer of a run that fails again names the operation that failed in that run, or none
 * when that run failed before any operation (the transaction could not even start). Between the runs another
 * connection to the SQLite file does something (a hook after the first run's ROLLBACK): it takes the write lock, so the
 * second run cannot begin (503 after the busy timeout), or deletes a post the first operation links. On the old source
 * the first answer still named the first run's failed operation (`failedOperation: 1`).
 */

const TAKEN = 'taken@sequential-rerun.test';

describe('a rerun $transaction/sequential that fails again [sqlite]', () => {
    let s: TestSchema;
    let other: InstanceType<typeof Database> | undefined;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let client: any;

    beforeEach(async () => {
        s = await loadSchema();
        await s.prisma.user.create({ data: { id: 1, email: TAKEN } });
        await s.prisma.post.create({ data: { id: 1, title: 'linked', published: true, authorId: 1 } });
        // waits for nothing, so that it never blocks this thread
        other = new Database(s.dbFile!, { timeout: 0 });
    });
    afterEach(async () => {
        if (other?.inTransaction) other.exec('ROLLBACK');
        other?.close();
        await client?.$disconnect();
        await s.cleanup();
    });

    /** Sends the transaction over a client whose first transaction that writes a User row runs `between` after its ROLLBACK. */
    async function send(between: () => void, operations: unknown[]): Promise<Response & { body: { error: Record<string, unknown> } }> {
        // a short busy timeout: the second run's BEGIN IMMEDIATE gives up soon on the other connection's lock
        const factory = new PrismaBetterSQLite3({ url: s.databaseUrl, timeout: 100 });
        client = s.createClient(withTransactionCleanup(hookStatement(factory, { matches: writesTo('User'), after: between })));
        return (await RPCApiHandler()({
            method: 'POST',
            path: '/$transaction/sequential',
            query: {},
            requestBody: operations,
            prisma: s.enhanceClient(client, { id: 1 }),
            modelMeta: s.modelMeta,
            logger: null,
        })) as Response & { body: { error: Record<string, unknown> } };
    }
    const upsert = { model: 'allTypes', op: 'upsert', args: { where: { id: 'kept?' }, create: { id: 'kept?' }, update: {} } };
    const signUpTaken = { model: 'user', op: 'create', args: { data: { email: TAKEN } } };

    it('the second run cannot start: 503, and no operation named', async () => {
        const res = await send(() => other!.exec('BEGIN IMMEDIATE'), [upsert, signUpTaken]);
        expect(res.status).toBe(503);
        expect(res.headers?.['retry-after']).toBe('1');
        expect(res.body.error).not.toHaveProperty('failedOperation');
        other!.exec('ROLLBACK');
        expect(await s.prisma.allTypes.count()).toBe(0);
    });

    it('the second run fails at another operation: that one is named', async () => {
        const comment = { model: 'comment', op: 'create', args: { data: { content: 'c', post: { connect: { id: 1 } } } } };
        const res = await send(() => other!.prepare('DELETE FROM "Post" WHERE id = 1').run(), [comment, upsert, signUpTaken]);
        expect([res.status, res.body.error.code, res.body.error.failedOperation]).toEqual([404, 'P2025', 0]);
        expect([await s.prisma.allTypes.count(), await s.prisma.comment.count()]).toEqual([0, 0]);
    });
});
