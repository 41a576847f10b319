import { withOverrides } from '../../../src/driver/overrides';

/**
 * A driver adapter factory (`PrismaPg`, `PrismaBetterSQLite3`) whose connections run `before` just before a statement
 * that `matches` reaches the database (in a transaction or outside one), and wait for it: what another session does at
 * that point (delete a row, take a lock) happens between the request's earlier statements and that one, on the real
 * database, deterministically. Wrap it in `withTransactionCleanup` as an application does. `after`, when given, runs
 * once after the first transaction that ran such a statement has been released (its `rollback()` or `commit()` done),
 * before anything else is sent on that connection.
 */
export interface StatementHook {
    matches: (sql: string) => boolean;
    before?: () => void | Promise<void>;
    after?: () => void | Promise<void>;
    /** How many matching statements `before` runs for (the first ones); 1 unless said. */
    times?: number;
    /**
     * PostgreSQL: the SQLSTATE (`40P01`, a deadlock) the database answers a matching statement with instead of running
     * it. The session runs a statement that raises it, so the real transaction is aborted and rolled back by whoever
     * opened it, as after a real deadlock; the driver adapter and the ORM report it as they report one.
     */
    fail?: () => string | undefined;
}

/** A statement that makes PostgreSQL raise `state` (a five-character SQLSTATE) in the session that runs it. */
function raising(state: string): string {
    if (!/^[0-9A-Z]{5}$/.test(state)) throw new Error(`not a SQLSTATE: ${state}`);
    return `DO $$ BEGIN RAISE EXCEPTION 'injected by the test' USING ERRCODE = '${state}'; END $$`;
}

interface Query {
    sql: string;
}
type Statements = Record<string, (query: Query) => Promise<unknown>>;
type Adapter = Statements & { startTransaction(...args: unknown[]): Promise<Statements & Record<'commit' | 'rollback', () => Promise<void>>> };

export function hookStatement<F extends object>(factory: F, hook: StatementHook): F {
    let fired = 0;
    let released = false;
    const statements = (target: Statements, onMatch?: () => void) => {
        const hooked = (name: string) => async (query: Query) => {
            if (fired < (hook.times ?? 1) && hook.matches(query.sql)) {
                fired++;
                onMatch?.();
                await hook.before?.();
                const state = hook.fail?.();
                if (state) return target[name]({ ...query, sql: raising(state), args: [], argTypes: [] } as Query);
            }
            return target[name](query);
        };
        return { queryRaw: hooked('queryRaw'), executeRaw: hooked('executeRaw') };
    };
    const connect = async () => {
        const adapter = (await (factory as unknown as { connect(): Promise<Adapter> }).connect()) as Adapter;
        const startTransaction = async (...args: unknown[]) => {
            const tx = await adapter.startTransaction(...args);
            let matched = false;
            const end = (how: 'commit' | 'rollback') => async () => {
                await tx[how]();
                if (matched && !released) {
                    released = true;
                    await hook.after?.();
                }
            };
            return withOverrides(tx, {
                ...statements(tx, () => {
                    matched = true;
                }),
                commit: end('commit'),
                rollback: end('rollback'),
            });
        };
        return withOverrides(adapter, { ...statements(adapter), startTransaction });
    };
    return withOverrides(factory, { connect }) as F;
}

/** A statement that writes (`INSERT`, `UPDATE`, `DELETE`) to the table `table`, as Prisma quotes it on SQLite or PostgreSQL. */
export function writesTo(table: string): (sql: string) => boolean {
    const pattern = new RegExp(`^\\s*(INSERT INTO|UPDATE|DELETE FROM)\\s+(\\S+\\.)?[\`"]${table}[\`"]`, 'i');
    return (sql) => pattern.test(sql);
}
