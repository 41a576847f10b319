import { BadRequestError } from '../common/errors';
import { isObject, nestingDepth } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';

/** Optional limits on what one RPC call may ask of the database (off unless configured). */
export interface ArgLimits {
    /** Largest `take` of a findMany and of every to-many relation a call reads; a larger (or missing) one is clamped to it. */
    maxTake?: number;
    /** Deepest object nesting of `where`, `include`, `select`, `orderBy` and `having`; deeper is a 400. */
    maxDepth?: number;
    /**
     * Most records one call (or one `$transaction/sequential`) may list for writing: `createMany` rows and the records of
     * nested writes at any depth (`write-size.ts`); more is a 400. On by default (1,000); `Infinity` turns it off.
     */
    maxWriteRecords?: number;
    /**
     * Most items one call (or one `$transaction/sequential`) may hold in the lists of its filters at any depth: the
     * values of `in`, `notIn`, `hasSome` and `hasEvery`, and the conditions of `AND`, `OR` and `NOT` (arg-size.ts);
     * more is a 400. On by default (10,000); `Infinity` turns it off.
     */
    maxFilterValues?: number;
    /**
     * Most relations one call may read through `include` and `select`, counted each time one is named at any depth
     * (arg-size.ts); more is a 400. On by default (100); `Infinity` turns it off.
     */
    maxIncludedRelations?: number;
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
    for (const name of ['maxWriteRecords', 'maxFilterValues', 'maxIncludedRelations'] as const) {
        const value = limits[name];
        if (value !== undefined && value !== Infinity && (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)) {
            throw new Error(`RPCApiHandler: "${name}" must be a positive integer or Infinity, got ${String(value)}`);
        }
    }
}

/** A `take` within `max`: missing or larger ones become `max` (keeping the sign). */
function clampTake(take: unknown, max: number): unknown {
    if (take === undefined) return max;
    return typeof take === 'number' && Math.abs(take) > max ? Math.sign(take) * max : take;
}

/** `include`/`select` with every to-many relation read (at any depth) limited to `max` rows. */
function clampNested(registry: ModelRegistry, model: ModelDef, shape: unknown, max: number): unknown {
    if (!isObject(shape)) return shape;
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(shape)) {
        const rel = model.relations.get(key);
        const target = rel && registry.models.get(rel.targetKey);
        if (!rel || !target || !value) continue;
        let next = value;
        if (isObject(value)) {
            next = { ...value };
            for (const k of ['include', 'select'] as const) {
                if (value[k] !== undefined) (next as Record<string, unknown>)[k] = clampNested(registry, target, value[k], max);
            }
        }
        if (rel.isArray) {
            next = isObject(next) ? { ...next, take: clampTake(next.take, max) } : { take: max };
        }
        (out ??= { ...shape })[key] = next;
    }
    return out ?? shape;
}

/**
 * Applies the limits to one call's arguments: clamps the `take` of findMany and of every to-many
 * relation it reads, rejects too-deep arguments.
 */
export function applyLimits(registry: ModelRegistry, model: ModelDef, opName: string, args: Args, limits: ArgLimits | undefined): Args {
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
    const max = limits.maxTake;
    if (max === undefined) {
        return args;
    }
    const out: Args = { ...args };
    if (opName === 'findMany') out.take = clampTake(args.take, max);
    for (const k of ['include', 'select'] as const) {
        if (args[k] !== undefined) out[k] = clampNested(registry, model, args[k], max);
    }
    return out;
}
