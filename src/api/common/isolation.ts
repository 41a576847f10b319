/** Transaction isolation the handlers ask for, by database provider. */

/** The database provider of a client (`sqlite`, `postgresql`, …); `unknown` if the client does not say. */
export function providerOf(prisma: unknown): string {
    const p = (prisma as { _activeProvider?: unknown } | null)?._activeProvider;
    return typeof p === 'string' ? p : 'unknown';
}

type Options = { isolationLevel: string } | undefined;

const option = (level: string | undefined): Options => (level ? { isolationLevel: level } : undefined);

/** Reads that must be one snapshot (a page and its total). SQLite transactions are serializable already. */
const SNAPSHOT: Record<string, string> = { postgresql: 'RepeatableRead', cockroachdb: 'Serializable', mysql: 'RepeatableRead' };

/**
 * Writes computed from what the same transaction read (a relationship replaced by the difference to its
 * current members): under concurrent replacements only serializable isolation keeps the result one of the
 * requested sets (at Read Committed two of them both succeed and leave their union); the loser gets a
 * serialization failure and is run again (`transactionKeepingWrites`), answered 503 "conflict, try again"
 * only when it keeps losing.
 */
const READ_THEN_WRITE: Record<string, string> = { postgresql: 'Serializable', cockroachdb: 'Serializable', mysql: 'Serializable' };

export function snapshotOptions(prisma: unknown): Options {
    return option(SNAPSHOT[providerOf(prisma)]);
}

export function readThenWriteOptions(prisma: unknown): Options {
    return option(READ_THEN_WRITE[providerOf(prisma)]);
}
