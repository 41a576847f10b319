import { BadRequestError } from '../common/errors';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import { allowsMethod, findOperation, type OperationSpec } from './operations';

/** Where a request goes: one model operation, or a batch of them in one transaction. */
export type Route = { kind: 'operation'; model: ModelDef; op: OperationSpec } | { kind: 'transaction'; mode: 'sequential' };

export const TRANSACTION_SEGMENT = '$transaction';
const TRANSACTION_MODES: ReadonlySet<string> = new Set(['sequential']);

function decodeSegment(segment: string): string {
    if (!segment.includes('%')) {
        return segment;
    }
    try {
        return decodeURIComponent(segment);
    } catch {
        throw new BadRequestError('invalid request path');
    }
}

/** Splits `/post/findMany` (leading/trailing slashes tolerated) into its two segments. */
export function splitRoutePath(path: string): [string, string] {
    const segments = (path ?? '')
        .split('/')
        .filter((s) => s.length > 0)
        .map(decodeSegment);
    if (segments.length !== 2) {
        throw new BadRequestError('invalid request path: expected /<model>/<operation>');
    }
    return [segments[0], segments[1]];
}

/** Resolved operation routes by method and path, per registry (bounded: cleared when full). */
const routeCaches = new WeakMap<ModelRegistry, Map<string, Route>>();
const ROUTE_CACHE_SIZE = 1000;
const ROUTE_CACHE_KEY_LENGTH = 200;

/**
 * Resolves a request to a route. The model is looked up in the schema's model registry (never on
 * the client object), the operation in the operation table; a method the operation does not
 * accept is a bad request.
 */
export function resolveRoute(registry: ModelRegistry, method: string, path: string): Route {
    const verb = (method ?? '').toUpperCase();
    let cache = routeCaches.get(registry);
    const key = `${verb} ${path ?? ''}`;
    const cached = cache?.get(key);
    if (cached) {
        return cached;
    }
    const route = resolveUncached(registry, verb, path);
    if (route.kind === 'operation' && key.length <= ROUTE_CACHE_KEY_LENGTH) {
        if (!cache) {
            cache = new Map();
            routeCaches.set(registry, cache);
        } else if (cache.size >= ROUTE_CACHE_SIZE) {
            cache.clear();
        }
        cache.set(key, route);
    }
    return route;
}

function resolveUncached(registry: ModelRegistry, verb: string, path: string): Route {
    const [first, second] = splitRoutePath(path);

    if (first === TRANSACTION_SEGMENT) {
        if (!TRANSACTION_MODES.has(second)) {
            throw new BadRequestError(`unsupported transaction type "${second}": only "sequential" is supported`);
        }
        if (verb !== 'POST') {
            throw new BadRequestError('invalid request method for a transaction: only POST is supported');
        }
        return { kind: 'transaction', mode: 'sequential' };
    }

    const model = registry.find(first);
    if (!model) {
        throw new BadRequestError(`unknown model: ${first}`);
    }
    const op = findOperation(second);
    if (!op) {
        throw new BadRequestError(`unknown operation: ${second}`);
    }
    if (!allowsMethod(op, verb)) {
        throw new BadRequestError(`invalid request method for ${op.name}: only ${op.methods.join(' or ')} is supported`);
    }
    return { kind: 'operation', model, op };
}
