import { hasOwn, isObject } from '../common/guards';
import { idSelect, type ModelDef, type ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { delegateOf, many, walkWrites } from './write-walk';

/**
 * ZenStack looks up the record of a nested to-many `update`, `delete`, `upsert` or `disconnect` without its
 * read rule: one the user cannot read answers 403 (denied), where one that does not exist answers 404 (an
 * upsert: its create runs), so `{ posts: { delete: { id: 2 } } }` on another user's record told whether that
 * user has a hidden post 2 (2.x answers the same). As for a top-level `update`/`delete` (`hidden-target.ts`), a
 * record the user cannot read is treated as a missing one: in the write's transaction, before the write, each
 * such record is looked up through the user's client, and one that is not found gets a filter that matches
 * nothing, so the write goes on exactly as for a missing record. The same holds for the record a `connect`
 * or a `connectOrCreate`'s `where` names, at any place (under a create too): a hidden record answered 403 where
 * a missing one answers 404 (a `connectOrCreate`: its create runs).
 */

type Data = Record<string, unknown>;

/** One nested unique filter to check: `holder[key]` (or `holder[key].where`) names the record. */
interface Target {
    target: ModelDef;
    item: Data;
}

const BY_WHERE = ['update', 'upsert'];
const BY_ITSELF = ['delete', 'disconnect'];

function targets(registry: ModelRegistry, model: ModelDef, op: string, args: Args): Target[] {
    const found: Target[] = [];
    walkWrites(registry, model, op, args, (write) => {
        for (const item of many(write.ops.connect)) if (isObject(item)) found.push({ target: write.target, item });
        for (const item of many(write.ops.connectOrCreate)) if (isObject(item) && isObject(item.where)) found.push({ target: write.target, item: item.where });
        // under a create there is no existing record to name; to-one nested writes name none (hidden-to-one.ts)
        if (!write.place.path || !write.relation.isArray) return;
        for (const action of BY_WHERE) {
            for (const item of many(write.ops[action])) if (isObject(item) && isObject(item.where)) found.push({ target: write.target, item: item.where });
        }
        for (const action of BY_ITSELF) {
            for (const item of many(write.ops[action])) if (isObject(item)) found.push({ target: write.target, item });
        }
    });
    return found;
}

/** Whether the arguments name records in nested to-many writes or links (the call then runs in a transaction). */
export function hasNestedTargets(registry: ModelRegistry, model: ModelDef, op: string, args: Args): boolean {
    return targets(registry, model, op, args).length > 0;
}

/**
 * Gives each nested unique filter of `args` (a copy the caller owns) whose record the user cannot read a
 * condition that matches nothing. `client` is the user's client (the write's transaction).
 */
export async function hideNestedTargets(client: unknown, registry: ModelRegistry, model: ModelDef, op: string, args: Args): Promise<void> {
    for (const { target, item } of targets(registry, model, op, args)) {
        if (target.idFields.length === 0) continue;
        let visible: unknown;
        try {
            visible = await delegateOf(client, target).findUnique({ where: item, select: idSelect(target) });
        } catch {
            continue; // a filter the client refuses: the write answers for it as it would
        }
        if (visible) continue;
        const nothing = { [target.idFields[0].name]: { in: [] } };
        const and = hasOwn(item, 'AND') ? many(item.AND) : [];
        item.AND = [...and, nothing];
    }
}
