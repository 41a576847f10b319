import { isPlainObject } from '../common/guards';
import type { ModelDef } from '../common/model-registry';
import type { Args } from './input';

/**
 * `omit` of a write that returns records. ZenStack 2.22 reads a write's result back without the `omit`
 * (so the omitted fields came back), and its `updateManyAndReturn` adds an id `select` beside it, which
 * Prisma refuses ("Please either use `omit` or `select`, but not both"). A top-level `omit` that only leaves
 * scalar fields of the model out (`{ title: true }`) is therefore taken off the call and applied to its result.
 * Any other (`false` values, unknown fields, beside a `select`) goes to the client as it is, which answers it.
 */

const RETURNING_WRITES: ReadonlySet<string> = new Set(['create', 'update', 'upsert', 'delete', 'createManyAndReturn', 'updateManyAndReturn']);

/** The arguments to send and the fields to leave out of the result (none: the arguments unchanged). */
export function liftWriteOmit(model: ModelDef, opName: string, args: Args): { args: Args; omitted: string[] } {
    const omit = args.omit;
    if (!RETURNING_WRITES.has(opName) || !isPlainObject(omit) || args.select !== undefined) return { args, omitted: [] };
    const fields = Object.keys(omit);
    if (fields.length === 0 || !fields.every((f) => omit[f] === true && model.scalars.has(f))) return { args, omitted: [] };
    const { omit: _omit, ...rest } = args;
    return { args: rest, omitted: fields };
}

/** Removes the omitted fields from the record, or each record, a write returned. */
export function dropOmitted(result: unknown, omitted: readonly string[]): void {
    if (omitted.length === 0) return;
    for (const record of Array.isArray(result) ? result : [result]) {
        if (!isPlainObject(record)) continue;
        for (const field of omitted) delete record[field];
    }
}
