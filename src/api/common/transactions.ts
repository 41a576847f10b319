import { classifyError, isTransactionConflict } from './errors';

/** The write happened but its result cannot be read back (ZenStack's RESULT_NOT_READABLE): not a failure of the write. */
export function isNotReadable(err: unknown): boolean {
    return classifyError(err).kind === 'not-readable';
}

type TransactionFn<T> = (fn: (tx: unknown) => Promise<T>, options?: { isolationLevel: string }) => Promise<T>;

/**
 * A serializable transaction that loses to a concurrent one (PostgreSQL's serialization failure, also on
 * unrelated rows of a small or unindexed table, where its predicate locks cover whole pages) is run again,
 * from the start, up to this many times in all, after a short random pause; only then is the conflict
 * answered (503, try again).
 */
const SERIALIZABLE_ATTEMPTS = 8;

/**
 * Runs `fn` in one interactive transaction of `client`. A write in it whose result the user may not read
 * back (ZenStack's RESULT_NOT_READABLE) has happened and is kept: the transaction commits, and the error
 * is thrown afterwards, as ZenStack does with its own transactions (thrown inside, it would roll back a
 * write the answer then calls done). With serializable isolation `fn` may run more than once (see
 * `SERIALIZABLE_ATTEMPTS`): it must compute everything it writes from its inputs and what it reads.
 */
export async function transactionKeepingWrites<T>(client: unknown, fn: (tx: unknown) => Promise<T>, options?: { isolationLevel: string }): Promise<T> {
    const $transaction = (client as { $transaction?: unknown } | null)?.$transaction;
    if (typeof $transaction !== 'function') throw new Error('the client does not support interactive transactions');
    const outcome = await retryingConflicts(options, () =>
        ($transaction as TransactionFn<{ result: T } | { unreadable: unknown }>).call(
            client,
            async (tx) => {
                try {
                    return { result: await fn(tx) };
                } catch (err) {
                    if (isNotReadable(err)) return { unreadable: err };
                    throw err;
                }
            },
            options,
        ),
    );
    if ('unreadable' in outcome) throw outcome.unreadable;
    return outcome.result;
}

/**
 * Runs `attempt` (one whole transaction) again when, under serializable `options`, it lost to a
 * concurrent transaction: up to `SERIALIZABLE_ATTEMPTS` times in all, after short random pauses.
 */
export async function retryingConflicts<T>(options: { isolationLevel: string } | undefined, attempt: () => Promise<T>): Promise<T> {
    const retries = options?.isolationLevel === 'Serializable';
    for (let n = 1; ; n++) {
        try {
            return await attempt();
        } catch (err) {
            if (!retries || n >= SERIALIZABLE_ATTEMPTS || !isTransactionConflict(err)) throw err;
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * n));
        }
    }
}

/**
 * Marks a client that stands for several, chosen per model by the application (NestJS's
 * `getEnhancedPrisma(model)`): a transaction opened on it would run every model on the one client chosen
 * for `$transaction`, so reads that want one only for a consistent snapshot go without it.
 */
export const CLIENT_PER_MODEL = Symbol.for('zenstack-api.clientPerModel');

export function choosesClientPerModel(client: unknown): boolean {
    return typeof client === 'object' && client !== null && (client as Record<symbol, unknown>)[CLIENT_PER_MODEL] === true;
}
