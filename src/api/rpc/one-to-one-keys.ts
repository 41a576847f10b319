import { BadRequestError, classifyError, RecordNotFoundError } from '../common/errors';
import { isObject } from '../common/guards';
import { idSelect, uniqueConstraint, type ModelDef, type ModelRegistry, type RelationField } from '../common/model-registry';
import { isNotReadable } from '../common/transactions';
import { isPlainObject } from '../common/guards';
import { uniqueWhere } from './relation-set';
import { delegateOf } from './write-walk';

/**
 * Owner-side relations written as their foreign key values (see one-to-one.ts for why): targets looked
 * up through the user's client, records to link created first, in the transaction of the write.
 */

type Data = Record<string, unknown>;

/** Write data that links a one-to-one relation from its owner side: all its owner-side relations are written as foreign keys. */
export interface ForeignKeySite {
    model: ModelDef;
    /** Rewritten in place: the caller passes a copy. */
    data: Data;
    /** Written only under a condition the write itself decides (an upsert branch, a connectOrCreate's create; see `Place`). */
    conditional: boolean;
}

/** `{ <referenced field>: true }` for the fields a relation's foreign key references. */
function referencedSelect(relation: RelationField): Record<string, true> {
    const select: Record<string, true> = {};
    for (const referenced of Object.keys(relation.foreignKeyMapping ?? {})) select[referenced] = true;
    return select;
}

/** Whether a unique filter names a field with a field-level read rule (directly or in a compound key). */
function namesProtectedField(target: ModelDef, where: Data): boolean {
    return Object.entries(where).some(([key, value]) => {
        if (target.fields.get(key)?.readProtected) return true;
        const constraint = uniqueConstraint(target, key);
        return !!constraint && isObject(value) && constraint.fields.some((f) => target.fields.get(f)?.readProtected);
    });
}

/** The target's referenced values, read through the user's client: undefined when the user cannot see it. */
async function lookUp(client: unknown, relation: RelationField, target: ModelDef, where: unknown): Promise<Data | undefined> {
    if (!isPlainObject(where)) return undefined;
    try {
        const found = await delegateOf(client, target).findUnique({ where, select: referencedSelect(relation) });
        return isObject(found) ? found : undefined;
    } catch (err) {
        // ZenStack filters a field the user may not read by its read rule: for an anonymous user that leaves the
        // unique filter without a unique field, which the ORM refuses. Such a record is not there for this user.
        if (namesProtectedField(target, where) && classifyError(err).kind === 'validation') return undefined;
        throw err;
    }
}

/** Creates the nested target on its own (its create rule checked as in the nested write) and answers its referenced values and id. */
async function createTarget(client: unknown, relation: RelationField, target: ModelDef, data: unknown): Promise<Data> {
    try {
        return (await delegateOf(client, target).create({ data, select: { ...idSelect(target), ...referencedSelect(relation) } })) as Data;
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

/** A relation of the write with its target's referenced values (`null`: unlink; `undefined`: none) and whether the write just created it. */
type ResolvedTarget = [relation: RelationField, target: ModelDef, values: Data | null | undefined, created: boolean];

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
    // `{}`: no change, as the ORM reads it
    if (present.length === 0) return { values: undefined };
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
export async function writeForeignKeys(client: unknown, registry: ModelRegistry, site: ForeignKeySite): Promise<void> {
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
    if (plans.some(([relation, , plan]) => 'values' in plan && plan.values && lacksKey(relation, plan.values))) return;
    if (site.conditional && plans.some(([, , plan]) => !('values' in plan))) {
        const linked = plans.find(([relation, , plan]) => relation.oneToOne && 'values' in plan && plan.values);
        if (!linked) return;
        throw new BadRequestError(
            `invalid arguments: "${linked[0].name}": an upsert branch that links an existing record one to one cannot also create or link records that are not there; write them separately`,
        );
    }
    const resolved: ResolvedTarget[] = [];
    for (const [relation, target, plan] of plans) {
        const created = 'create' in plan;
        resolved.push([relation, target, created ? await createTarget(client, relation, target, plan.create) : 'values' in plan ? plan.values : undefined, created]);
    }
    if (resolved.some(([relation, , values]) => values && lacksKey(relation, values))) {
        linkCreatedById(site, resolved);
        return;
    }
    for (const [relation, , values] of resolved) {
        delete site.data[relation.name];
        if (values === undefined) continue;
        for (const [referenced, local] of Object.entries(relation.foreignKeyMapping ?? {})) site.data[local] = values === null ? null : values[referenced];
    }
}

function lacksKey(relation: RelationField, values: Data): boolean {
    return Object.keys(relation.foreignKeyMapping ?? {}).some((f) => values[f] === undefined);
}

/**
 * A record made just now whose key the user may not read cannot be linked by its foreign key; it has no
 * partner to lose, so it is linked by a `connect` of its id instead, and the other relations stay as sent.
 * That is refused (400, rolled back) when another relation links an existing record one to one, which a
 * `connect` would detach from its partner unchecked, or when the new record's id cannot be read either.
 */
function linkCreatedById(site: ForeignKeySite, resolved: ResolvedTarget[]): void {
    for (const [relation, target, values, created] of resolved) {
        const keyless = !!values && lacksKey(relation, values);
        const guarded = !created && relation.oneToOne && !!values;
        const idHidden = created && !!values && target.idFields.some((f) => values[f.name] === undefined);
        if ((keyless && !created) || guarded || idHidden) {
            const name = resolved.find(([r, , v, c]) => c && v && lacksKey(r, v))?.[0].name ?? relation.name;
            throw new BadRequestError(`invalid arguments: the new "${name}" cannot be linked by its foreign key, which the user may not read; create it in a separate write`);
        }
    }
    for (const [relation, target, values, created] of resolved) {
        if (!created || !values) continue;
        site.data[relation.name] = { connect: uniqueWhere(target, values) };
    }
}
