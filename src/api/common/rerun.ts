import { classifyError } from './errors';

/**
 * Running a whole write again when it lost a race with a concurrent request. A whole write is one ORM call (Prisma
 * and ZenStack run each in one statement or one transaction of their own) or one transaction the handler opened: when
 * it fails, the database has rolled it back and nothing of it is left, so running it again from the start is safe.
 * Never for a call inside a caller's transaction, which the failure may have aborted and which holds earlier work.
 */

/** Up to this many runs in all of a serializable transaction that keeps losing to concurrent ones (predicate locks on small tables conflict often). */
const SERIALIZABLE_ATTEMPTS = 8;
/** Up to this many runs in all of any other write that lost to a concurrent transaction (a deadlock). */
const CONFLICT_ATTEMPTS = 3;

/** Conflicts an inner loop (a handler transaction inside a whole write) has already run out of attempts for. */
const givenUp = new WeakSet<object>();

/** The driver adapter's account of an error (`{ kind, originalCode, originalMessage, code }`), however Prisma passed it on. */
function driverCause(err: unknown): Record<string, unknown> | undefined {
    if (typeof err !== 'object' || err === null) return undefined;
    const e = err as { name?: unknown; cause?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
    const cause = e.name === 'DriverAdapterError' ? e.cause : e.meta?.driverAdapterError?.cause;
    return typeof cause === 'object' && cause !== null ? (cause as Record<string, unknown>) : undefined;
}

/** The SQLSTATE (or SQLite result code) the database answered. */
function stateOf(cause: Record<string, unknown> | undefined): unknown {
    return cause?.originalCode ?? cause?.code;
}

/**
 * The transaction lost to a concurrent one and may simply be run again: a serialization failure (SQLSTATE 40001,
 * Prisma's P2034) or a deadlock (40P01; PostgreSQL rolls back one of the transactions of the cycle). Not a lock
 * timeout (55P03), which bounds a wait the application chose to bound.
 */
export function isRetryableConflict(err: unknown): boolean {
    if ((err as { code?: unknown } | null)?.code === 'P2034') return true;
    const cause = driverCause(err);
    const state = stateOf(cause);
    return cause?.kind === 'TransactionWriteConflict' || state === '40001' || state === '40P01';
}

/**
 * PostgreSQL's message, in English (the default `lc_messages`), for a foreign-key violation of a row being deleted, or
 * its key changed, while others still reference it. A written row naming no row says "insert or update on table".
 */
const REFERENCED_ROW = /^update or delete on table /;

/**
 * A foreign-key violation that may be one of the row being written: it names a related row that does not exist (P2003
 * from an insert or update of the referencing row), rather than a row being deleted (or its key changed) while others
 * still reference it, which is a conflict with those rows. SQLite's extended result code is taken for the first kind (its
 * deletes of still-referenced rows answer 400 all the same: tests/reliability/deleted-reference.test.ts). PostgreSQL reports
 * both under SQLSTATE 23503 and tells them apart only in its message, which follows the server's `lc_messages`: the
 * English message of the second kind is recognised and excluded, and a message in another language may be either.
 * Callers therefore only use this to look again (run the write once more, look up the records the request names),
 * never to decide an answer on its own.
 */
export function isMissingReference(err: unknown): boolean {
    const cause = driverCause(err);
    if (cause?.kind !== 'ForeignKeyConstraintViolation') return false;
    const state = stateOf(cause);
    if (state === 'SQLITE_CONSTRAINT_FOREIGNKEY') return true;
    return state === '23503' && !(typeof cause.originalMessage === 'string' && REFERENCED_ROW.test(cause.originalMessage));
}

/**
 * An upsert (or `connectOrCreate`) that raced with another one of the same key: both found no record, both created,
 * and the later create failed on the unique key (P2002). A nested to-one upsert whose partner's key is required loses
 * differently: its create finds the partner the other request made and refuses to detach it (P2014).
 */
function isUpsertRace(err: unknown): boolean {
    const { kind, ormCode } = classifyError(err);
    return kind === 'unique' || ormCode === 'P2014';
}

export interface RerunOptions {
    /** The isolation of the transaction `run` opens: serializable ones get more attempts. */
    isolation?: { isolationLevel: string };
    /**
     * The write looks a record up by a unique key and creates it when it is missing (an upsert, a `connectOrCreate`):
     * run once more after a unique violation, when the record the other request created is found. Prisma's
     * documentation says to retry such writes. A violation that is not a race fails the same way again.
     */
    findsOrCreates?: boolean;
    /**
     * The write links records it names (checked by the ORM or the handler before the row is written): run once more
     * when the row written names one that is gone (`isMissingReference`), deleted by a concurrent request after the
     * check, so that the check answers what it answers for a record that was never there. A key that names nothing
     * fails the same way again.
     */
    links?: boolean;
}

/** A short random pause before attempt `n`, so that the transactions that conflicted do not meet again at once. */
const pause = (n: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * n));

/**
 * Runs `run`, a whole write (see above), and again when it lost a race: after a serialization failure or deadlock up to
 * `CONFLICT_ATTEMPTS` (serializable: `SERIALIZABLE_ATTEMPTS`) times in all, and once more after a race of
 * `options.findsOrCreates` or `options.links`. At most one run more than the conflicts allow, so the total is bounded.
 * A conflict that an inner loop gave up on is not run again here.
 */
export async function rerunning<T>(run: () => Promise<T>, options: RerunOptions = {}): Promise<T> {
    const conflictAttempts = options.isolation?.isolationLevel === 'Serializable' ? SERIALIZABLE_ATTEMPTS : CONFLICT_ATTEMPTS;
    let conflicts = 1;
    let raced = false;
    for (;;) {
        try {
            return await run();
        } catch (err) {
            if (isRetryableConflict(err)) {
                const exhausted = typeof err === 'object' && err !== null && givenUp.has(err);
                if (exhausted) throw err;
                if (conflicts >= conflictAttempts) {
                    if (typeof err === 'object' && err !== null) givenUp.add(err);
                    throw err;
                }
                await pause(conflicts++);
                continue;
            }
            const race = !raced && ((options.findsOrCreates === true && isUpsertRace(err)) || (options.links === true && isMissingReference(err)));
            if (!race) throw err;
            raced = true;
        }
    }
}

/**
 * Whether the handler may run a write of `client` again: not when `client` is a transaction of the application's
 * (it has no `$transaction`), which a failed statement may have aborted and which holds the application's earlier work.
 */
export function mayRerun(client: unknown): boolean {
    return typeof (client as { $transaction?: unknown } | null)?.$transaction === 'function';
}
