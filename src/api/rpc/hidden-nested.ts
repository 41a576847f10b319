import { hasOwn, isObject } from '../common/guards';
import { anyReadProtected, coveredConstraints, idSelect, type ModelDef, type ModelRegistry, type RelationField } from '../common/model-registry';
import type { Args } from './input';
import { findNamedRecords } from './named-records';
import { namesCreatedRecord } from './self-many-to-many';
import { delegateOf, many, matchingNothing, walkWrites } from './write-walk';

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

/** One nested unique filter to check: `item` names the record; `link` for a `connect` or a `connectOrCreate`'s `where`. */
interface Target {
    target: ModelDef;
    item: Data;
    link: boolean;
}

const BY_WHERE = ['update', 'upsert'];
const BY_ITSELF = ['delete', 'disconnect'];

/**
 * A `connect` from the side holding the key, by exactly the fields the key references (`author: { connect: { id } }`):
 * the same write as the key written as a field (`authorId`), which only the database checks (docs/rpc.md, known
 * limitations). Looking the record up would close nothing the plain field leaves open, at the cost of a read on
 * the most common link there is; a link by any other unique field (`{ email }`) is looked up.
 */
function byReferencedKey(relation: RelationField, item: Data): boolean {
    const mapping = relation.foreignKeyMapping;
    if (relation.isArray || !relation.isOwner || !mapping) return false;
    const referenced = Object.keys(mapping);
    return Object.keys(item).length === referenced.length && referenced.every((f) => hasOwn(item, f) && !isObject(item[f]));
}

/** Whether a unique filter names its record by a field with a field-level read rule (`{ email }`, `{ org_email: { org, email } }`). */
function namesByProtectedField(target: ModelDef, item: Data): boolean {
    return anyReadProtected(target, Object.keys(item)) || coveredConstraints(target, item).some((c) => anyReadProtected(target, c.fields));
}

function targets(registry: ModelRegistry, model: ModelDef, op: string, args: Args): Target[] {
    const found: Target[] = [];
    walkWrites(registry, model, op, args, (write) => {
        if (write.target.idFields.length === 0) return;
        const push = (item: unknown, link: boolean) => {
            // every record of a model everyone may read is visible: nothing to look up, unless the filter names it by
            // a value the user may not read, which must not find it (a right guess would answer otherwise than a wrong one)
            if (isObject(item) && (!write.target.readableByAll || namesByProtectedField(write.target, item))) found.push({ target: write.target, item, link });
        };
        for (const item of many(write.ops.connect)) {
            // the record being created, linked to itself, is not there yet to look up (self-many-to-many.ts)
            if (isObject(item) && (byReferencedKey(write.relation, item) || namesCreatedRecord(write, item))) continue;
            push(item, true);
        }
        for (const item of many(write.ops.connectOrCreate)) if (isObject(item)) push(item.where, true);
        // under a create there is no existing record to name; to-one nested writes name none (hidden-to-one.ts)
        if (!write.place.path || !write.relation.isArray) return;
        for (const action of BY_WHERE) for (const item of many(write.ops[action])) if (isObject(item)) push(item.where, false);
        for (const action of BY_ITSELF) for (const item of many(write.ops[action])) push(item, false);
    });
    return found;
}

/**
 * What the arguments name: `writes` when nested to-many writes name existing records (the call then runs in a
 * transaction), `links` when only `connect`s and `connectOrCreate`s do (checked without one: see `hideNestedTargets`).
 */
export function nestedTargets(registry: ModelRegistry, model: ModelDef, op: string, args: Args): 'writes' | 'links' | undefined {
    const found = targets(registry, model, op, args);
    if (found.length === 0) return undefined;
    return found.some((t) => !t.link) ? 'writes' : 'links';
}

/**
 * Gives each nested unique filter of `args` (a copy the caller owns) whose record the user cannot read a
 * condition that matches nothing, and pins each one the user can read to the record found (its id), so that
 * the write names the record that was checked. `client` is the user's client: the write's transaction, or for
 * links alone the client itself. The records are looked up together, one read per target model and unique
 * constraint (`named-records.ts`), by the unique key each filter names its record by; other conditions a
 * filter holds are left to the write, which checks them as before (`write-filters.ts` lets through only
 * conditions the access policy would not hide). A link checked outside a transaction still answers as some
 * serial order of the requests would: a record hidden or shown after the check is linked or refused as just
 * before that change, one deleted after it is missing to the write itself, and one whose unique key moved to
 * another record after it matches nothing (the pinned id), as if the key had moved first.
 */
export async function hideNestedTargets(client: unknown, registry: ModelRegistry, model: ModelDef, op: string, args: Args): Promise<void> {
    const found = targets(registry, model, op, args);
    if (found.length === 0) return;
    // one read per target model and unique constraint for all of them (named-records.ts)
    const visible = await findNamedRecords(client, found, lookUpAlone, false);
    found.forEach(({ target, item }, i) => {
        // undefined: a filter the client refuses: the write answers for it as it would
        if (visible[i] === undefined) return;
        const and = hasOwn(item, 'AND') ? many(item.AND) : [];
        item.AND = [...and, visible[i] ?? matchingNothing(target)];
    });
}

/** A nested unique filter looked up on its own, as the write would look it up (with the read rule). */
function lookUpAlone(client: unknown, target: ModelDef, item: Data): Promise<Data | null> {
    return delegateOf(client, target).findUnique({ where: item, select: idSelect(target) }) as Promise<Data | null>;
}
