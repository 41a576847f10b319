/**
 * The snapshot probe: how a read of several statements on SQLite proves, without a transaction, that
 * nothing was committed while it ran (`src/api/common/snapshot-read.ts` uses it).
 *
 * A probe reads the connection's `total_changes()` (rows written on this connection since it opened,
 * counted as each INSERT, UPDATE or DELETE completes, whether or not its transaction later commits) and
 * `data_version` (which moves whenever another connection commits). Rows changed without being
 * counted (a foreign-key cascade, the rows REPLACE deletes) change only along with a counted row.
 * `schema_version` adds schema changes, which neither counts. Two probes that return the same values
 * on the same connection bracket a span in which nothing was committed anywhere, so every statement
 * run between them read the same data.
 *
 * Only `withTransactionCleanup` offers the probe, on the factory it returns (`factory[SNAPSHOT_PROBE]`),
 * and only for `@prisma/adapter-better-sqlite3`, which runs every statement on one connection: a pool
 * would make the comparison meaningless. Its gate also keeps statements outside a transaction from
 * running inside another caller's open one, so what they read is committed data. The probe answers
 * `undefined` ("cannot tell") unless exactly one adapter of the factory is connected, so a factory
 * shared by two clients never compares the counters of two connections; each answer names its
 * adapter, so a reconnection between two probes shows as a difference.
 */

export const SNAPSHOT_PROBE = Symbol.for('zenstack-api.snapshotProbe');

export type SnapshotProbe = () => Promise<string | undefined>;

const PROBE_SQL =
    'SELECT total_changes(), (SELECT data_version FROM pragma_data_version), (SELECT schema_version FROM pragma_schema_version)';

/** Adapters that run every statement on one connection, by their `adapterName`. */
const SINGLE_CONNECTION = new Set(['@prisma/adapter-better-sqlite3']);

export function runsOnOneConnection(adapterName: unknown): boolean {
    return typeof adapterName === 'string' && SINGLE_CONNECTION.has(adapterName);
}

type QueryRaw = (query: { sql: string; args: unknown[]; argTypes: unknown[] }) => Promise<unknown>;

let adapters = 0;

/** The connected adapters of one factory, and the probe of the only one. */
export class ConnectedAdapters {
    private readonly live = new Map<object, { id: string; queryRaw: QueryRaw }>();

    /** `queryRaw`: the adapter's statement method outside transactions (behind its gate). */
    add(adapter: object, queryRaw: QueryRaw): void {
        this.live.set(adapter, { id: `adapter-${++adapters}`, queryRaw });
    }

    delete(adapter: object): void {
        this.live.delete(adapter);
    }

    readonly probe: SnapshotProbe = async () => {
        if (this.live.size !== 1) return undefined;
        const [{ id, queryRaw }] = this.live.values();
        const result = (await queryRaw({ sql: PROBE_SQL, args: [], argTypes: [] })) as { rows?: unknown[][] };
        const row = result?.rows?.[0];
        if (!Array.isArray(row) || row.length !== 3) return undefined;
        return `${id}/${row.map(String).join('/')}`;
    };
}
