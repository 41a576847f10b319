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
 * record the user cannot read is not found, as a missing one): the unique constraint then refuses a
 * target that is taken (a 400, P2002) instead of detaching its partner. Prisma takes keys or relation
 * forms, not both, so the other owner-side relations of the same data are written as keys too (a nested
 * `create` made first, on its own). Non-owner links in update paths are preceded, in the same
 * transaction, by a `disconnect: true` along the same path, which ZenStack checks against the current
 * partner's update rule.
 */

type Data = Record<string, unknown>;

/** From the top-level record to a nested one: the relation, and the nested item's unique filter on a to-many step. */
interface Step {
    relation: RelationField;
    where?: Data;
}

/** Write data that links a one-to-one relation from its owner side: all its owner-side relations are written as foreign keys. */
interface ForeignKeySite {
    model: ModelDef;
    /** Rewritten in place: the caller passes a copy. */
    data: Data;
    /** Written only under a condition the write itself decides (see `Place`). */
    conditional: boolean;
}

interface UnlinkFirst {
    path: Step[];
    relation: RelationField;
}

export interface OneToOneSites {
    owner: ForeignKeySite[];
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
 * Where a write's data sits: `path` is how an update reaches the record (undefined under a create: a new
 * record has no partner to detach); `conditional` marks data that is written only if a record is there
 * (an upsert's `update`) or is not (an upsert's `create`, a `connectOrCreate`'s `create`).
 */
interface Place {
    path: Step[] | undefined;
    conditional: boolean;
}

function walk(registry: ModelRegistry, model: ModelDef, data: unknown, at: Place, sites: OneToOneSites): void {
    if (!isObject(data)) return;
    const { path, conditional } = at;
    const created: Place = { path: undefined, conditional };
    const onCondition = (next: Step[] | undefined): Place => ({ path: next, conditional: true });
    for (const [key, ops] of Object.entries(data)) {
        const relation = model.relations.get(key);
        const target = relation && registry.models.get(relation.targetKey);
        if (!relation || !target || !isObject(ops)) continue;
        if (relation.oneToOne && relation.isOwner && (ops.connect !== undefined || ops.connectOrCreate !== undefined) && !sites.owner.some((o) => o.data === data)) {
            sites.owner.push({ model, data, conditional });
        }
        if (path && relation.oneToOne && !relation.isOwner && relation.otherSideOptional && LINKS.some((op) => ops[op] !== undefined)) {
            sites.unlink.push({ path, relation });
        }
        for (const item of many(ops.create)) walk(registry, target, item, created, sites);
        for (const item of many(ops.connectOrCreate)) if (isObject(item)) walk(registry, target, item.create, onCondition(undefined), sites);
        if (relation.isArray) {
            for (const item of many(ops.update)) {
                if (isObject(item) && isObject(item.where)) walk(registry, target, item.data, { path: path && [...path, { relation, where: item.where }], conditional }, sites);
            }
            for (const item of many(ops.upsert)) {
                if (!isObject(item)) continue;
                walk(registry, target, item.create, onCondition(undefined), sites);
                if (isObject(item.where)) walk(registry, target, item.update, onCondition(path && [...path, { relation, where: item.where }]), sites);
            }
        } else {
            if (ops.update !== undefined) walk(registry, target, toOneData(target, ops.update), { path: path && [...path, { relation }], conditional }, sites);
            if (isObject(ops.upsert)) {
                walk(registry, target, ops.upsert.create, onCondition(undefined), sites);
                walk(registry, target, toOneData(target, ops.upsert.update), onCondition(path && [...path, { relation }]), sites);
            }
        }
    }
}

/** The one-to-one links of an operation's arguments that need care (see above). */
export function findOneToOneSites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): OneToOneSites {
    const sites: OneToOneSites = { owner: [], unlink: [] };
    if (op === 'create') walk(registry, model, args.data, { path: undefined, conditional: false }, sites);
    else if (op === 'update') walk(registry, model, args.data, { path: [], conditional: false }, sites);
    else if (op === 'upsert') {
        walk(registry, model, args.create, { path: undefined, conditional: true }, sites);
        walk(registry, model, args.update, { path: [], conditional: true }, sites);
    }
    return sites;
}

export function hasOneToOneSites(sites: OneToOneSites): boolean {
    return sites.owner.length > 0 || sites.unlink.length > 0;
}

type Delegate = { findUnique(args: Data): Promise<unknown>; create(args: Data): Promise<unknown>; update(args: Data): Promise<unknown> };

function delegateOf(client: unknown, model: ModelDef): Delegate {
    return (client as Record<string, Delegate>)[model.key];
}

/** `{ <referenced field>: true }` for the fields a relation's foreign key references. */
function referencedSelect(relation: RelationField): Record<string, true> {
    const select: Record<string, true> = {};
    for (const referenced of Object.keys(relation.foreignKeyMapping ?? {})) select[referenced] = true;
    return select;
}

/** The target's referenced values, read through the user's client: undefined when the user cannot see it. */
async function lookUp(client: unknown, relation: RelationField, target: ModelDef, where: unknown): Promise<Data | undefined> {
    const found = isPlainObject(where) ? await delegateOf(client, target).findUnique({ where, select: referencedSelect(relation) }) : undefined;
    return isObject(found) ? found : undefined;
}

