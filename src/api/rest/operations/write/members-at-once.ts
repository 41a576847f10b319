import type { CrudContract } from '@zenstackhq/runtime';
import { classifyError } from '../../../common/errors';
import type { RelationField } from '../../../common/model-registry';
import { isObject } from '../../payload/pointer';
import type { RestModel, RestRelationship } from '../../schema';
import { inParts } from './member-parts';

/**
 * Adding and removing members of a one-to-many relationship (a `POST` or `DELETE` of members, what a replacement
 * changes) at once. ZenStack's nested `connect` and `disconnect` check every record they link or detach with
 * statements of their own (the member looked up, its update rule, then its post-update and validation rules): 3,012
 * statements and 2.7 s on PostgreSQL to remove 1,000 posts, inside a transaction whose default timeout is 5 s. Where
 * the members hold the foreign key, they are linked or detached instead by an `updateMany` of the enhanced client per
 * `CHUNK` members, setting the foreign key to the record's key (or to null where it still names the record): ZenStack
 * applies the same rules to it (the model's update rules, `@@deny` ones, the field-level update rules of the foreign
 * key, as a filter; post-update and validation rules on each row it updated), so the policy stays ZenStack's. Its
 * outcomes are the nested writes' (tests/rest/write/detach-members.test.ts, attach-members.test.ts):
 *
 * - `updateMany` leaves out a record its update rules refuse, where the nested write throws; and a record another
 *   transaction changed meanwhile, where PostgreSQL checks the rules again on the new row (a comment moved by another
 *   request is no longer under the post whose author may move it), where the nested write, having checked the row it
 *   read, waits and writes. So fewer rows updated than members listed is answered by the nested writes: the write is
 *   made again, in a new transaction, with them (`OneByOne`), and their answer (a 403, a 404 for a record missing or
 *   hidden, or the write) is the answer. When detaching, only while one of them is still linked: a member that is no
 *   longer linked was moved by another transaction meanwhile, which the nested disconnect skips too.
 * - A post-update or validation failure is thrown by `updateMany` before it could tell that another member is refused
 *   by its update rule, which the nested write checks first (and answers): made again with the nested writes too.
 *   A refused request costs both.
 *
 * Left to the nested writes: detaching a required link (Prisma's 400 `P2014`; linking one is done here), compound
 * ids (compound-members.ts), `@@delegate` models, relations of a model with itself, members with `@updatedAt` fields
 * (`updateMany` sets them, the nested writes do not) and foreign keys referencing fields the record's `where` does
 * not give.
 */

type Data = Record<string, unknown>;

/** Members per `updateMany`: within SQLite's bound of 999 query parameters with the rules' own. */
const CHUNK = 400;

/** Thrown inside the transaction: make the write again with the nested writes (see above). */
export class OneByOne extends Error {
    constructor() {
        super('link or detach the members one by one');
        this.name = 'OneByOne';
    }
}

/** The members' side of the relation, when its members can be linked (and, where it is optional, detached) at once (see above). */
function ownedByMembers(model: RestModel, rel: RestRelationship): RelationField | undefined {
    const target = rel.target;
    if (!rel.isArray || rel.field.manyToMany || target === model || target.idFields.length !== 1) return undefined;
    if (target.def.delegated || target.def.updatedAtFields.length > 0) return undefined;
    const back = rel.field.backLink ? target.def.relations.get(rel.field.backLink) : undefined;
    if (!back || back.isArray || !back.isOwner || !back.foreignKeyMapping) return undefined;
    return back;
}

/**
 * The members' foreign key values naming the record `where` names, when `where` gives every referenced field as it is
 * stored; otherwise the nested writes link them, with the values the record holds.
 */
