import { getModelRegistry, type ModelDef, type ModelRegistry } from '../../../common/model-registry';
import { checkUnguardedLinks, hasUnguardedLinks } from '../../../rpc/self-many-to-many';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';

/**
 * The REST side of the guard on many-to-many relations from a model to itself, which ZenStack 2.x does not
 * check (see rpc/self-many-to-many.ts): the same checks on the ORM arguments a write ends up with.
 */

type Data = Record<string, unknown>;

function modelDef(req: RestRequest, model: RestModel): { registry: ModelRegistry; def: ModelDef } {
    const registry = getModelRegistry(req.schema.modelMeta);
    const def = registry.models.get(model.key);
    if (!def) throw new Error(`no model metadata for ${model.key}`);
    return { registry, def };
}

/** Whether the arguments of a write link or unlink records through such a relation. */
export function linksUnguarded(req: RestRequest, model: RestModel, op: 'create' | 'update' | 'upsert', args: Data): boolean {
    const { registry, def } = modelDef(req, model);
    return hasUnguardedLinks(registry, def, op, args);
}

/** Checks the records the write links or unlinks through such relations, in its transaction `tx`, before it runs. */
export function checkLinks(req: RestRequest, tx: unknown, model: RestModel, op: 'create' | 'update' | 'upsert', args: Data): Promise<void> {
    const { registry, def } = modelDef(req, model);
    return checkUnguardedLinks(tx, registry, def, op, args);
}
