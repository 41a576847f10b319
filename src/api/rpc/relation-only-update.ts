import { classifyError, RecordNotFoundError } from '../common/errors';
import { isPlainObject } from '../common/guards';
import { idSelect, type ModelDef } from '../common/model-registry';
import type { Args } from './input';
import { keyValues } from './self-many-to-many';
import { delegateOf } from './write-walk';

/**
 * ZenStack checks an `update` whose data holds only relation writes (`notes: { create }`, `{ connect }`, …) against
 * the rules of the related records, not against the update rule of the record it updates, and finds that record
 * without its read rule. So as Bob, `item/update` of Alice's hidden draft with `data: { notes: { create } }` wrote
 * the note and answered 403 `RESULT_NOT_READABLE`, where an id that does not exist answered 404: whether a guessed
 * id exists, told by writing into the record.
 *
 * Such an update of a record the user cannot read is checked first (in the write's transaction when it has one, see
 * `runCall`) under the record's update rule: by an update that writes the key the `where` names back unchanged (ZenStack checks it). Denied, or
 * missing, it is a 404 and nothing is written, as for a record that does not exist; allowed (a user who may update
 * the record but not read it), the update runs and answers as before.
 */

/** Whether `update` data writes relations only (a relation with at least one operation, and no field). */
export function isRelationOnlyUpdate(model: ModelDef, op: string, args: Args): boolean {
    if (op !== 'update' || !isPlainObject(args.where) || !isPlainObject(args.data)) return false;
    const entries = Object.entries(args.data);
    return (
        entries.length > 0 &&
        entries.every(([key]) => model.relations.has(key)) &&
        entries.some(([, ops]) => isPlainObject(ops) && Object.keys(ops).length > 0)
    );
}

/** The check above, on `tx` (the write's transaction, or the client), before a relation-only update runs. */
export async function checkRelationOnlyTarget(tx: unknown, model: ModelDef, op: string, args: Args): Promise<void> {
    if (!isRelationOnlyUpdate(model, op, args)) return;
    const where = args.where as Record<string, unknown>;
    const delegate = delegateOf(tx, model);
    if (await delegate.findUnique({ where, select: idSelect(model) })) return;
    const data = keyValues(model, where);
    if (!data) throw new RecordNotFoundError(`entity not found for model ${model.key}`);
    try {
        await delegate.update({ where, data, select: idSelect(model) });
    } catch (err) {
        const kind = classifyError(err).kind;
        if (kind === 'not-readable') return;
        throw kind === 'policy' || kind === 'not-found' ? new RecordNotFoundError(`entity not found for model ${model.key}`) : err;
    }
}
