import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry, RelationField } from '../common/model-registry';
import type { Args } from './input';
import { many, walkWrites } from './write-walk';

/**
 * ZenStack 2.x checks the record a `connectOrCreate` creates, but not what the `create` writes beyond it when
 * the `connectOrCreate` sits under a create (or an upsert's create branch): nested creates (a profile for the
 * new user) and links that change other records (`reports: { connect }` rewrites those users' `managerId`)
 * went through whatever their rules said, with 2.x too. The handler refuses such writes in every
 * `connectOrCreate` (400; ZenStack checks some of them under an update, which is not worth telling apart): its
 * `create` may link existing records only through relations whose key the new record holds (a to-one `connect`
 * on its own side) or many-to-many ones (which are checked). Write the rest separately, once the record exists.
 */

function linkOnly(relation: RelationField, ops: Record<string, unknown>): boolean {
    return Object.keys(ops).every((k) => k === 'connect') && (relation.isArray ? relation.manyToMany : relation.isOwner);
}

function checkCreate(model: ModelDef, data: unknown, via: string): void {
    if (!isObject(data)) return;
    for (const [key, ops] of Object.entries(data)) {
        const relation = model.relations.get(key);
        if (!relation || !isObject(ops) || linkOnly(relation, ops)) continue;
        throw new BadRequestError(
            `invalid arguments: the "create" of a connectOrCreate on relation "${via}" may only link existing records ` +
                `through relations whose key the new record holds, or many-to-many ones; "${key}" (${Object.keys(ops).join(', ')}) ` +
                `is not checked there by the access policy: write it separately`,
        );
    }
}

/** Refuses the nested writes in the `create` of any `connectOrCreate` of an operation's arguments that the ORM leaves unchecked. */
export function refuseUncheckedConnectOrCreate(registry: ModelRegistry, model: ModelDef, op: string, args: Args): void {
    walkWrites(registry, model, op, args, ({ relation, target, ops }) => {
        for (const item of many(ops.connectOrCreate)) {
            if (isObject(item)) checkCreate(target, item.create, relation.name);
        }
    });
}
