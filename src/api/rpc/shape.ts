import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { Args } from './input';

/**
 * The structure Prisma requires of `select` and `include` (objects whose entries are booleans or
 * objects), checked before the client runs: ZenStack's policy layer dereferences these entries
 * before Prisma validates them and crashes (a 500) on, e.g., `include: { author: null }`.
 */

function checkShape(value: unknown, path: string): void {
    if (!isObject(value)) {
        throw new BadRequestError(`"${path}" must be an object`);
    }
    for (const [key, entry] of Object.entries(value)) {
        const at = `${path}.${key}`;
        if (typeof entry === 'boolean') continue;
        if (!isObject(entry)) {
            throw new BadRequestError(`"${at}" must be true, false or an object`);
        }
        // nested reads of a relation, and `_count: { select: { … } }`
        for (const nested of ['select', 'include'] as const) {
            // `null` means none, as at the top level (Prisma accepts it)
            if (entry[nested] !== undefined && entry[nested] !== null) checkShape(entry[nested], `${at}.${nested}`);
        }
    }
}

/**
 * Throws a BadRequestError when `select`/`include` (at any depth) are not shaped as Prisma requires.
 * `count` also takes `select: true` (every field's count of non-null values, and `_all`).
 */
export function checkSelectShape(args: Args, op: string): void {
    if (op === 'count' && args.select === true) return;
    for (const key of ['select', 'include'] as const) {
        if (args[key] !== undefined && args[key] !== null) checkShape(args[key], key);
    }
}

/** `shape` without its `_count: false` entries, at any depth; the same object when it has none. */
function withoutFalseCounts(shape: Record<string, unknown>): Record<string, unknown> {
    let out: Record<string, unknown> | undefined;
    for (const [key, entry] of Object.entries(shape)) {
        if (key === '_count' && entry === false) {
            out ??= { ...shape };
            delete out[key];
            continue;
        }
        if (!isObject(entry)) continue;
        let next: Record<string, unknown> | undefined;
        for (const nested of ['select', 'include'] as const) {
            const inner = entry[nested];
            if (!isObject(inner)) continue;
            const cleaned = withoutFalseCounts(inner);
            if (cleaned !== inner) (next ??= { ...entry })[nested] = cleaned;
        }
        if (next) (out ??= { ...shape })[key] = next;
    }
    return out ?? shape;
}

/**
 * `_count: false` in `select`/`include` means "no counts" to Prisma, but ZenStack's policy layer crashes
 * on it (a 500): the arguments without it, copied only where something is dropped.
 */
export function dropFalseCounts(args: Args): Args {
    let out: Args | undefined;
    for (const key of ['select', 'include'] as const) {
        const shape = args[key];
        if (!isObject(shape)) continue;
        const cleaned = withoutFalseCounts(shape);
        if (cleaned !== shape) (out ??= { ...args })[key] = cleaned;
    }
    return out ?? args;
}
