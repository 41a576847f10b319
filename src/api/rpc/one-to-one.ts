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
 * partner's update rule; nested writes on the partner ahead of the link (a `delete`, say) are made first. A
 * non-owner `upsert` is such a link when its create runs: when the partner the user sees does not match its
 * `where` (or there is none the user sees; `hidden-to-one.ts`); Prisma then detached the partner unchecked.
 * A non-owner `disconnect` by a compound foreign key, which ZenStack cannot run, is made as an update of the
 * partner (`detachByPartner`).
 */

type Data = Record<string, unknown>;

interface UnlinkFirst {
    path: Step[];
    relation: RelationField;
    /** The relation's nested writes (in the caller's copy of the arguments): Prisma runs them in the order of their keys. */
    ops: Data;
}

export interface OneToOneSites {
    owner: ForeignKeySite[];
    unlink: UnlinkFirst[];
    /** Non-owner `disconnect`s by a compound foreign key, ahead of any link of the same relation. */
    detach: UnlinkFirst[];
}

const LINKS = ['connect', 'create', 'connectOrCreate', 'upsert'];

/** The one-to-one links of an operation's arguments that need care (see above). */
export function findOneToOneSites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): OneToOneSites {
    const sites: OneToOneSites = { owner: [], unlink: [], detach: [] };
    walkWrites(registry, model, op, args, ({ model: holder, data, relation, ops, place }) => {
        // (on a @@delegate model ZenStack turns written keys back into connects: the guard cannot hold there)
        const ownerLink = relation.oneToOne && relation.isOwner && !holder.delegated && (ops.connect !== undefined || ops.connectOrCreate !== undefined);
        if (ownerLink && !sites.owner.some((o) => o.data === data)) sites.owner.push({ model: holder, data, conditional: place.conditional });
        if (place.path && relation.oneToOne && !relation.isOwner && relation.otherSideOptional && LINKS.some((link) => ops[link] !== undefined)) {
            sites.unlink.push({ path: place.path, relation, ops });
        }
        if (place.path && relation.oneToOne && !relation.isOwner && relation.otherSideOptional && disconnectsFirst(ops) && compoundBackKey(registry, relation)) {
            sites.detach.push({ path: place.path, relation, ops });
        }
    });
    return sites;
}

export function hasOneToOneSites(sites: OneToOneSites): boolean {
    return sites.owner.length > 0 || sites.unlink.length > 0 || sites.detach.length > 0;
}

/** A `disconnect` that runs before any link of the relation (Prisma's order is the keys' order). */
function disconnectsFirst(ops: Data): boolean {
    const keys = Object.keys(ops).filter((k) => ops[k] !== undefined);
    const at = keys.indexOf('disconnect');
    return at >= 0 && ops.disconnect !== false && !keys.slice(0, at).some((k) => LINKS.includes(k));
}

/** Whether the other side's foreign key has more than one field. */
function compoundBackKey(registry: ModelRegistry, relation: RelationField): boolean {
    const back = relation.backLink ? registry.models.get(relation.targetKey)?.relations.get(relation.backLink) : undefined;
    return Object.keys(back?.foreignKeyMapping ?? {}).length > 1;
}

/**
 * A non-owner `disconnect` by a compound foreign key, which ZenStack cannot run (it looks the partner up by a filter
 * the ORM refuses, whether or not one is linked): taken out of the write and made as an update of the partner the user
 * can see (when the disconnect's filter, if any, matches it), under the partner's update rule. A partner the user cannot
 * see stays linked, as for the other nested writes on it (`hidden-to-one.ts`).
 */
