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
 * Such an update of a record the user cannot read is checked first, in the write's transaction (see `runChecked`),
 * under the record's update rule: by an update that writes the key the `where` names back unchanged (ZenStack checks
 * it). Denied, or missing, it is a 404 and nothing is written, as for a record that does not exist; allowed (a user
 * who may update the record but not read it), the update runs and answers as before.
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

/** Whether `update` is relation-only and its record one the user cannot read (or missing): it is then checked by a write. */
export async function relationOnlyTargetHidden(client: unknown, model: ModelDef, op: string, args: Args): Promise<boolean> {
    if (!isRelationOnlyUpdate(model, op, args)) return false;
    return !(await delegateOf(client, model).findUnique({ where: args.where as Record<string, unknown>, select: idSelect(model) }));
}

/**
 * The check above of a record `relationOnlyTargetHidden` did not find. Run it on the update's transaction: its
 * write-back sets `@updatedAt`, which must go with an update that then fails.
 */
export async function checkHiddenRelationOnlyTarget(tx: unknown, model: ModelDef, args: Args): Promise<void> {
    const where = args.where as Record<string, unknown>;
    const data = keyValues(model, where);
    if (!data) throw new RecordNotFoundError(`entity not found for model ${model.key}`);
    try {
        await delegateOf(tx, model).update({ where, data, select: idSelect(model) });
    } catch (err) {
        const kind = classifyError(err).kind;
        if (kind === 'not-readable') return;
        throw kind === 'policy' || kind === 'not-found' ? new RecordNotFoundError(`entity not found for model ${model.key}`) : err;
    }
}

/** The check above, on `tx` (the write's transaction), before a relation-only update runs. */
export async function checkRelationOnlyTarget(tx: unknown, model: ModelDef, op: string, args: Args): Promise<void> {
    if (await relationOnlyTargetHidden(tx, model, op, args)) await checkHiddenRelationOnlyTarget(tx, model, args);
}
