import type { CrudContract } from '@zenstackhq/runtime';
import { classifyError } from '../../../common/errors';
import { RestError } from '../../errors';
import { idSelect, whereByIdValues } from '../../ids';
import { idValuesKey } from '../../payload/identifiers';
import { withoutKey } from '../../../common/guards';
import { isObject, payloadError } from '../../payload/pointer';
import type { RestModel, RestRelationship } from '../../schema';

/**
 * One-to-one links under ZenStack v2's access policy. Prisma's `connect` on a one-to-one relation
 * detaches the record linked before (sets its foreign key to null), and the policy engine never
 * checks that update. So:
 *
 * - Owner side (this model holds the unique foreign key): the link is written as the foreign key
 *   values, read from the target under the policy first (missing or unreadable: the same 404). The
 *   database's unique constraint then refuses a target that already has a partner (409), instead of
 *   Prisma silently detaching that partner. Every owner-side to-one change of the same write becomes
 *   foreign keys too, as Prisma does not mix foreign keys with nested writes of owned relations.
 * - Non-owner side: a current partner other than the target is first detached with a policy-checked
 *   `disconnect` (its update rule decides), in the same transaction; linking the current partner
 *   changes nothing. When the partner's foreign key is required it cannot be detached: a 409 (a 400 for
 *   `null`, which the ORM refuses even when nothing is linked).
 * - Non-owner side of a compound foreign key: ZenStack cannot detach a partner the user cannot see from
 *   this side, so a link is written from the owner side instead, as the target's foreign key values (such
 *   a partner still holds them: a 409 as above), and `null` leaves such a partner linked (none in sight:
 *   nothing changes).
 *
 * Callers run these in the transaction of the write and map the write's errors with `explainLinkConflict`.
 */

type Data = Record<string, unknown>;
export type LinkPointers = Readonly<Record<string, string>>;

function connectOf(op: unknown): Data | undefined {
    return isObject(op) && isObject(op.connect) ? op.connect : undefined;
}

function toOne(model: RestModel, data: Data, owner: boolean): RestRelationship[] {
    const out: RestRelationship[] = [];
    for (const k of Object.keys(data)) {
        const rel = model.relationships.get(k);
        if (rel && !rel.isArray && rel.field.isOwner === owner) out.push(rel);
    }
    return out;
}

/**
 * Whether `data`'s owner-side links are written as foreign keys (`ownerLinksAsForeignKeys`): it links a
 * one-to-one relation from its owner side (above), or it gives a value to an autoincrement field (a
 * client-chosen id) or a foreign key of its own (a create's `spaceId: null` beside a link to an author), which
 * Prisma takes only in its "unchecked" input, the one without owned relations.
 */
export function writesOwnedLinksAsKeys(model: RestModel, data: Data): boolean {
    // on a @@delegate model ZenStack turns written keys back into connects: the write goes as sent
    if (model.def.delegated) return false;
    const linked = toOne(model, data, true).filter((rel) => connectOf(data[rel.name]));
    if (linked.length === 0) return false;
    if (linked.some((rel) => rel.field.oneToOne)) return true;
    return model.def.uncheckedOnlyScalars.some((f) => data[f.name] !== undefined);
}

/** A where's values as the id a message shows (`7`, `sci_en`). */
function describeWhere(where: Data, divider: string): string {
    const [only] = Object.values(where);
    const values = Object.keys(where).length === 1 && isObject(only) ? Object.values(only) : Object.values(where);
    return values.map(String).join(divider);
}

function relatedNotFound(rel: RestRelationship, where: Data, pointer: string | undefined, divider: string): RestError {
    return new RestError('not-found', `related ${rel.target.type} "${describeWhere(where, divider)}" not found`, pointer ? { source: { pointer } } : {});
}

/**
 * Rewrites the owner-side to-one changes of `data` as foreign key values when `writesOwnedLinksAsKeys` says
 * so (else returns `data` as it is). Each target is read under the policy: one the user cannot see, or that
 * is not there, is a 404 pointing at the relationship.
 */
export async function ownerLinksAsForeignKeys(db: CrudContract, model: RestModel, data: Data, pointers: LinkPointers, divider: string): Promise<Data> {
    if (!writesOwnedLinksAsKeys(model, data)) return data;
    const out: Data = { ...data };
    for (const rel of toOne(model, data, true)) {
        const mapping = Object.entries(rel.field.foreignKeyMapping ?? {});
        const op = data[rel.name];
        const where = connectOf(op);
        if (mapping.length === 0 || (!where && !(isObject(op) && op.disconnect === true))) return data;
        let target: Data | null = null;
        if (where) {
            const select: Data = {};
            for (const [ref] of mapping) select[ref] = true;
            target = (await db[rel.target.key].findUnique({ where, select })) as Data | null;
            if (!target) throw relatedNotFound(rel, where, pointers[rel.name], divider);
            // a referenced field the user may not read: the foreign key cannot be written, so the link stays a connect
            if (mapping.some(([ref]) => target![ref] === undefined)) return data;
        }
        delete out[rel.name];
        for (const [ref, fk] of mapping) out[fk] = target ? target[ref] : null;
    }
    return out;
}

