import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { many, walkWrites } from './write-walk';

/**
 * How many records one call lists for writing, and the bound on it. ZenStack checks the access policy record by
 * record (a `createMany` whose rule reads a relation becomes one create per row), and on SQLite the whole call holds
 * the one connection: a 1 MiB `createMany` of 35,000 rows kept the server from answering anyone for minutes.
 */

/** 1,000 records per call (and per `$transaction/sequential`) unless the `maxWriteRecords` option says otherwise. */
export const DEFAULT_MAX_WRITE_RECORDS = 1000;

/** The nested writes that take a list of records (a single one, or `true` for a to-one, counts as one). */
const LIST_WRITES = ['create', 'connect', 'connectOrCreate', 'set', 'disconnect', 'update', 'updateMany', 'upsert', 'delete', 'deleteMany'];

/** The rows of a `createMany`/`createManyAndReturn`, plus every record listed by nested writes at any depth. */
export function countWriteRecords(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): number {
    let count = opName === 'createMany' || opName === 'createManyAndReturn' ? many(args.data).length : 0;
    walkWrites(registry, model, opName, args, ({ ops }) => {
        for (const key of LIST_WRITES) count += many(ops[key]).length;
        if (isObject(ops.createMany)) count += many(ops.createMany.data).length;
    });
    return count;
}

/** A 400 when `count` exceeds `max`; `what` says whose records they are. */
export function checkWriteRecords(count: number, max: number, what = 'one call'): void {
    if (count > max) {
        throw new BadRequestError(`too many records written by ${what}: ${count} (at most ${max}; see the "maxWriteRecords" option)`);
    }
}
