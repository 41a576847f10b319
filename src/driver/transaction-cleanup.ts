/**
 * A wrapper for Prisma driver adapter factories (`PrismaPg`, `PrismaBetterSQLite3` …) that keeps a
 * failed COMMIT or ROLLBACK from leaking the transaction's connection.
 *
 * Prisma 6 sends COMMIT/ROLLBACK through the transaction's `executeRaw` and only then calls the
 * transaction's `commit()`/`rollback()`, which is where an adapter gives its connection back. When the
 * statement fails — the connection was cut mid-transaction (server restart, failover,
 * `pg_terminate_backend`), or SQLite could not commit — that call never happens: with node-postgres the
 * connection stays checked out of the pool for ever (after `max` such events every request waits for
 * a connection that never comes); with better-sqlite3 the adapter's transaction lock is never released.
 * The wrapper releases the transaction whenever its COMMIT or ROLLBACK fails (rolling back first after a
 * failed COMMIT, so that a shared connection is not left inside a transaction). It also sends a transaction's
 * statements to its connection one at a time (`oneAtATime`), where Prisma sends some at once and node-postgres 8.19+
 * warns that it will refuse that.
 *
 * On SQLite (one connection for everything) it also makes statements sent outside a transaction wait
 * while another transaction is open, instead of running inside it (see `ConnectionGate`): without that,
 * a transaction that rolls back takes other requests' acknowledged writes with it. On
 * `@prisma/adapter-better-sqlite3` the factory also offers the snapshot probe (`snapshot-probe.ts`),
 * with which a REST page and its total are read consistently without holding the connection in a
 * transaction, and its transactions take the file's write lock at their start (`takeWriteLock`), so that
 * several processes on one file wait for each other instead of failing with SQLITE_BUSY. A SQLite adapter
 * that declares no bound on a statement's parameters declares the one its SQLite was built with
 * (`variable-limit.ts`: 32,766 for better-sqlite3, where Prisma assumed 999), and better-sqlite3's connection keeps
 * the statements it compiles for reuse (`statement-cache.ts`). Everything else passes through unchanged.
 *
 *     new PrismaClient({ adapter: withTransactionCleanup(new PrismaPg({ connectionString })) })
 */

import { ConnectionGate } from './connection-gate';
import { withOverrides } from './overrides';
import { ConnectedAdapters, runsOnOneConnection, SNAPSHOT_PROBE } from './snapshot-probe';
import { DEFAULT_PREPARED_STATEMENTS, keepPreparedStatements } from './statement-cache';
import { declaringLimit, sqliteVariableLimit, type ConnectionInfoLike } from './variable-limit';

interface SqlQuery {
    sql: string;
}

interface DriverTransaction {
    queryRaw?(query: SqlQuery): Promise<unknown>;
    executeRaw(query: SqlQuery): Promise<unknown>;
    commit(): Promise<void>;
    rollback(): Promise<void>;
}

interface DriverAdapter {
    readonly provider?: string;
    readonly adapterName?: string;
    startTransaction(...args: unknown[]): Promise<DriverTransaction>;
    dispose?(): Promise<void>;
}

/** The part of a Prisma driver adapter factory the wrapper relies on. */
export interface DriverAdapterFactoryLike {
    readonly provider: string;
    readonly adapterName: string;
    connect(): Promise<unknown>;
}

function endStatement(query: SqlQuery): 'COMMIT' | 'ROLLBACK' | undefined {
    const sql = typeof query?.sql === 'string' ? query.sql.trim().toUpperCase() : '';
    return sql === 'COMMIT' || sql === 'ROLLBACK' ? sql : undefined;
}

export const TRANSACTION_ENDED_MESSAGE = 'the transaction has already ended (committed, rolled back or timed out): statement refused';

/** A statement sent on a transaction after its COMMIT or ROLLBACK: refused, never run outside it. */
export class TransactionEndedError extends Error {
    constructor() {
        super(TRANSACTION_ENDED_MESSAGE);
        this.name = 'TransactionEndedError';
    }
}

/**
 * A queue that runs what it is given one at a time, in the order given, whether the previous one succeeded or not.
 *
 * Prisma's query interpreter sends independent statements of one query plan at once (the children of a nested
 * include, say). Outside a transaction each goes to its own pooled connection; inside one they all go to the
 * transaction's single connection, where node-postgres queues them itself, a use it deprecated in 8.19 (a
 * `DeprecationWarning` in the application's log once a statement arrives while one runs and another waits, as
 * for a write whose answer includes three relations) and drops in pg 9.
 * One connection runs one statement at a time either way, so queueing them here changes nothing else.
 */
