/**
 * Wraps an enhanced client so that every model operation and interactive transaction a handler makes
 * passes through an observer. The pre-flight's call log (`trace.ts`) and the decomposition's recording
 * (`../replay.ts`) are two observers of this one mechanism.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;

export interface CallObserver {
    /** A model operation (`post.findMany`); `run` makes it, and what this returns is the caller's result. */
    call(model: string, op: string, args: unknown[], run: () => unknown): unknown;
    /** An interactive transaction opens (`args`: the callback, then the options): the observer of the calls inside it. */
    transaction(args: unknown[]): CallObserver;
    /** Any other `$` method (`$transaction([...])`, `$queryRaw` …), before it runs. */
    other(name: string, args: unknown[]): void;
}

function isDelegate(value: unknown): boolean {
    return !!value && typeof value === 'object' && typeof (value as { findMany?: unknown }).findMany === 'function';
}

export function observeCalls(db: Any, observer: CallObserver): Any {
    return new Proxy(db, {
        get(target, prop) {
            const value = Reflect.get(target, prop);
            if (typeof prop !== 'string') return value;
            if (prop.startsWith('$')) {
                if (typeof value !== 'function') return value;
                return (...args: unknown[]) => {
                    if (prop === '$transaction' && typeof args[0] === 'function') {
                        const callback = args[0] as (tx: Any) => unknown;
                        const inner = observer.transaction(args);
                        return value.call(target, (tx: Any) => callback(observeCalls(tx, inner)), ...args.slice(1));
                    }
                    observer.other(prop, args);
                    return value.apply(target, args);
                };
            }
            if (!isDelegate(value)) return value;
            return new Proxy(value, {
                get(delegate, op) {
                    const method = Reflect.get(delegate, op);
                    if (typeof method !== 'function' || typeof op !== 'string') return method;
                    return (...args: unknown[]) => observer.call(prop, op, args, () => method.apply(delegate, args));
                },
            });
        },
    });
}
