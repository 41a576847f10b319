import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { withOverrides } from '../../src/driver/overrides';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import { VARIABLE_LIMIT_SQL } from '../../src/driver/variable-limit';
import type { TestSchema } from './schema';

/**
 * A second client of a SQLite test database whose driver adapter counts the statements that reach it
 * (queries and executes, inside transactions too): what a request costs the database, counted honestly, except
 * the statements that open a transaction and the wrapper's one read of the connection's bound when it connects.
 */

type Method = (...args: unknown[]) => unknown;

/** How `withTransactionCleanup` reads the connection's bound on parameters, once, when Prisma connects. */
const BOUND_READ = VARIABLE_LIMIT_SQL.toUpperCase();
type Queryable = Record<string, Method>;

export interface CountingClient {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    client: any;
    /** Statements since the last `reset`. */
    count: () => number;
    reset: () => void;
}

export function countingClient(s: TestSchema): CountingClient {
    if (s.provider !== 'sqlite') throw new Error('countingClient: SQLite test databases only');
    let statements = 0;
    /** `transaction`: leaves out how the wrapper opens it (ROLLBACK of the adapter's BEGIN, BEGIN IMMEDIATE), as the adapter's own BEGIN is. */
    const counted = (q: Queryable, transaction = false): Queryable => {
        let opening = transaction;
        const run = (name: string) => (...args: unknown[]) => {
            const sql = String((args[0] as { sql?: unknown } | undefined)?.sql ?? '').trim().toUpperCase();
            opening = opening && (sql === 'ROLLBACK' || sql.startsWith('BEGIN'));
            if (!opening && sql !== BOUND_READ) statements++;
            return q[name](...args);
        };
        return withOverrides(q, { queryRaw: run('queryRaw'), executeRaw: run('executeRaw') });
    };
    const factory = new PrismaBetterSQLite3({ url: s.databaseUrl });
    const connect = async () => {
        const adapter = (await factory.connect()) as unknown as Queryable;
        const startTransaction = async (...args: unknown[]) => counted((await adapter.startTransaction(...args)) as Queryable, true);
        return withOverrides(counted(adapter), { startTransaction });
    };
    const client = s.createClient(withTransactionCleanup(withOverrides(factory, { connect })));
    return { client, count: () => statements, reset: () => (statements = 0) };
}
