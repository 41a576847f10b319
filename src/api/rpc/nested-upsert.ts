import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { many, walkUpdates } from './write-walk';

/**
 * ZenStack 2.22 checks a nested `upsert` whose record exists under that record's update rule, then turns it into
 * `{ where, data: update }` and goes on visiting the keys of THAT object (`where`, `data`) for nested writes, not
 * the fields of the update: the relation writes inside a nested upsert's `update` (`comments: { deleteMany: {} }`,
 * an `update`, a `connect` …) reached Prisma with no rule checked at all, with 2.x too. The handler refuses them
 * (400), at any depth of an update, to-one and to-many; the upsert's scalar fields and its `create` branch (which
 * ZenStack checks in full) go through as before. The top-level `upsert` is not concerned: ZenStack runs its
 * `update` branch as an `update`, whose nested writes it visits.
 */

/** `update`: the upsert's update branch on relation `via`, to records of `target` (to-one too: Prisma takes only the data there). */
function checkUpdate(via: string, target: ModelDef, update: unknown): void {
    if (!isObject(update)) return;
    for (const [key, value] of Object.entries(update)) {
        if (value === undefined || !target.relations.has(key)) continue;
        throw new BadRequestError(
            `invalid arguments: the "update" of a nested upsert on relation "${via}" writes relation "${key}", ` +
                `which the access policy does not check there; write it separately (with a nested "update" once the record exists)`,
        );
    }
}

/** Refuses relation writes in the `update` branch of any nested `upsert` of an operation's arguments. */
export function refuseUpsertRelationWrites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): void {
    walkUpdates(registry, model, op, args, ({ relation, target, ops }) => {
        for (const item of many(ops.upsert)) {
            if (isObject(item)) checkUpdate(relation.name, target, item.update);
        }
    });
}
