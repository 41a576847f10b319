import { classifyError } from './errors';
import { rerunning } from './rerun';

/** The write happened but its result cannot be read back (ZenStack's RESULT_NOT_READABLE): not a failure of the write. */
export function isNotReadable(err: unknown): boolean {
    return classifyError(err).kind === 'not-readable';
}

type TransactionFn<T> = (fn: (tx: unknown) => Promise<T>, options?: { isolationLevel: string }) => Promise<T>;

/**
 * Runs `fn` in one interactive transaction of `client`. A write in it whose result the user may not read
 * back (ZenStack's RESULT_NOT_READABLE) has happened and is kept: the transaction commits, and the error
 * is thrown afterwards, as ZenStack does with its own transactions (thrown inside, it would roll back a
 * write the answer then calls done). A transaction that lost to a concurrent one (a serialization failure, a
 * deadlock) is run again from the start (`rerunning`), so `fn` may run more than once: it must compute
 * everything it writes from its inputs and what it reads.
 */
export async function transactionKeepingWrites<T>(client: unknown, fn: (tx: unknown) => Promise<T>, options?: { isolationLevel: string }): Promise<T> {
    const $transaction = (client as { $transaction?: unknown } | null)?.$transaction;
    if (typeof $transaction !== 'function') throw new Error('the client does not support interactive transactions');
    const outcome = await rerunning(
        () =>
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
        { isolation: options },
    );
    if ('unreadable' in outcome) throw outcome.unreadable;
    return outcome.result;
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
