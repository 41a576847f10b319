import { classifyError } from './errors';

/**
 * An upsert races with another one of the same key: both find no record, both create, and the later create
 * fails on the unique key (P2002) although an update was all it needed; Prisma's documentation says to retry
 * such an upsert (and a `connectOrCreate`, which races the same way). Runs `upsert` (a whole write, or a whole
 * transaction, that left nothing behind when it failed), and once more when it fails with a unique violation:
 * the record the other request created is then found and updated or linked. A unique violation that is not a
 * race (the create collides with another record on another unique field) fails the same way the second time and
 * is answered as before. A nested to-one upsert whose partner's key is required loses the race differently:
 * its create finds the partner the other request made and refuses to detach it (P2014); retried the same way.
 * Not for a call inside a caller's transaction, which a failed statement may have aborted.
 */
export async function retryUpsertRace<T>(upsert: () => Promise<T>): Promise<T> {
    try {
        return await upsert();
    } catch (err) {
        const { kind, ormCode } = classifyError(err);
        if (kind !== 'unique' && ormCode !== 'P2014') throw err;
        return upsert();
    }
}
