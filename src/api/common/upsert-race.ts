import { classifyError } from './errors';

/**
 * An upsert races with another one of the same key: both find no record, both create, and the later create
 * fails on the unique key (P2002) although an update was all it needed; Prisma's documentation says to retry
 * such an upsert. Runs `upsert`, and once more when it fails with a unique violation: the record the other
 * request created is then found and updated. A unique violation that is not a race (the create collides with
 * another record on another unique field) fails the same way the second time and is answered as before.
 * Not for a call inside a caller's transaction, which a failed statement may have aborted.
 */
export async function retryUpsertRace<T>(upsert: () => Promise<T>): Promise<T> {
    try {
        return await upsert();
    } catch (err) {
        if (classifyError(err).kind !== 'unique') throw err;
        return upsert();
    }
}
