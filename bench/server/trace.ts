import { observeCalls, type Any, type CallObserver } from './observe';

/**
 * BENCH_LOG_CALLS=1: wraps a client so that every ORM call the handler makes is printed
 * (`  call post.findMany({...})`). The pre-flight reads these lines to check that each floor makes
 * the calls it mirrors.
 */

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

const write = (call: string) => process.stderr.write(`  call ${call}\n`);

const logger: CallObserver = {
    call(model, op, args, run) {
        write(`${model}.${op}(${show(args)})`);
        return run();
    },
    transaction(args) {
        write(`$transaction(${show(args)})`);
        return logger;
    },
    other(name, args) {
        write(`${name}(${show(args)})`);
    },
};

export function logCalls(db: Any): Any {
    return observeCalls(db, logger);
}
