import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';

/**
 * Bounds on how much one call (and one `$transaction/sequential`) asks the ORM to compile, beside the records it
 * writes (write-size.ts). Prisma's query compiler builds a query plan holding every value and condition of the
 * filters, and keeps the plans of the last 100 queries (its debug log) whether or not debugging is on: a 1 MiB
 * `notIn` list of 116,000 values made it hold 160 MB at the peak and keep 143 MB after the answer, a request.
 */

/** 10,000 items in the filter lists of one call (and of one `$transaction/sequential`) unless `maxFilterValues` says otherwise. */
export const DEFAULT_MAX_FILTER_VALUES = 10_000;

/** A 400 when the filter lists of `what` hold more than `max` items together. */
export function checkFilterValues(count: number, max: number, what = 'one call'): void {
    if (count > max) {
        throw new BadRequestError(
            `too many values in the filters of ${what}: ${count} (at most ${max} items in all the in, notIn, hasSome, hasEvery, AND, OR and NOT lists; see the "maxFilterValues" option)`,
        );
    }
}

/** 100 relations read by one call through `include`/`select` unless `maxIncludedRelations` says otherwise. */
export const DEFAULT_MAX_INCLUDED_RELATIONS = 100;

/**
 * The relations one call reads through `include` and `select` at any depth, each time it names one (a `_count`
 * selection's relations too). Each is a query of its own, which ZenStack guards with the target's read rule and
 * Prisma compiles and runs: 558 of them (a 13 KB body) made the server hold 37 MB, a 1 MiB body naming 44,574 of them
 * ran it out of heap. Counted before anything else walks the arguments; stops counting past `max`.
 */
export function countIncludedRelations(registry: ModelRegistry, model: ModelDef, args: Args, max: number): number {
    let count = 0;
    const visit = (m: ModelDef, shape: unknown): void => {
        if (!isObject(shape) || count > max) return;
        for (const [key, value] of Object.entries(shape)) {
            if (!value) continue;
            if (key === '_count') {
                if (isObject(value) && isObject(value.select)) count += Object.values(value.select).filter(Boolean).length;
                continue;
            }
            const rel = m.relations.get(key);
            const target = rel && registry.models.get(rel.targetKey);
            if (!target) continue;
            count++;
            if (isObject(value)) {
                visit(target, value.include);
                visit(target, value.select);
            }
        }
    };
    visit(model, args.include);
    visit(model, args.select);
    return count;
}

/** A 400 when one call reads more than `max` relations. */
export function checkIncludedRelations(count: number, max: number): void {
    if (count > max) {
        throw new BadRequestError(`too many relations read by one call: more than ${max} through include and select (see the "maxIncludedRelations" option)`);
    }
}
