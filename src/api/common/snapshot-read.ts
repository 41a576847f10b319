import { SNAPSHOT_PROBE, type SnapshotProbe } from '../../driver/snapshot-probe';
import { snapshotOptions } from './isolation';
import { choosesClientPerModel } from './transactions';

/**
 * Reads that must see one state of the database (a page and its total), without a transaction where
 * that can be proved safe.
 *
 * On SQLite through `withTransactionCleanup(new PrismaBetterSQLite3(...))` the read runs outside a
 * transaction between two snapshot probes (`src/driver/snapshot-probe.ts`). When both come back equal,
 * nothing was committed on the database while the read ran, so the read is what one transaction would
 * have returned, and the answer stands. When they differ, or when the set-up offers no probe (another
 * adapter or database, no wrapper, a factory shared by two clients), the read runs again, or for the
 * first time, in one transaction (repeatable read where the database has weaker defaults). On a client
 * of a transaction the application opened, and on a client the application chooses per model (one
 * transaction cannot span its clients, so each query runs on the one it picks, as 2.x does), it just reads.
 *
 * Why: SQLite has one connection here and the wrapper's gate holds every other statement while a
 * transaction is open, so a transaction per page makes all requests wait behind it, and Prisma's
 * interactive transactions cost more CPU than two probes. Reads between probes interleave with other
 * requests as plain reads do.
 */
export async function readConsistently<C, T>(prisma: C, read: (db: C) => Promise<T>): Promise<T> {
    // a client of the application's own transaction is one snapshot already (and has no `$transaction`)
    if (insideTransaction(prisma) || choosesClientPerModel(prisma)) return read(prisma);
    const probe = probeOf(prisma);
    if (probe) {
        // a probe that fails cannot tell, like one that answers undefined
        const ask = () => probe().catch(() => undefined);
        const before = await ask();
        if (before !== undefined) {
            const result = await read(prisma);
            if ((await ask()) === before) return result;
        }
    }
    const client = prisma as { $transaction(fn: (tx: C) => Promise<T>, options?: { isolationLevel: string }): Promise<T> };
    return client.$transaction((tx) => read(tx), snapshotOptions(prisma));
}

/** Prisma marks the client of an interactive transaction with its id. */
const TRANSACTION_ID = Symbol.for('prisma.client.transaction.id');

function insideTransaction(prisma: unknown): boolean {
    try {
        return (prisma as Record<symbol, unknown> | null)?.[TRANSACTION_ID] !== undefined;
    } catch {
        return false;
    }
}

/**
 * The probe of the driver adapter factory the client was built with (Prisma keeps the factory as
 * `_engineConfig.adapter`; ZenStack's enhanced client and client extensions pass the property through).
 */
function probeOf(prisma: unknown): SnapshotProbe | undefined {
    try {
        const factory = (prisma as { _engineConfig?: { adapter?: Record<symbol, unknown> } } | null)?._engineConfig?.adapter;
        const probe = factory?.[SNAPSHOT_PROBE];
        return typeof probe === 'function' ? (probe as SnapshotProbe) : undefined;
    } catch {
        return undefined;
    }
}