function linkTo(model: RestModel, back: RelationField, where: Data): Data | undefined {
    // a key the database compares loosely (`@db.Citext`'s letter case, `@db.Char`'s padding) may be named otherwise than
    // it is stored: the members would hold the URL's spelling, which the ORM's joins, comparing in memory, do not match
    if (Object.keys(back.foreignKeyMapping ?? {}).some((f) => model.def.scalars.get(f)?.isCitext || model.def.scalars.get(f)?.isChar)) return undefined;
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

/** Updates the `listed` members `where` names to `data`; `linked`, when detaching: whether any still names the record. */
async function updateChunk(tx: CrudContract, key: string, where: Data, data: Data, listed: number, linked?: Data): Promise<void> {
    let count: number;
    try {
        count = ((await tx[key].updateMany({ where, data })) as { count: number }).count;
    } catch (err) {
        const kind = classifyError(err).kind;
        if (kind === 'policy' || kind === 'data-validation') throw new OneByOne();
        throw err;
    }
    if (count < listed && (!linked || (await tx[key].count({ where: linked })) > 0)) throw new OneByOne();
}

const chunks = <T>(values: T[]): T[][] => inParts(values, CHUNK);

/**
 * Detaches, then links, at once the members `data` disconnects from and connects to the record `where` names, where
 * they can be (see above), and returns the data without those changes.
 */
export async function changeMembersAtOnce(tx: CrudContract, model: RestModel, where: Data, data: Data): Promise<Data> {
    let out = data;
    for (const [name, op] of Object.entries(data)) {
        const rel = model.relationships.get(name);
        if (!rel || !isObject(op)) continue;
        const back = ownedByMembers(model, rel);
        // a required link is never detached (the nested disconnect answers Prisma's 400), only moved here
        const disconnect = Array.isArray(op.disconnect) && back?.isOptional ? (op.disconnect as Data[]) : [];
        const connect = Array.isArray(op.connect) ? (op.connect as Data[]) : [];
        if (disconnect.length + connect.length === 0) continue;
        const link = back && linkTo(model, back, where);
        if (!back || !link) continue;
        const idName = rel.target.idFields[0].name;
        const detached = disconnect.map((m) => m[idName]);
        const linked = connect.map((m) => m[idName]);
        if ([...detached, ...linked].some((v) => v === undefined || v === null || isObject(v))) continue;
        const unlinked: Data = {};
        for (const fk of Object.values(back.foreignKeyMapping ?? {})) unlinked[fk] = null;
        const key = rel.target.key;
        for (const chunk of chunks(detached)) {
            const members = { [idName]: { in: chunk }, ...link };
            await updateChunk(tx, key, members, unlinked, chunk.length, members);
        }
        for (const chunk of chunks(linked)) await updateChunk(tx, key, { [idName]: { in: chunk } }, link, chunk.length);
        const rest: Data = { ...op };
        if (disconnect.length > 0) delete rest.disconnect;
        delete rest.connect;
        if (out === data) out = { ...data };
        if (Object.keys(rest).length > 0) out[name] = rest;
        else delete out[name];
    }
    return out;
}

/**
 * The filters (one per `CHUNK`) that find which of the `listed` records (unique `where`s) are members of the
 * relationship `rel` of the record `where` names, by their foreign key, for reads through the user's client. One read
 * naming them all, from the record, cannot name more than about 990 on SQLite (Prisma's bound of 999 query
 * parameters: a 400 `P2029` for a `POST` or `DELETE` of 1,000 members). Undefined where the members cannot be changed
 * at once either (see above).
 */
export function listedMemberFilters(model: RestModel, rel: RestRelationship, where: Data, listed: Data[]): Data[] | undefined {
    const back = ownedByMembers(model, rel);
    const link = back && linkTo(model, back, where);
    if (!back || !link) return undefined;
    const idName = rel.target.idFields[0].name;
    const values = listed.map((m) => m[idName]);
    if (values.some((v) => v === undefined || v === null || isObject(v))) return undefined;
    return chunks(values).map((chunk) => ({ [idName]: { in: chunk }, ...link }));
}
