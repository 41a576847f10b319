import { isObject } from '../common/guards';
import { idSelect, type ModelDef, type ModelRegistry, type RelationField } from '../common/model-registry';
import { classifyError } from '../common/errors';
import { isPlainObject } from '../common/guards';
import type { Args } from './input';
import { asFilter, follow, selectAlong, uniqueWhere } from './relation-set';
import { writeForeignKeys, type ForeignKeySite } from './one-to-one-keys';
import { delegateOf, walkWrites, type Step } from './write-walk';

/**
 * Linking a record on one side of a one-to-one relation makes Prisma detach the record that was linked
 * before, an update of that record which ZenStack 2.x does not check against its update rule:
 * - owner side (`profile.update({ data: { user: { connect: { id: 2 } } } })`): the profile that held
 *   user 2 loses it, whoever may update it;
 * - non-owner side (`user.update({ data: { profile: { connect | create | connectOrCreate } } })`): the
 *   user's current profile loses its user (when its foreign key may be null; else the change fails).
 *
 * So owner-side links are written as their foreign key values, looked up through the user's client (a
 * record the user cannot read is not found, as a missing one): the unique constraint then refuses a
 * target that is taken (a 400, P2002) instead of detaching its partner. Prisma takes keys or relation
 * forms, not both, so the other owner-side relations of the same data are written as keys too (a nested
 * `create` made first, on its own; one-to-one-keys.ts). Non-owner links in update paths are preceded, in the same
 * transaction, by a `disconnect: true` along the same path, which ZenStack checks against the current
 * partner's update rule; a partner the same write deletes is deleted first instead, under its delete rule. A
 * non-owner `upsert` is such a link when its create runs: when the partner the user sees does not match its
 * `where` (or there is none the user sees; `hidden-to-one.ts`); Prisma then detached the partner unchecked.
 */

type Data = Record<string, unknown>;

interface UnlinkFirst {
    path: Step[];
    relation: RelationField;
    /** The nested `upsert` when it is the only link: the partner is unlinked only if its create runs. */
    upsert?: Data;
    /**
     * The relation's nested writes when they also `delete` the partner: Prisma deletes it before it links another, so
     * it is deleted first, on its own (ZenStack 2.x made a `create` first and then deleted the new record).
     */
    deletes?: Data;
}

export interface OneToOneSites {
    owner: ForeignKeySite[];
    unlink: UnlinkFirst[];
}

const LINKS = ['connect', 'create', 'connectOrCreate', 'upsert'];

/** The one-to-one links of an operation's arguments that need care (see above). */
export function findOneToOneSites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): OneToOneSites {
    const sites: OneToOneSites = { owner: [], unlink: [] };
    walkWrites(registry, model, op, args, ({ model: holder, data, relation, ops, place }) => {
        // (on a @@delegate model ZenStack turns written keys back into connects: the guard cannot hold there)
        const ownerLink = relation.oneToOne && relation.isOwner && !holder.delegated && (ops.connect !== undefined || ops.connectOrCreate !== undefined);
        if (ownerLink && !sites.owner.some((o) => o.data === data)) sites.owner.push({ model: holder, data, conditional: place.conditional });
        if (place.path && relation.oneToOne && !relation.isOwner && relation.otherSideOptional && LINKS.some((link) => ops[link] !== undefined)) {
            const upsertOnly = isObject(ops.upsert) && LINKS.every((link) => link === 'upsert' || ops[link] === undefined);
            const deletes = ops.delete !== undefined && ops.delete !== false ? ops : undefined;
            sites.unlink.push({ path: place.path, relation, upsert: upsertOnly ? (ops.upsert as Data) : undefined, deletes });
        }
    });
    return sites;
}

export function hasOneToOneSites(sites: OneToOneSites): boolean {
    return sites.owner.length > 0 || sites.unlink.length > 0;
}

/** `{ a: { update: { where?, data: { b: … } } } }`: an update of the record at the end of `path` with `leaf`. */
function updateAlong(path: Step[], leaf: Data): Data {
    let data = leaf;
    for (let i = path.length - 1; i >= 0; i--) {
        const step = path[i];
        data = { [step.relation.name]: { update: step.where ? { where: step.where, data } : { data } } };
    }
    return data;
}