function oneAtATime(): <T>(run: () => Promise<T>) => Promise<T> {
    let last: Promise<unknown> = Promise.resolve();
    return <T>(run: () => Promise<T>) => {
        const result = last.then(run);
        last = result.catch(() => undefined);
        return result;
    };
}

function wrapTransaction(tx: DriverTransaction, onEnd?: () => void): DriverTransaction {
    const inTurn = oneAtATime();
    let released = false;
    // set when COMMIT or ROLLBACK is sent: Prisma rolls back a transaction that outlives its `timeout` while
    // an operation of it is still running (e.g. waiting on a row lock), and that operation's next statements
    // would otherwise run on the connection after the ROLLBACK, outside any transaction (or, once the pool
    // has handed the connection on, inside another request's): half a write committed
    let ended = false;
    const release = async (how: 'commit' | 'rollback') => {
        if (released) return;
        released = true;
        try {
            await (how === 'commit' ? tx.commit() : tx.rollback());
        } finally {
            onEnd?.();
        }
    };
    const overrides: Record<string, unknown> = {
        executeRaw: async (query: SqlQuery) => {
            const end = endStatement(query);
            if (!end) {
                if (ended) throw new TransactionEndedError();
                return inTurn(() => tx.executeRaw(query));
            }
            ended = true;
            try {
                return await inTurn(() => tx.executeRaw(query));
            } catch (err) {
                if (end === 'COMMIT') {
                    // a connection that is still alive must not stay inside the failed transaction
                    await tx.executeRaw({ ...query, sql: 'ROLLBACK' }).catch(() => undefined);
                }
                await release('rollback').catch(() => undefined);
                throw err;
            }
        },
        commit: () => {
            ended = true;
            return release('commit');
        },
        rollback: () => {
            ended = true;
            return release('rollback');
        },
    };
    const queryRaw = tx.queryRaw;
    if (typeof queryRaw === 'function') {
        overrides.queryRaw = async (query: SqlQuery) => {
            if (ended) throw new TransactionEndedError();
            return inTurn(() => queryRaw.call(tx, query));
        };
    }
    return withOverrides(tx, overrides);
}

const statement = (sql: string) => ({ sql, args: [], argTypes: [] });

/** SQLite's answer to a write lock on a connection that may not write (`PRAGMA query_only`, a read-only file). */
function isReadOnly(err: unknown): boolean {
    // better-sqlite3's own error, or the adapter's DriverAdapterError around it
    const e = err as { code?: unknown; cause?: { originalCode?: unknown } } | null;
    return [e?.code, e?.cause?.originalCode].some((code) => typeof code === 'string' && code.startsWith('SQLITE_READONLY'));
}

/**
 * Turns the transaction that `@prisma/adapter-better-sqlite3` has just opened with a plain (deferred) `BEGIN`,
 * before any statement of it, into one that holds the database's write lock from its start (`BEGIN IMMEDIATE`).
 *
 * Under a deferred BEGIN, a transaction that reads and then writes (every policy-checked write does) asks for the
 * write lock only at its first write. When another connection to the file (another server process) holds that lock
 * then, or has committed since the transaction's first read, SQLite fails the write at once with SQLITE_BUSY,
 * without waiting for the busy timeout: a transaction that has read may not wait, as that could deadlock. Three
 * processes on one file answered up to a third of a mixed load 503. `BEGIN IMMEDIATE` waits for the lock (up to the busy
 * timeout) before anything is read, and then nothing can get in between. A connection that may not write (SQLite
 * answers SQLITE_READONLY) keeps the plain BEGIN, so that its reads in transactions still work. Within one process
 * this changes nothing: the gate already lets one transaction run at a time.
 */
async function takeWriteLock(tx: DriverTransaction): Promise<void> {
    await tx.executeRaw(statement('ROLLBACK'));
    try {
        await tx.executeRaw(statement('BEGIN IMMEDIATE'));
    } catch (err) {
        if (!isReadOnly(err)) throw err;
        await tx.executeRaw(statement('BEGIN'));
    }
}

/** The statement methods of a driver adapter, outside any transaction. */
const STATEMENTS = ['queryRaw', 'executeRaw', 'executeScript'] as const;

/**
 * `connected`: where a single-connection SQLite adapter is registered for the snapshot probe while it is open;
 * `variableLimit`: the SQLite connection's bound on parameters per statement, declared to Prisma (variable-limit.ts).
 */