async function detachByPartner(client: unknown, registry: ModelRegistry, model: ModelDef, where: unknown, site: UnlinkFirst): Promise<void> {
    const { relation, ops } = site;
    const target = registry.models.get(relation.targetKey);
    const filter = ops.disconnect;
    delete ops.disconnect;
    if (!target || !relation.backLink || !isPlainObject(where)) return;
    const record = await delegateOf(client, model).findUnique({ where, select: selectAlong(registry, site.path, relation, target) });
    const partner = follow(record, site.path)?.[relation.name];
    if (!isObject(partner)) return;
    const partnerWhere = uniqueWhere(target, partner);
    if (isObject(filter) && !isObject(await delegateOf(client, target).findFirst({ where: { AND: [asFilter(target, partnerWhere), filter] }, select: idSelect(target) }))) return;
    try {
        await delegateOf(client, target).update({ where: partnerWhere, data: { [relation.backLink]: { disconnect: true } }, select: idSelect(target) });
    } catch (err) {
        // detached, but the user may no longer read it
        if (classifyError(err).kind !== 'not-readable') throw err;
    }
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

/** Nested writes of a to-one relation that act on the partner linked when they run and link no other. */
const ON_PARTNER = ['update', 'delete', 'disconnect'];

/**
 * Whether the nested write `key: value` leaves `partner` linked: a `connect` or `connectOrCreate` naming that record,
 * or an `upsert` that updates it (one whose `where` the partner matches, or without a `where`).
 */
async function keepsPartner(client: unknown, target: ModelDef, partner: Data, key: string, value: unknown): Promise<boolean> {
    if (!isObject(value)) return false;
    const named = key === 'connect' ? value : key === 'connectOrCreate' || key === 'upsert' ? value.where : undefined;
    if (key === 'upsert' && !isObject(named)) return true;
    if (!isObject(named)) return false;
    const match = await delegateOf(client, target).findFirst({ where: { AND: [asFilter(target, uniqueWhere(target, partner)), asFilter(target, named)] }, select: idSelect(target) });
    return isObject(match);
}

/**
 * Detaches the current partner of the record at the end of `site.path` before the write links another,
 * checked against the partner's update rule. Prisma runs a relation's nested writes in the order of their keys,
 * so those before the first that links another record (an `update`, `delete` or `disconnect`, a link naming the
 * partner itself, an upsert that updates it) act on the current partner: they are made first, on their own, and
 * nothing is detached when no other record is linked after them. A partner the user can see is detached by an
 * update of the partner itself (its foreign key set to null), which works for every key shape and path. One the
 * user cannot see (or none) is left to a `disconnect: true` from this side, which ZenStack checks the
 * same way; where ZenStack cannot express that disconnect (compound keys, under a to-one update) it is
 * skipped: there is no partner the user can see to protect. A link followed by writes on the partner is made on its
 * own after the detach (when it writes no relation of the linked record), so that ZenStack checks those writes
 * against the record they change.
 */
async function unlinkFirst(client: unknown, registry: ModelRegistry, model: ModelDef, where: unknown, site: UnlinkFirst): Promise<void> {
    const { relation, ops } = site;
    const target = registry.models.get(relation.targetKey);
    if (!target || !relation.backLink) return;
    const readPartner = async () => {
        const record = isPlainObject(where) ? await delegateOf(client, model).findUnique({ where, select: selectAlong(registry, site.path, relation, target) }) : undefined;
        return follow(record, site.path)?.[relation.name];
    };
    let partner = await readPartner();
    const before: string[] = [];
    let link: string | undefined;
    for (const [key, value] of Object.entries(ops)) {
        if (value === undefined || value === false || !(LINKS.includes(key) || ON_PARTNER.includes(key))) continue;
        if (LINKS.includes(key) && !(isObject(partner) && (await keepsPartner(client, target, partner, key, value)))) {
            link = key;
            break;
        }
        before.push(key);
    }
    if (!link) return;
    if (before.length > 0) {
        await writeFirst(client, model, where, site, before);
        partner = await readPartner();
    }
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
    const keys = Object.keys(ops);
    const later = keys.slice(keys.indexOf(link) + 1);
    if (isObject(partner) && linksOnly(target, link, ops[link]) && later.some((key) => ON_PARTNER.includes(key) || key === 'upsert')) await writeFirst(client, model, where, site, [link]);
}

/** Whether the link `key: value` writes nothing beyond the linked record's own fields (made on its own, no other guard misses it). */
function linksOnly(target: ModelDef, key: string, value: unknown): boolean {
    const created = key === 'create' ? value : key === 'connectOrCreate' && isObject(value) ? value.create : key === 'connect' ? {} : undefined;
    return isObject(created) && Object.keys(created).every((field) => !target.relations.has(field));
}

/**
 * Makes the nested writes `keys` of `site` (in their order) as an update of their own, ahead of the write, and takes
 * them out of it: Prisma's order, each under its own rule. Where the record is not there (an upsert that creates
 * it) they do not run, and the write decides.
 */
async function writeFirst(client: unknown, model: ModelDef, where: unknown, site: UnlinkFirst, keys: string[]): Promise<void> {
    const first = Object.fromEntries(keys.map((key) => [key, site.ops[key]]));
    try {
        await delegateOf(client, model).update({ where, data: updateAlong(site.path, { [site.relation.name]: first }), select: idSelect(model) });
    } catch (err) {
        // the writes happened, only the result is not readable; or the record is not there (the upsert creates it)
        const { kind } = classifyError(err);
        const recordMissing = kind === 'not-found' && site.path.length === 0 && !isObject(await delegateOf(client, model).findUnique({ where, select: idSelect(model) }));
        if (kind !== 'not-readable' && !recordMissing) throw err;
    }
    for (const key of keys) delete site.ops[key];
}

/**
 * Applies the sites to `args` (a copy the caller owns) through `client`, the transaction the write then
 * runs in: owner-side links become foreign key values, non-owner links are preceded by a checked unlink (and
 * non-owner disconnects by a compound key are made as updates of the partner).
 */
export async function guardOneToOne(client: unknown, registry: ModelRegistry, model: ModelDef, args: Args, sites: OneToOneSites): Promise<void> {
    for (const site of sites.detach) await detachByPartner(client, registry, model, args.where, site);
    for (const site of sites.unlink) await unlinkFirst(client, registry, model, args.where, site);
    // innermost first: a nested create made on its own must already carry its own keys
    for (const site of [...sites.owner].reverse()) await writeForeignKeys(client, registry, site);
}
