/**
 * The number of query parameters one SQLite statement may hold, as the connected library was built with.
 *
 * Prisma's query compiler bounds the parameters of a statement by what the driver adapter declares
 * (`getConnectionInfo().maxBindValues`) and otherwise, on SQLite, by 999, the default of SQLite before 3.32.0:
 * past it a query fails at once with `P2029`, so `id: { in: [1,000 ids] }` or a JSON:API filter of 1,000
 * values was a 400 on SQLite alone. `@prisma/adapter-better-sqlite3` declares nothing, while the SQLite
 * better-sqlite3 bundles is built with `SQLITE_MAX_VARIABLE_NUMBER=32766`. The bound is read from the
 * connection's compile options; a build that does not list it (SQLite's compile-time default) keeps Prisma's 999.
 * (An `OR` of one term per value still ends at SQLite's expression depth of 1,000, as a 400 either way.)
 */

interface QueryRawLike {
    queryRaw(query: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<unknown>;
}

/** The query that reads it, once per connection (test helpers that count statements leave it out). */
export const VARIABLE_LIMIT_SQL = "SELECT compile_options FROM pragma_compile_options WHERE compile_options LIKE 'MAX_VARIABLE_NUMBER=%'";

/** The connection's bound on parameters per statement, or `undefined` when it cannot tell (or the query fails). */
export async function sqliteVariableLimit(adapter: QueryRawLike): Promise<number | undefined> {
    try {
        const result = (await adapter.queryRaw({ sql: VARIABLE_LIMIT_SQL, args: [], argTypes: [] })) as { rows?: unknown[][] };
        const option = result?.rows?.[0]?.[0];
        const match = typeof option === 'string' ? /^MAX_VARIABLE_NUMBER=(\d+)$/.exec(option) : null;
        const limit = match ? Number(match[1]) : NaN;
        return Number.isSafeInteger(limit) && limit > 0 ? limit : undefined;
    } catch {
        return undefined;
    }
}

export interface ConnectionInfoLike {
    maxBindValues?: number;
    supportsRelationJoins: boolean;
}

/** `getConnectionInfo` of an adapter that declares no bound of its own, declaring `limit`. */
export function declaringLimit(getConnectionInfo: (() => ConnectionInfoLike) | undefined, limit: number): () => ConnectionInfoLike {
    return () => {
        const info = getConnectionInfo ? getConnectionInfo() : { supportsRelationJoins: false };
        return info.maxBindValues === undefined ? { ...info, maxBindValues: limit } : info;
    };
}
