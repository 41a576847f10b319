import { BadRequestError, RecordNotFoundError } from '../common/errors';
import { isObject } from '../common/guards';
import { idSelect, type ModelDef, type ModelRegistry, type RelationField } from '../common/model-registry';
import { isNotReadable } from '../common/transactions';
import { isPlainObject, type Args } from './input';

/**
 * Linking a record on one side of a one-to-one relation makes Prisma detach the record that was linked
 * before, an update of that record which ZenStack 2.x does not check against its update rule:
 * - owner side (`profile.update({ data: { user: { connect: { id: 2 } } } })`): the profile that held
 *   user 2 loses it, whoever may update it;
 * - non-owner side (`user.update({ data: { profile: { connect | create | connectOrCreate } } })`): the
 *   user's current profile loses its user (when its foreign key may be null; else the change fails).
 *
 * So owner-side links are written as their foreign key values, looked up through the user's client (a
 * record the user cannot read is not found, as with `connect`): the unique constraint then refuses a
 * target that is taken (a 400, P2002) instead of detaching its partner. Non-owner links in update paths
 * are preceded, in the same transaction, by a `disconnect: true` along the same path, which ZenStack
 * checks against the current partner's update rule.
 */

type Data = Record<string, unknown>;

/** From the top-level record to a nested one: the relation, and the nested item's unique filter on a to-many step. */
interface Step {
    relation: RelationField;
    where?: Data;
}

interface OwnerLink {
    model: ModelDef;
    /** The write data holding the relation (rewritten in place: the caller passes a copy). */
    data: Data;
    relation: RelationField;
    target: ModelDef;
}

interface UnlinkFirst {
    path: Step[];
    relation: RelationField;
}

export interface OneToOneSites {
    owner: OwnerLink[];
    unlink: UnlinkFirst[];
}

const LINKS = ['connect', 'create', 'connectOrCreate'];

function many(value: unknown): unknown[] {
    return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** A to-one nested `update`/`upsert.update` is either the data itself or `{ where?, data }`. */
function toOneData(target: ModelDef, value: unknown): unknown {
    return isObject(value) && isObject(value.data) && !target.fields.has('data') ? value.data : value;
}

/**
 * Visits one write's data. `path` is how an update reaches the record (undefined under a create: a new
 * record has no partner to detach).
 */
function walk(registry: ModelRegistry, model: ModelDef, data: unknown, path: Step[] | undefined, sites: OneToOneSites): void {
    if (!isObject(data)) return;
    for (const [key, ops] of Object.entries(data)) {
        const relation = model.relations.get(key);
        const target = relation && registry.models.get(relation.targetKey);
        if (!relation || !target || !isObject(ops)) continue;
        if (relation.oneToOne && relation.isOwner && (ops.connect !== undefined || ops.connectOrCreate !== undefined)) {
            sites.owner.push({ model, data, relation, target });
        }
        if (path && relation.oneToOne && !relation.isOwner && relation.otherSideOptional && LINKS.some((op) => ops[op] !== undefined)) {
            sites.unlink.push({ path, relation });
        }
        for (const item of many(ops.create)) walk(registry, target, item, undefined, sites);
        for (const item of many(ops.connectOrCreate)) if (isObject(item)) walk(registry, target, item.create, undefined, sites);
        if (relation.isArray) {
            for (const item of many(ops.update)) {
                if (isObject(item) && isObject(item.where)) walk(registry, target, item.data, path && [...path, { relation, where: item.where }], sites);
            }
            for (const item of many(ops.upsert)) {
                if (!isObject(item)) continue;
                walk(registry, target, item.create, undefined, sites);
                if (isObject(item.where)) walk(registry, target, item.update, path && [...path, { relation, where: item.where }], sites);
            }
        } else {
            if (ops.update !== undefined) walk(registry, target, toOneData(target, ops.update), path && [...path, { relation }], sites);
            if (isObject(ops.upsert)) {
                walk(registry, target, ops.upsert.create, undefined, sites);
                walk(registry, target, toOneData(target, ops.upsert.update), path && [...path, { relation }], sites);
            }
        }
    }
}

/** The one-to-one links of an operation's arguments that need care (see above). */
export function findOneToOneSites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): OneToOneSites {
    const sites: OneToOneSites = { owner: [], unlink: [] };
    if (op === 'create') walk(registry, model, args.data, undefined, sites);
    else if (op === 'update') walk(registry, model, args.data, [], sites);
    else if (op === 'upsert') {
        walk(registry, model, args.create, undefined, sites);
        walk(registry, model, args.update, [], sites);
    }
    return sites;
}

