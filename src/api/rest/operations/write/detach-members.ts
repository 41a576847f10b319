import type { CrudContract } from '@zenstackhq/runtime';
import { classifyError, PolicyDeniedError } from '../../../common/errors';
import type { RelationField } from '../../../common/model-registry';
import { isObject } from '../../payload/pointer';
import type { RestModel, RestRelationship } from '../../schema';

/**
 * Removing members of a one-to-many relationship (a `DELETE` of members, the members a replacement leaves out) at
 * once. ZenStack's nested `disconnect` checks every record it detaches with statements of its own (the member looked
 * up, its update rule, then its post-update and validation rules): 3,012 statements and 2.7 s on PostgreSQL for 1,000
 * posts, inside a transaction whose default timeout is 5 s. Where the members hold the foreign key, they are detached
 * instead by an `updateMany` of the enhanced client per `CHUNK` members, setting the foreign key to null where it still
 * names the record: ZenStack applies the same rules to it (the model's update rules, `@@deny` ones, the field-level
 * update rules of the foreign key, as a filter; post-update and validation rules on each row it updated), so the
 * policy stays ZenStack's. Its outcomes are the nested disconnect's (tests/rest/write/detach-members.test.ts):
 *
 * - `updateMany` leaves out a record its update rules refuse, where the nested disconnect throws: fewer rows updated
 *   than members listed, with one of them still linked, is that refusal (a member that is no longer linked was moved
 *   by another transaction meanwhile, which the nested disconnect skips too).
 * - A post-update or validation failure is thrown by `updateMany` before it could tell that another member is refused
 *   by its update rule, which the nested disconnect checks first (and answers). Then the write is made again, in a new
 *   transaction, with the nested disconnect (`DetachOneByOne`): a refused request costs both.
 *
 * Left to the nested disconnect: required links (Prisma's 400 `P2014`), compound ids (compound-members.ts),
 * `@@delegate` models, relations of a model with itself, members with `@updatedAt` fields (`updateMany` sets them,
 * the nested disconnect does not) and foreign keys referencing fields the record's `where` does not give.
 */

type Data = Record<string, unknown>;

/** Members per `updateMany`: within SQLite's bound of 999 query parameters with the rules' own. */
const CHUNK = 400;

/** Thrown inside the transaction: make the write again with the nested disconnect (see above). */
export class DetachOneByOne extends Error {
    constructor() {
        super('detach the members one by one');
        this.name = 'DetachOneByOne';
    }
}

/** The members' side of the relation, when its members can be detached at once (see above). */
function ownedByMembers(model: RestModel, rel: RestRelationship): RelationField | undefined {
    const target = rel.target;
    if (!rel.isArray || rel.field.manyToMany || target === model || target.idFields.length !== 1) return undefined;
    if (target.def.delegated || target.def.updatedAtFields.length > 0) return undefined;
    const back = rel.field.backLink ? target.def.relations.get(rel.field.backLink) : undefined;
    if (!back || back.isArray || !back.isOwner || !back.isOptional || !back.foreignKeyMapping) return undefined;
    return back;
}

/** The members' foreign key values naming the record `where` names, when `where` gives every referenced field. */
function linkTo(model: RestModel, back: RelationField, where: Data): Data | undefined {
    const flat: Data = {};
    for (const [k, v] of Object.entries(where)) {
        if (model.def.scalars.has(k)) flat[k] = v;
        else if (isObject(v)) Object.assign(flat, v); // a compound unique: { a_b: { a, b } }
    }
    const link: Data = {};
    for (const [referenced, fk] of Object.entries(back.foreignKeyMapping ?? {})) {
        const value = flat[referenced];
        if (value === undefined || value === null || (isObject(value) && !(value instanceof Date))) return undefined;
        link[fk] = value;
    }
    return link;
}

async function detachChunk(tx: CrudContract, key: string, where: Data, unlinked: Data, listed: number): Promise<void> {
    let count: number;
    try {
        count = ((await tx[key].updateMany({ where, data: unlinked })) as { count: number }).count;
    } catch (err) {
        const kind = classifyError(err).kind;
        if (kind === 'policy' || kind === 'data-validation') throw new DetachOneByOne();
        throw err;
    }
    if (count < listed && (await tx[key].count({ where })) > 0) {
        throw new PolicyDeniedError(`a ${key} listed for detaching failed the update policy check`);
    }
}

/**
 * Detaches at once the members `data` disconnects from the record `where` names, where they can be (see above), and
 * returns the data without those disconnects.
 */
export async function detachMembersAtOnce(tx: CrudContract, model: RestModel, where: Data, data: Data): Promise<Data> {
    let out = data;
    for (const [name, op] of Object.entries(data)) {
        const rel = model.relationships.get(name);
        if (!rel || !isObject(op) || !Array.isArray(op.disconnect) || op.disconnect.length === 0) continue;
        const back = ownedByMembers(model, rel);
        const link = back && linkTo(model, back, where);
        if (!back || !link) continue;
        const idName = rel.target.idFields[0].name;
        const values = (op.disconnect as Data[]).map((m) => m[idName]);
        if (values.some((v) => v === undefined)) continue;
        const unlinked: Data = {};
        for (const fk of Object.values(back.foreignKeyMapping ?? {})) unlinked[fk] = null;
        for (let i = 0; i < values.length; i += CHUNK) {
            const chunk = values.slice(i, i + CHUNK);
            await detachChunk(tx, rel.target.key, { [idName]: { in: chunk }, ...link }, unlinked, chunk.length);
        }
        const rest: Data = { ...op };
        delete rest.disconnect;
        if (out === data) out = { ...data };
        if (Object.keys(rest).length > 0) out[name] = rest;
        else delete out[name];
    }
    return out;
}
