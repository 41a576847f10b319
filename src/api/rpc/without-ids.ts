import { BadRequestError } from '../common/errors';
import { requiredUniqueFields, type ModelDef } from '../common/model-registry';
import type { OperationSpec } from './operations';

/**
 * The operations of a model without an `@id` or `@unique` field of required fields (a database view without one): reads
 * of many records. The data layer has no `findUnique` for it, nor any write (a view is read-only), and ZenStack's policy
 * layer, which needs ids to check a write, fails on one with a plain error (a 500 in 2.x).
 */
const WITHOUT_IDS: ReadonlySet<string> = new Set(['findMany', 'findFirst', 'count', 'aggregate', 'groupBy', 'check']);

/** A 400 for any other operation on a model without ids, before anything runs. */
export function refuseWithoutIds(model: ModelDef, op: OperationSpec): void {
    if (WITHOUT_IDS.has(op.name) || requiredUniqueFields(model).length > 0) return;
    throw new BadRequestError(
        `operation ${op.name} is not available on ${model.key}: it has no @id or @unique field that every record has (a database view without one), so it can only be read with ${[...WITHOUT_IDS].filter((n) => n !== 'check').join(', ')}`,
    );
}