export function hasOneToOneSites(sites: OneToOneSites): boolean {
    return sites.owner.length > 0 || sites.unlink.length > 0;
}

type Delegate = { findUnique(args: Data): Promise<unknown>; update(args: Data): Promise<unknown> };

function delegateOf(client: unknown, model: ModelDef): Delegate {
    return (client as Record<string, Delegate>)[model.key];
}

/** The target's values of the fields the foreign key references, or undefined when the user cannot see it. */
async function referencedValues(client: unknown, link: OwnerLink, where: unknown): Promise<Data | undefined> {
    const mapping = link.relation.foreignKeyMapping ?? {};
    const select: Record<string, true> = {};
    for (const referenced of Object.keys(mapping)) select[referenced] = true;
    const found = isPlainObject(where) ? await delegateOf(client, link.target).findUnique({ where, select }) : undefined;
    return isObject(found) ? found : undefined;
}

function writeForeignKey(link: OwnerLink, values: Data): void {
    delete link.data[link.relation.name];
    for (const [referenced, local] of Object.entries(link.relation.foreignKeyMapping ?? {})) link.data[local] = values[referenced];
}

/** Another owner-side relation of the same data in relation form: Prisma takes foreign keys or relation forms, not both. */
function refuseMixed(link: OwnerLink): void {
    for (const [key, value] of Object.entries(link.data)) {
        const other = link.model.relations.get(key);
        if (other && other !== link.relation && other.isOwner && value !== undefined) {
            throw new BadRequestError(
                `invalid arguments: the one-to-one relation "${link.relation.name}" is linked by its foreign key, which cannot be combined with "${key}" written as a relation in the same data; link "${key}" by its foreign key too, or in a separate write`,
            );
        }
    }
}

async function linkByForeignKey(client: unknown, link: OwnerLink): Promise<void> {
    const ops = link.data[link.relation.name] as Data;
    const keys = Object.keys(ops);
    if (keys.length !== 1) {
        throw new BadRequestError(`invalid arguments: "${link.relation.name}" of a one-to-one relation takes one of connect, connectOrCreate, create, disconnect, update, upsert, delete`);
    }
    refuseMixed(link);
    if (ops.connect !== undefined) {
        const values = await referencedValues(client, link, ops.connect);
        if (!values) throw new RecordNotFoundError(`No '${link.target.name}' record was found for a nested connect on one-to-one relation "${link.relation.name}"`);
        writeForeignKey(link, values);
        return;
    }
    const connectOrCreate = ops.connectOrCreate;
    if (!isObject(connectOrCreate)) return;
    const values = await referencedValues(client, link, connectOrCreate.where);
    if (values) writeForeignKey(link, values);
    // not there (for this user): a new record, which has no partner yet
    else link.data[link.relation.name] = { create: connectOrCreate.create };
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

async function unlinkFirst(client: unknown, model: ModelDef, where: unknown, site: UnlinkFirst): Promise<void> {
    try {
        await delegateOf(client, model).update({ where, data: updateAlong(site.path, { [site.relation.name]: { disconnect: true } }), select: idSelect(model) });
    } catch (err) {
        // the change happened, only its result is not readable; or the record (an upsert's) is not there yet
        if (isNotReadable(err) || (err as { code?: unknown })?.code === 'P2025') return;
        throw err;
    }
}

/**
 * Applies the sites to `args` (a copy the caller owns) through `client`, the transaction the write then
 * runs in: owner-side links become foreign key values, non-owner links are preceded by a checked unlink.
 */
export async function guardOneToOne(client: unknown, model: ModelDef, args: Args, sites: OneToOneSites): Promise<void> {
    for (const site of sites.unlink) await unlinkFirst(client, model, args.where, site);
    for (const link of sites.owner) await linkByForeignKey(client, link);
}
