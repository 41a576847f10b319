import { BadRequestError } from '../common/errors';

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
