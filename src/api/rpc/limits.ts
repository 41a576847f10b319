import { BadRequestError } from '../common/errors';
import type { Args } from './input';

/** Optional limits on what one RPC call may ask of the database (off unless configured). */
export interface ArgLimits {
    /** Largest `take` of a findMany; a larger (or missing) one is clamped to it. */
    maxTake?: number;
    /** Deepest object nesting of `where`, `include`, `select`, `orderBy` and `having`; deeper is a 400. */
    maxDepth?: number;
}

const DEPTH_CHECKED = ['where', 'include', 'select', 'orderBy', 'having'];

/** Nesting depth of a JSON value: a scalar is 0, `{}`/`[]` is 1, `{ a: { b: 1 } }` is 2. Stops counting past `limit`. */
export function nestingDepth(value: unknown, limit: number): number {
    if (value === null || typeof value !== 'object') {
        return 0;
    }
    if (limit <= 0) {
        return 1;
    }
    let deepest = 0;
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
        deepest = Math.max(deepest, nestingDepth(item, limit - 1));
        if (deepest >= limit) break;
    }
    return 1 + deepest;
}

/** Validates the option values once, when the handler is created. */
export function checkLimitOptions(limits: ArgLimits): void {
    for (const name of ['maxTake', 'maxDepth'] as const) {
        const value = limits[name];
        if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) {
            throw new Error(`RPCApiHandler: "${name}" must be a positive integer, got ${String(value)}`);
        }
    }
}

/** Applies the limits to one call's arguments: clamps findMany's `take`, rejects too-deep arguments. */
export function applyLimits(opName: string, args: Args, limits: ArgLimits | undefined): Args {
    if (!limits) {
        return args;
    }
    if (limits.maxDepth !== undefined) {
        for (const key of DEPTH_CHECKED) {
            if (args[key] !== undefined && nestingDepth(args[key], limits.maxDepth + 1) > limits.maxDepth) {
                throw new BadRequestError(`"${key}" is nested deeper than the allowed ${limits.maxDepth} levels`);
            }
        }
    }
    if (limits.maxTake !== undefined && opName === 'findMany') {
        const take = args.take;
        if (take === undefined) {
            return { ...args, take: limits.maxTake };
        }
        if (typeof take === 'number' && Math.abs(take) > limits.maxTake) {
            return { ...args, take: Math.sign(take) * limits.maxTake };
        }
    }
    return args;
}
