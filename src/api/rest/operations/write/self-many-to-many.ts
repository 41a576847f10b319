import { getModelRegistry } from '../../../common/model-registry';
import { checkUnguardedLinks, hasUnguardedLinks } from '../../../rpc/self-many-to-many';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';

/**
 * The REST side of the guard on many-to-many relations from a model to itself, which ZenStack 2.x does not
 * check (see rpc/self-many-to-many.ts): the same checks on the ORM arguments a write ends up with.
 */

type Data = Record<string, unknown>;

/** Whether the arguments of a write link or unlink records through such a relation. */
export function linksUnguarded(req: RestRequest, model: RestModel, op: 'create' | 'update' | 'upsert', args: Data): boolean {
    return hasUnguardedLinks(getModelRegistry(req.schema.modelMeta), model.def, op, args);
}

/** Checks the records the write links or unlinks through such relations, in its transaction `tx`, before it runs. */
export function checkLinks(req: RestRequest, tx: unknown, model: RestModel, op: 'create' | 'update' | 'upsert', args: Data): Promise<void> {
    return checkUnguardedLinks(tx, getModelRegistry(req.schema.modelMeta), model.def, op, args);
}