/** Whether a nested upsert runs its create, given the partner the user sees: when that partner does not match its `where`. */
async function upsertCreates(client: unknown, target: ModelDef, partner: Data, upsert: Data): Promise<boolean> {
    if (!isObject(upsert.where)) return false;
    const match = await delegateOf(client, target).findFirst({ where: { AND: [asFilter(target, uniqueWhere(target, partner)), upsert.where] }, select: idSelect(target) });
    return !isObject(match);
}

/**
 * Detaches the current partner of the record at the end of `site.path` before the write links another,
 * checked against the partner's update rule. A partner the user can see is detached by an update of
 * the partner itself (its foreign key set to null), which works for every key shape and path. One the
 * user cannot see (or none) is left to a `disconnect: true` from this side, which ZenStack checks the
 * same way; where ZenStack cannot express that disconnect (compound keys, under a to-one update) it is
 * skipped: there is no partner the user can see to protect.
 */
async function unlinkFirst(client: unknown, registry: ModelRegistry, model: ModelDef, where: unknown, site: UnlinkFirst): Promise<void> {
    const { relation } = site;
    const target = registry.models.get(relation.targetKey);
    if (!target || !relation.backLink) return;
    if (site.deletes) return deleteFirst(client, model, where, site, site.deletes);
    const record = isPlainObject(where) ? await delegateOf(client, model).findUnique({ where, select: selectAlong(registry, site.path, relation, target) }) : undefined;
    const partner = follow(record, site.path)?.[relation.name];
    if (site.upsert && isObject(partner) && !(await upsertCreates(client, target, partner, site.upsert))) return;
    try {
        if (isObject(partner)) {
            await delegateOf(client, target).update({ where: uniqueWhere(target, partner), data: { [relation.backLink]: { disconnect: true } }, select: idSelect(target) });
        } else {
            await delegateOf(client, model).update({ where, data: updateAlong(site.path, { [relation.name]: { disconnect: true } }), select: idSelect(model) });
        }
    } catch (err) {
        // the change happened, only its result is not readable; the record (an upsert's) is not there yet;
        // or the ORM refused the disconnect ZenStack built (see above)
        const { kind } = classifyError(err);
        if (kind === 'not-readable' || kind === 'not-found' || (!isObject(partner) && kind === 'validation')) return;
        throw err;
    }
}

/**
 * Deletes the partner a write deletes and replaces (`{ delete: true, create | connect | … }`) before the write, which
 * then links the new one with none left to detach: Prisma's order, under the partner's delete rule. Where the record
 * is not there (an upsert that creates it) there is nothing to delete, and the write decides.
 */
async function deleteFirst(client: unknown, model: ModelDef, where: unknown, site: UnlinkFirst, ops: Data): Promise<void> {
    try {
        await delegateOf(client, model).update({ where, data: updateAlong(site.path, { [site.relation.name]: { delete: ops.delete } }), select: idSelect(model) });
    } catch (err) {
        // the partner was deleted, only the result is not readable; or the record is not there (the upsert creates it)
        const { kind } = classifyError(err);
        const recordMissing = kind === 'not-found' && site.path.length === 0 && !isObject(await delegateOf(client, model).findUnique({ where, select: idSelect(model) }));
        if (kind !== 'not-readable' && !recordMissing) throw err;
    }
    delete ops.delete;
}

/**
 * Applies the sites to `args` (a copy the caller owns) through `client`, the transaction the write then
 * runs in: owner-side links become foreign key values, non-owner links are preceded by a checked unlink.
 */
export async function guardOneToOne(client: unknown, registry: ModelRegistry, model: ModelDef, args: Args, sites: OneToOneSites): Promise<void> {
    for (const site of sites.unlink) await unlinkFirst(client, registry, model, args.where, site);
    // innermost first: a nested create made on its own must already carry its own keys
    for (const site of [...sites.owner].reverse()) await writeForeignKeys(client, registry, site);
}