function wrapAdapter<A>(adapter: A, connected?: ConnectedAdapters, variableLimit?: number): A {
    const inner = adapter as unknown as DriverAdapter;
    if (typeof inner?.startTransaction !== 'function') {
        return adapter;
    }
    if (inner.provider !== 'sqlite') {
        return withOverrides(inner, {
            startTransaction: async (...args: unknown[]) => wrapTransaction(await inner.startTransaction(...args)),
        }) as unknown as A;
    }
    // one connection for everything: statements outside a transaction wait for an open one to end
    const gate = new ConnectionGate();
    const oneConnection = runsOnOneConnection(inner.adapterName);
    const overrides: Record<string, unknown> = {
        startTransaction: async (...args: unknown[]) => {
            await gate.acquire();
            let tx: DriverTransaction;
            try {
                tx = await inner.startTransaction(...args);
            } catch (err) {
                gate.release();
                throw err;
            }
            if (oneConnection) {
                try {
                    await takeWriteLock(tx);
                } catch (err) {
                    // not left inside the adapter's BEGIN (a ROLLBACK outside a transaction just fails)
                    await tx.executeRaw(statement('ROLLBACK')).catch(() => undefined);
                    await tx.rollback().catch(() => undefined);
                    gate.release();
                    throw err;
                }
            }
            return wrapTransaction(tx, () => gate.release());
        },
    };
    if (variableLimit !== undefined) {
        const info = (inner as { getConnectionInfo?: () => ConnectionInfoLike }).getConnectionInfo;
        overrides.getConnectionInfo = declaringLimit(info?.bind(inner), variableLimit);
    }
    for (const name of STATEMENTS) {
        const method = (inner as unknown as Record<string, unknown>)[name];
        if (typeof method === 'function') {
            overrides[name] = (...args: unknown[]) => gate.statement(() => (method as (...a: unknown[]) => Promise<unknown>).apply(inner, args));
        }
    }
    // `connected` is given only for a factory whose adapters run on one connection
    if (connected && typeof overrides.queryRaw === 'function') {
        connected.add(inner, overrides.queryRaw as Parameters<ConnectedAdapters['add']>[1]);
        overrides.dispose = async () => {
            connected.delete(inner);
            await inner.dispose?.();
        };
    }
    return withOverrides(inner, overrides) as unknown as A;
}

export interface TransactionCleanupOptions {
    /**
     * With `@prisma/adapter-better-sqlite3`: how many compiled statements the connection keeps for reuse
     * (`statement-cache.ts`; 256 by default, 0 compiles every statement anew, as the adapter does alone).
     */
    preparedStatements?: number;
}

/**
 * Wraps a driver adapter factory so that a transaction whose COMMIT or ROLLBACK fails still gives its
 * connection (or lock) back, and, on SQLite, so that statements outside a transaction never run inside
 * another caller's open one. Pass the result as `adapter` to `new PrismaClient`.
 */
export function withTransactionCleanup<F extends DriverAdapterFactoryLike>(factory: F, options: TransactionCleanupOptions = {}): F {
    if (typeof factory?.connect !== 'function') {
        throw new TypeError('withTransactionCleanup: expected a Prisma driver adapter factory (e.g. new PrismaPg(...))');
    }
    const kept = options?.preparedStatements ?? DEFAULT_PREPARED_STATEMENTS;
    if (!Number.isSafeInteger(kept) || kept < 0) {
        throw new TypeError(`withTransactionCleanup: preparedStatements must be a whole number from 0 up, not ${String(kept)}`);
    }
    const connected = factory.provider === 'sqlite' && runsOnOneConnection(factory.adapterName) ? new ConnectedAdapters() : undefined;
    const overrides: Record<string | symbol, unknown> = {
        connect: async () => {
            const adapter = await factory.connect();
            const inner = adapter as unknown as DriverAdapter & { queryRaw?: unknown; client?: unknown };
            // the adapter's better-sqlite3 connection (`client`): one for everything, so its statements can be kept
            if (connected && kept > 0) keepPreparedStatements(inner?.client, kept);
            const limit = inner?.provider === 'sqlite' && typeof inner.queryRaw === 'function' ? await sqliteVariableLimit(inner as never) : undefined;
            return wrapAdapter(adapter, connected, limit);
        },
    };
    if (connected) overrides[SNAPSHOT_PROBE] = connected.probe;
    const shadow = (factory as { connectToShadowDb?: () => Promise<unknown> }).connectToShadowDb;
    if (typeof shadow === 'function') {
        overrides.connectToShadowDb = async () => wrapAdapter(await shadow.call(factory));
    }
    return withOverrides(factory, overrides);
}
