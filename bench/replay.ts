/**
 * Records the ORM calls one request makes on an enhanced client (model operations and interactive
 * transactions, with their arguments and results), so that the decomposition can time them apart:
 * replayed on a real client (the ORM work alone) or answered from the recording (the handler alone).
 */

import { observeCalls, type Any, type CallObserver } from './server/observe';

export type Recorded =
    | { kind: 'call'; model: string; op: string; args: unknown; result: unknown }
    | { kind: 'transaction'; options: unknown; calls: Recorded[] };

function recorder(log: Recorded[]): CallObserver {
    return {
        async call(model, op, args, run) {
            const entry: Recorded = { kind: 'call', model, op, args: args[0], result: undefined };
            log.push(entry);
            entry.result = await run();
            return entry.result;
        },
        transaction(args) {
            const calls: Recorded[] = [];
            log.push({ kind: 'transaction', options: args[1], calls });
            return recorder(calls);
        },
        other(name) {
            if (name === '$transaction') throw new Error('only interactive transactions are recorded');
        },
    };
}

/** A client that runs everything on `db` and appends what it did to `log`. */
export function recording(db: Any, log: Recorded[]): Any {
    return observeCalls(db, recorder(log));
}

/** Makes the recorded calls again on `db`, in the same order and transactions (the ORM's share of a request). */
export async function replayCalls(db: Any, log: readonly Recorded[]): Promise<void> {
    for (const entry of log) {
        if (entry.kind === 'transaction') {
            await db.$transaction((tx: Any) => replayCalls(tx, entry.calls), entry.options);
        } else {
            await db[entry.model][entry.op](entry.args);
        }
    }
}

/**
 * A client that answers each model operation with the next recorded result of that model and
 * operation, without touching a database (the handler's share of a request); anything else
 * (`_activeProvider`, …) is read from `real`. Results are handed out as recorded: the handlers only
 * read them.
 */
export function answering(log: readonly Recorded[], real: Any): Any {
    const flat: Extract<Recorded, { kind: 'call' }>[] = [];
    const collect = (entries: readonly Recorded[]) => {
        for (const e of entries) {
            if (e.kind === 'transaction') collect(e.calls);
            else flat.push(e);
        }
    };
    collect(log);
    const models = new Set(flat.map((e) => e.model));
    let next = 0;
    const answer = (model: string, op: string): unknown => {
        const entry = flat[next++ % flat.length];
        if (entry.model !== model || entry.op !== op) {
            throw new Error(`replay out of step: ${model}.${op} called, ${entry.model}.${entry.op} recorded`);
        }
        return entry.result;
    };
    const delegates = new Map<string, Any>();
    const client: Any = new Proxy(real, {
        get(target, prop) {
            if (prop === '$transaction') return (callback: (tx: Any) => unknown) => Promise.resolve().then(() => callback(client));
            if (typeof prop !== 'string' || !models.has(prop)) return Reflect.get(target, prop);
            let delegate = delegates.get(prop);
            if (!delegate) {
                delegate = new Proxy({}, { get: (_d, op) => async () => answer(prop, String(op)) });
                delegates.set(prop, delegate);
            }
            return delegate;
        },
    });
    return client;
}
