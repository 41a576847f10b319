/**
 * The client exported by `ZenStackModule`: a stand-in that asks `getEnhancedPrisma` for the current
 * request's client on every member access, so a singleton provider still serves per-request users.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { CLIENT_PER_MODEL } from '../../api/common/transactions';

/** How `getEnhancedPrisma` failed while `ApiHandlerService` served a request: it threw, or gave no client back. */
export type ClientFailure = { thrown: unknown } | { returned: unknown };

/**
 * The first failure of `getEnhancedPrisma` while `ApiHandlerService` serves a request. The getter is only called
 * when the handler reaches the client (with the member it reaches, as 2.x calls it), so its failure surfaces
 * inside the handler; the service then answers it as the other adapters answer a failing `getPrisma` (a Nest
 * `HttpException` given to Nest as it is), not as whatever error the handler made of it.
 */
export const clientErrors = new AsyncLocalStorage<{ failure?: ClientFailure }>();

function note(failure: ClientFailure): void {
    const scope = clientErrors.getStore();
    if (scope && scope.failure === undefined) scope.failure = failure;
}

/** Calls the app's getter, noting what it throws for the request being served. */
function callGetter(getEnhancedPrisma: (model?: string | symbol) => unknown, prop: string): unknown {
    try {
        return getEnhancedPrisma(prop);
    } catch (err) {
        note({ thrown: err });
        throw err;
    }
}

/** Members Nest and Promise machinery probe on providers; answered without calling `getEnhancedPrisma`. */
const NOT_FORWARDED = new Set<string>([
    'then',
    'constructor',
    'onModuleInit',
    'onApplicationBootstrap',
    'onModuleDestroy',
    'beforeApplicationShutdown',
    'onApplicationShutdown',
    'toJSON',
]);

function isObjectLike(value: unknown): value is object {
    return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

export function createEnhancedPrismaProxy(getEnhancedPrisma: (model?: string | symbol) => unknown): object {
    const target = Object.freeze({
        // a function that takes the accessed member may choose the client by model (as 2.x documents)
        [CLIENT_PER_MODEL]: getEnhancedPrisma.length > 0,
    });
    return new Proxy(target, {
        get(t, prop) {
            if (typeof prop === 'symbol' || NOT_FORWARDED.has(prop)) {
                return Reflect.get(t, prop);
            }
            const client = callGetter(getEnhancedPrisma, prop);
            if (!isObjectLike(client)) {
                note({ returned: client });
                throw new Error(`ZenStackModule: getEnhancedPrisma returned ${String(client)} (accessing "${prop}")`);
            }
            const value = Reflect.get(client, prop);
            return typeof value === 'function' ? value.bind(client) : value;
        },
        has(_t, prop) {
            const client = typeof prop === 'string' ? callGetter(getEnhancedPrisma, prop) : undefined;
            return isObjectLike(client) && prop in client;
        },
    });
}
