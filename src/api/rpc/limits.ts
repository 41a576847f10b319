import { BadRequestError } from '../common/errors';
import { nestingDepth } from '../common/guards';
import type { Args } from './input';

/** Optional limits on what one RPC call may ask of the database (off unless configured). */
export interface ArgLimits {
    /** Largest `take` of a findMany; a larger (or missing) one is clamped to it. */
    maxTake?: number;
    /** Deepest object nesting of `where`, `include`, `select`, `orderBy` and `having`; deeper is a 400. */
    maxDepth?: number;
}

const DEPTH_CHECKED = ['where', 'include', 'select', 'orderBy', 'having'];

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
