import { BadRequestError } from '../common/errors';
import type { ModelDef } from '../common/model-registry';
import type { OperationSpec } from './operations';

/**
 * The operations of a model without an `@id` or `@unique` field (a database view without one): reads of many
 * records. The data layer has no `findUnique` for it, nor any write (a view is read-only), and ZenStack's policy
 * layer, which needs ids to check a write, fails on one with a plain error (a 500 in 2.x).
 */
const WITHOUT_IDS: ReadonlySet<string> = new Set(['findMany', 'findFirst', 'count', 'aggregate', 'groupBy', 'check']);

/** A 400 for any other operation on a model without ids, before anything runs. */
export function refuseWithoutIds(model: ModelDef, op: OperationSpec): void {
    if (model.idFields.length > 0 || WITHOUT_IDS.has(op.name)) return;
    throw new BadRequestError(
        `operation ${op.name} is not available on ${model.key}: it has no @id or @unique field (a database view without one), so it can only be read with ${[...WITHOUT_IDS].filter((n) => n !== 'check').join(', ')}`,
    );
}
