import { RequiredRelationError } from '../common/errors';
import { isObject } from '../common/guards';
import { idSelect, type ModelDef, type ModelRegistry } from '../common/model-registry';
import { isNotReadable } from '../common/transactions';
import { isPlainObject } from '../common/guards';
import type { Args } from './input';
import { asFilter, follow, isCompoundKey, selectAlong, uniqueWhere } from './relation-set';
import { delegateOf, many, walkUpdates, type RelationWrite } from './write-walk';

/**
 * ZenStack 2.x cannot run a nested `disconnect` that names records by a compound key
 * (`{ seats: { disconnect: [{ row_num: { row, num } }] } }`): it turns the key into a filter the ORM
 * refuses ("needs at least one of `row_num`"), so such members could not be removed from a to-many
 * relation, nor left out of a `set` (which the handler sends as disconnect + connect).
 *
 * The handler detaches them itself, in the write's transaction and before the write: it reads which of
 * the named records are current members of the relation (through the user's client: members the user
 * cannot read stay attached) and unlinks each with an update of the member, which ZenStack checks under
 * the member's update rule as it checks a nested disconnect (403 when denied). Named records that are not
 * members are skipped, as the ORM skips them; a member whose link is required cannot be detached
 * (400, `P2014`, as the ORM answers for a simple key, once the write has passed its own rules). Only the one-to-many side is concerned: Prisma's
 * implicit many-to-many takes single-field ids only.
 */

type Data = Record<string, unknown>;

/** Whether `item` names its record by a compound unique key (`{ a_b: { a, b } }`). */
function byCompoundKey(target: ModelDef, item: unknown): boolean {
    return isPlainObject(item) && Object.entries(item).some(([key, value]) => isCompoundKey(target, key, value));
}

/** The relation on the member that holds its link, when the member holds it (one-to-many). */
function memberLink(write: RelationWrite) {
    const back = write.relation.backLink ? write.target.relations.get(write.relation.backLink) : undefined;
    return back && !back.isArray && back.isOwner ? back : undefined;
}

function sites(registry: ModelRegistry, model: ModelDef, op: string, args: Args, withSets: boolean): RelationWrite[] {
    const found: RelationWrite[] = [];
    walkUpdates(registry, model, op, args, (write) => {
        if (!write.place.path || !write.relation.isArray || !memberLink(write)) return;
        const named = many(write.ops.disconnect).some((item) => byCompoundKey(write.target, item));
        // a `set` becomes a disconnect of the members it leaves out, named by their (here compound) id
        const set = withSets && 'set' in write.ops && write.target.idFields.length > 1;
        if (named || set) found.push(write);
    });
    return found;
}

/** Whether the arguments disconnect records by a compound key, now or once their `set`s are rewritten. */
export function hasCompoundDisconnects(registry: ModelRegistry, model: ModelDef, op: string, args: Args): boolean {
    return sites(registry, model, op, args, true).length > 0;
}

/**
 * Detaches the members that `args` (a copy the caller owns, `set`s already rewritten) disconnect by a
 * compound key, and removes those disconnects from `args`. `client` is the transaction the write runs in.
 * A member whose link is required is not detached: the error that says so is returned, for the caller to
 * throw once the write itself has passed its rules (a user who may not make the write hears that first,
 * as with a simple key, where ZenStack checks the rules before the ORM refuses the disconnect).
 */
export async function detachCompoundDisconnects(client: unknown, registry: ModelRegistry, model: ModelDef, op: string, args: Args): Promise<RequiredRelationError | undefined> {
    let required: RequiredRelationError | undefined;
    for (const site of sites(registry, model, op, args, false)) {
        const { relation, target, ops, data } = site;
        const back = memberLink(site)!;
        const items = many(ops.disconnect);
        const named = items.filter((item) => byCompoundKey(target, item));
        const others = items.filter((item) => !named.includes(item));
        if (others.length > 0) ops.disconnect = others;
        else delete ops.disconnect;
        if (Object.keys(ops).length === 0) delete data[relation.name];

        const members = { OR: named.map((item) => asFilter(target, item as Data)) };
        const record = isObject(args.where)
            ? await delegateOf(client, model).findUnique({ where: args.where, select: selectAlong(registry, site.place.path!, relation, target, members) })
            : undefined;
        const parent = follow(record, site.place.path!);
        const current = parent ? many(parent[relation.name]).filter(isObject) : [];
        if (current.length > 0 && !back.isOptional) {
            required ??= new RequiredRelationError(`a ${target.name} of "${relation.name}" cannot be disconnected: its relation "${back.name}" is required`);
            continue;
        }
        for (const member of current) {
            try {
                await delegateOf(client, target).update({ where: uniqueWhere(target, member), data: { [back.name]: { disconnect: true } }, select: idSelect(target) });
            } catch (err) {
                // detached, but the user may no longer read it (it was readable as a member): done
                if (!isNotReadable(err)) throw err;
            }
        }
    }
    return required;
}