function sameRecord(target: RestModel, a: Data, b: Data): boolean {
    const key = (values: Data) => idValuesKey(target, values);
    const [only] = Object.values(b);
    const bValues = target.idFields.length > 1 && isObject(only) ? only : b;
    return key(a) === key(bValues);
}

function cannotDetach(model: RestModel, rel: RestRelationship, pointer: string | undefined): RestError {
    const other = rel.field.backLink ?? model.type;
    return new RestError(
        'relationship-conflict',
        `this ${model.type} is linked to a ${rel.target.type} whose "${other}" is required, so that ${rel.target.type} cannot be detached: link it elsewhere or delete it first`,
        { ...(pointer ? { source: { pointer } } : {}), ormCode: 'P2014' },
    );
}

/** The partner's foreign key (referenced field, foreign key) of a non-owner one-to-one, when compound (ZenStack cannot `disconnect` by it). */
function compoundKeyOf(rel: RestRelationship): [string, string][] | undefined {
    const back = rel.field.backLink ? rel.target.relationships.get(rel.field.backLink) : undefined;
    const mapping = Object.entries(back?.field.foreignKeyMapping ?? {});
    return mapping.length > 1 ? mapping : undefined;
}

/** The foreign key fields of a one-to-one link, on whichever side they are. */
function linkKeys(rel: RestRelationship): string[] {
    return rel.field.isOwner ? Object.values(rel.field.foreignKeyMapping ?? {}) : (compoundKeyOf(rel) ?? []).map(([, fk]) => fk);
}

/**
 * Non-owner side: for each one-to-one link in `data`, detaches the record's current partner first with a
 * policy-checked update (the displaced record's update rule applies), unless the target is that partner
 * (then the link is dropped from `data`: nothing changes). By a compound key with no partner in sight, a
 * link is written from the owner side (`linkFromOwnerSide`) and `null` changes nothing. Returns the data left to write.
 */
export async function detachDisplacedPartners(db: CrudContract, model: RestModel, where: Data, data: Data, pointers: LinkPointers, divider: string): Promise<Data> {
    let out = data;
    for (const rel of toOne(model, data, false)) {
        if (!rel.field.oneToOne) continue;
        const op = data[rel.name];
        const unlink = isObject(op) && op.disconnect === true;
        if (!rel.field.otherSideOptional && unlink) {
            // the ORM refuses it whether or not a record is linked (P2014): the other side's foreign key is required
            throw payloadError(
                pointers[rel.name] ?? '/data',
                `"${rel.name}" cannot be set to null: a ${rel.target.type}'s "${rel.field.backLink}" is required (delete the ${rel.target.type} or link it elsewhere)`,
            );
        }
        const wanted = connectOf(op);
        const key = rel.field.otherSideOptional ? compoundKeyOf(rel) : undefined;
        if (!wanted && !(unlink && key)) continue;
        const select: Data = { [rel.name]: { select: idSelect(rel.target) } };
        for (const [ref] of key ?? []) select[ref] = true;
        const record = (await db[model.key].findUnique({ where, select })) as Data | null;
        if (!record) continue; // not visible: the write itself fails and is explained
        const current = record[rel.name] as Data | null | undefined;
        if (current && wanted && sameRecord(rel.target, current, wanted)) {
            out = withoutKey(out, rel.name);
            continue;
        }
        if (!rel.field.otherSideOptional) {
            // a partner the user cannot see makes Prisma refuse the link (P2014), explained by explainLinkConflict
            if (current && wanted) {
                // a target that is not there (or not readable) is what is wrong: the same 404 as for any other link
                const target = await db[rel.target.key].findUnique({ where: wanted, select: idSelect(rel.target) });
                throw target ? cannotDetach(model, rel, pointers[rel.name]) : relatedNotFound(rel, wanted, pointers[rel.name], divider);
            }
            continue;
        }
        if (key && !current) {
            // no partner in sight; one the user cannot see is never detached (ZenStack cannot check its rule from here)
            if (wanted) await linkFromOwnerSide(db, rel, key, record, wanted, pointers[rel.name] ?? '/data', divider);
            out = withoutKey(out, rel.name);
            continue;
        }
        await detachPartner(db, model, rel, where, current);
        if (unlink) out = withoutKey(out, rel.name);
    }
    return out;
}