/** Creates the nested target on its own (its create rule checked as in the nested write) and answers its referenced values. */
async function createTarget(client: unknown, relation: RelationField, target: ModelDef, data: unknown): Promise<Data> {
    try {
        return (await delegateOf(client, target).create({ data, select: referencedSelect(relation) })) as Data;
    } catch (err) {
        // the nested record would be written but the write could not go on without reading it back
        if (isNotReadable(err)) {
            throw new BadRequestError(`invalid arguments: the new "${relation.name}" cannot be read back to link it by its foreign key; create it in a separate write`);
        }
        throw err;
    }
}

function notFound(relation: RelationField, target: ModelDef): RecordNotFoundError {
    return new RecordNotFoundError(`No '${target.name}' record was found for a nested connect on relation "${relation.name}"`);
}

/** How one owner-side relation becomes key values: found (or null), or only by creating its target first. */
type KeyPlan = { values: Data | null | undefined } | { create: unknown } | { missing: true };

/**
 * Plans one owner-side relation as foreign key values, reading but never writing: `connect` and the
 * found record of `connectOrCreate` looked up, `disconnect: true` as null; a `create` (or a
 * `connectOrCreate` that finds nothing) needs its target made first. Anything else cannot be written as
 * a key: a 400 that says so.
 */
async function planKeys(client: unknown, relation: RelationField, target: ModelDef, ops: Data): Promise<KeyPlan> {
    const present = Object.keys(ops).filter((k) => ops[k] !== undefined);
    const op = present.length === 1 ? present[0] : undefined;
    if (op === 'connect') {
        const found = await lookUp(client, relation, target, ops.connect);
        return found ? { values: found } : { missing: true };
    }
    if (op === 'create') return { create: ops.create };
    if (op === 'connectOrCreate' && isObject(ops.connectOrCreate)) {
        const found = await lookUp(client, relation, target, ops.connectOrCreate.where);
        return found ? { values: found } : { create: ops.connectOrCreate.create };
    }
    if (op === 'disconnect' && ops.disconnect === false) return { values: undefined };
    if (op === 'disconnect' && ops.disconnect === true && relation.isOptional) return { values: null };
    throw new BadRequestError(
        `invalid arguments: "${relation.name}": a write that links a one-to-one relation by its foreign key takes connect, connectOrCreate, create or disconnect on the record's other relations; write ${present.join(', ') || 'this'} separately`,
    );
}

/**
 * Rewrites every owner-side relation of `data` (a copy the caller owns) as foreign key values. Data
 * written only under a condition (an upsert's branches) is planned without side effects: when every
 * relation resolves to values it is rewritten; otherwise (a target not found, or one to create first,
 * which the branch may never need) it is left as it is, unless it also links an existing record one to
 * one, which would then detach that record's partner unchecked: a 400 asking for separate writes.
 */
async function writeForeignKeys(client: unknown, registry: ModelRegistry, site: ForeignKeySite): Promise<void> {
    const plans: Array<[RelationField, ModelDef, KeyPlan]> = [];
    for (const [key, ops] of Object.entries(site.data)) {
        const relation = site.model.relations.get(key);
        const target = relation && registry.models.get(relation.targetKey);
        if (!relation?.isOwner || !target || !isObject(ops)) continue;
        const plan = await planKeys(client, relation, target, ops);
        if ('missing' in plan && !site.conditional) throw notFound(relation, target);
        plans.push([relation, target, plan]);
    }
    // a referenced field the user may not read comes back without its value: the key cannot be written, the links stay as sent
    if (plans.some(([relation, , plan]) => 'values' in plan && plan.values && Object.keys(relation.foreignKeyMapping ?? {}).some((f) => plan.values![f] === undefined))) return;
    if (site.conditional && plans.some(([, , plan]) => !('values' in plan))) {
        const linked = plans.find(([relation, , plan]) => relation.oneToOne && 'values' in plan && plan.values);
        if (!linked) return;
        throw new BadRequestError(
            `invalid arguments: "${linked[0].name}": an upsert branch that links an existing record one to one cannot also create or link records that are not there; write them separately`,
        );
    }
    for (const [relation, target, plan] of plans) {
        const values = 'create' in plan ? await createTarget(client, relation, target, plan.create) : 'values' in plan ? plan.values : undefined;
        if (values && Object.keys(relation.foreignKeyMapping ?? {}).some((f) => values[f] === undefined)) {
            // made just now, but its key cannot be read: the whole write is refused (and rolled back)
            throw new BadRequestError(`invalid arguments: the new "${relation.name}" cannot be linked by its foreign key, which the user may not read; create it in a separate write`);
        }
        delete site.data[relation.name];
        if (values === undefined) continue;
        for (const [referenced, local] of Object.entries(relation.foreignKeyMapping ?? {})) site.data[local] = values === null ? null : values[referenced];
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
export async function guardOneToOne(client: unknown, registry: ModelRegistry, model: ModelDef, args: Args, sites: OneToOneSites): Promise<void> {
    for (const site of sites.unlink) await unlinkFirst(client, model, args.where, site);
    // innermost first: a nested create made on its own must already carry its own keys
    for (const site of [...sites.owner].reverse()) await writeForeignKeys(client, registry, site);
}
