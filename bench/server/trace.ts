/**
 * BENCH_LOG_CALLS=1: wraps a client so that every model operation the handler calls is printed
 * (`post.findMany {...}`). Used to check that the floor makes the same ORM calls as upstream.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function show(args: unknown[]): string {
    try {
        return args
            .filter((a) => a !== undefined)
            .map((a) => (typeof a === 'function' ? '<callback>' : JSON.stringify(a)))
            .join(', ');
    } catch {
        return '<unserializable>';
    }
}

function wrapDelegate(model: string, delegate: Any): Any {
    return new Proxy(delegate, {
        get(target, op) {
            const value = Reflect.get(target, op);
            if (typeof value !== 'function' || typeof op !== 'string') return value;
            return (...args: unknown[]) => {
                process.stderr.write(`  call ${model}.${op}(${show(args)})\n`);
                return value.apply(target, args);
            };
        },
    });
}

export function logCalls(db: Any): Any {
    return new Proxy(db, {
        get(target, prop) {
            const value = Reflect.get(target, prop);
            if (typeof prop !== 'string') return value;
            if (prop.startsWith('$')) {
                if (typeof value !== 'function') return value;
                return (...args: unknown[]) => {
                    process.stderr.write(`  call ${prop}(${show(args)})\n`);
                    if (prop === '$transaction' && typeof args[0] === 'function') {
                        const callback = args[0] as (tx: Any) => unknown;
                        return value.call(target, (tx: Any) => callback(logCalls(tx)), ...args.slice(1));
                    }
                    return value.apply(target, args);
                };
            }
            if (value && typeof value === 'object' && typeof value.findMany === 'function') {
                return wrapDelegate(prop, value);
            }
            return value;
        },
    });
}