/**
 * Links `wanted` to `record` (which holds the referenced values of `key`) by writing the target's foreign key,
 * under the target's update rule. A partner the user cannot see holds that key: the unique violation is a 409
 * (`explainLinkConflict`). A target missing or unreadable is the 404 of any link.
 */
async function linkFromOwnerSide(db: CrudContract, rel: RestRelationship, key: [string, string][], record: Data, wanted: Data, pointer: string, divider: string): Promise<void> {
    if (key.some(([ref]) => record[ref] === undefined)) {
        throw payloadError(pointer, `"${rel.name}" cannot be linked from this side: a field its key references is not readable (link it from the ${rel.target.type})`);
    }
    if (!(await db[rel.target.key].findUnique({ where: wanted, select: idSelect(rel.target) }))) throw relatedNotFound(rel, wanted, pointer, divider);
    try {
        await db[rel.target.key].update({ where: wanted, data: Object.fromEntries(key.map(([ref, fk]) => [fk, record[ref]])), select: idSelect(rel.target) });
    } catch (err) {
        // linked, but the user may no longer read the target
        if (classifyError(err).kind !== 'not-readable') throw err;
    }
}

/**
 * Detaches the record's current partner under the partner's update rule. One the user can see is
 * detached by an update of the partner itself (its foreign key set to null), which works for every key
 * shape; otherwise a `disconnect` is sent from this side, for a partner the user cannot see (ZenStack
 * checks its rule the same way; never by a compound key, which ZenStack cannot express: see above).
 */
async function detachPartner(db: CrudContract, model: RestModel, rel: RestRelationship, where: Data, current: Data | null | undefined): Promise<void> {
    const partnerSide = rel.field.backLink;
    try {
        if (current && partnerSide) {
            await db[rel.target.key].update({ where: whereByIdValues(rel.target, current), data: { [partnerSide]: { disconnect: true } }, select: idSelect(rel.target) });
        } else {
            await db[model.key].update({ where, data: { [rel.name]: { disconnect: true } }, select: idSelect(model) });
        }
    } catch (err) {
        // the detach happened (its result is not readable): the link follows in the same transaction
        if (classifyError(err).kind !== 'not-readable') throw err;
    }
}

/** The fields (or the index name) of a unique violation, as far as the error tells them (PostgreSQL's come quoted). */
function violatedFields(err: unknown): string[] {
    const meta = (err as { meta?: Data }).meta ?? {};
    const constraint = (meta.driverAdapterError as { cause?: { constraint?: { fields?: unknown; index?: unknown } } } | undefined)?.cause?.constraint;
    const target = meta.target ?? constraint?.fields ?? constraint?.index;
    const names = Array.isArray(target) ? target.map(String) : typeof target === 'string' ? [target] : [];
    return names.map((n) => n.replace(/^"(.*)"$/, '$1'));
}

/**
 * The error of a write with one-to-one links, said about the relationship: a unique violation of a link's
 * foreign key (the target, or by a compound key from the other side this record, has a partner already) is
 * a 409 pointing at it, as is a required relation Prisma refuses to break (P2014). `undefined` for any other error.
 */
export function explainLinkConflict(err: unknown, model: RestModel, data: Data, pointers: LinkPointers): RestError | undefined {
    const classified = classifyError(err);
    if (classified.kind === 'unique') {
        const fields = violatedFields(err);
        const links = [...toOne(model, data, true), ...toOne(model, data, false)].filter((rel) => rel.field.oneToOne && connectOf(data[rel.name]));
        const rel = links.find((r) => linkKeys(r).some((fk) => fields.some((f) => f === fk || f.includes(`_${fk}_`) || f.endsWith(`_${fk}`))));
        if (!rel) return undefined;
        const pointer = pointers[rel.name];
        const [taken, holder, other] = rel.field.isOwner ? [`the ${rel.target.type} to link`, rel.target.type, model.type] : [`this ${model.type}`, model.type, rel.target.type];
        return new RestError('unique-violation', `${taken} is already linked to another ${other} (a ${holder} has at most one): unlink it first`, {
            ...(pointer ? { source: { pointer } } : {}),
            ormCode: classified.ormCode,
        });
    }
    if (classified.ormCode === 'P2014') {
        const required = toOne(model, data, false).filter((rel) => rel.field.oneToOne && !rel.field.otherSideOptional);
        if (required.length === 1) return cannotDetach(model, required[0], pointers[required[0].name]);
    }
    return undefined;
}

/** Runs `write`, replacing a one-to-one conflict it fails with by the error `explainLinkConflict` gives. */
export async function withLinkConflicts<T>(model: RestModel, data: Data, pointers: LinkPointers, write: () => Promise<T>): Promise<T> {
    try {
        return await write();
    } catch (err) {
        throw explainLinkConflict(err, model, data, pointers) ?? err;
    }
}
