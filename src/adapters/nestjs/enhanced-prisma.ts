/**
 * The client exported by `ZenStackModule`: a stand-in that asks `getEnhancedPrisma` for the current
 * request's client on every member access, so a singleton provider still serves per-request users.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { CLIENT_PER_MODEL } from '../../api/common/transactions';

/**
 * What `getEnhancedPrisma` threw while `ApiHandlerService` served a request (the first error, if any): a handler
 * reaching a model the app's getter refuses (`getEnhancedPrisma(model)` throwing a Nest `HttpException`) turns it
 * into an error response; the service then gives the app's exception to Nest instead.
 */
export const clientErrors = new AsyncLocalStorage<{ thrown?: unknown }>();

/** Calls the app's getter, noting what it throws for the request being served. */
function callGetter(getEnhancedPrisma: (model?: string | symbol) => unknown, prop: string): unknown {
    try {
        return getEnhancedPrisma(prop);
    } catch (err) {
        const scope = clientErrors.getStore();
        if (scope && scope.thrown === undefined) scope.thrown = err;
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

/** Resolves the current request's client of a proxy made here (used by `ApiHandlerService`). */
export const RESOLVE_CLIENT = Symbol.for('zenstack-api.nestjs.resolveClient');

function isObjectLike(value: unknown): value is object {
    return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

export function createEnhancedPrismaProxy(getEnhancedPrisma: (model?: string | symbol) => unknown): object {
    const target = Object.freeze({
        [RESOLVE_CLIENT]: () => getEnhancedPrisma(),
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

/** The current client behind `prisma`: resolved through the proxy when it is one, else `prisma` itself. */
export function resolveClient(prisma: unknown): unknown {
    const resolve = isObjectLike(prisma) ? (prisma as Record<symbol, unknown>)[RESOLVE_CLIENT] : undefined;
    return typeof resolve === 'function' ? resolve() : prisma;
}
