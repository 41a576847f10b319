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

/** Throws a BadRequestError when `select`/`include` (at any depth) are not shaped as Prisma requires. */
export function checkSelectShape(args: Args): void {
    for (const key of ['select', 'include'] as const) {
        if (args[key] !== undefined && args[key] !== null) checkShape(args[key], key);
    }
}
