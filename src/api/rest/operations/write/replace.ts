import type { CrudContract } from '@zenstackhq/runtime';
import { isNotReadable, transactionKeepingWrites } from '../../../common/transactions';
import { readThenWriteOptions } from '../../../common/isolation';
import { idSelect } from '../../ids';
import { idFieldValues } from '../../payload/document';
import { hasOwn, isObject } from '../../payload/pointer';
import { uniqueWhereOf } from '../../payload/relations';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';
import type { Projection } from '../../query/select';
import { detachCompoundMembers } from './compound-members';
import { changeMembersAtOnce, listedMemberFilters, OneByOne } from './members-at-once';
import { delegateOf, guardedWrite, resourceNotFound, type WriteTarget } from './guard';
import { idValuesKey, MAX_LINKAGE } from '../../payload/identifiers';
import { payloadError } from '../../payload/pointer';
import { detachDisplacedPartners, ownerLinksAsForeignKeys, withLinkConflicts, type LinkPointers } from './one-to-one';
import { checkLinks } from './self-many-to-many';
import { providerOf } from '../../../common/isolation';
import { inParts, partSize, splitsMemberLists, updatesInParts } from './member-parts';

/**
 * Relationship changes on an existing record, made safe under ZenStack v2's access policy:
 *
 * - A Prisma `set` on a to-many relationship disconnects the old members without checking the
 *   update policy of the records it detaches (only `disconnect` is checked). So `set` is never sent:
 *   the current members the user can see are read, and the difference is sent as `disconnect`
 *   (policy-checked) plus `connect` (policy-checked). Members the user cannot see stay attached:
 *   a replacement replaces the set as the user sees it.
 * - A removal (`disconnect`) from a to-many relationship is narrowed to the current members the user
 *   can see: removing a non-member changes nothing, as JSON:API has it (Prisma would otherwise fail
 *   on a required foreign key even though nothing is detached). An addition (`connect`) is narrowed to
 *   the records that are not such members yet: adding a member already present changes nothing and
 *   succeeds, as JSON:API requires (ZenStack would check the member's update rule all the same).
 * - An update whose data holds only relationship changes does not check the record's own policy,
 *   so the record is first read under the policy: if the user cannot see it, it is a 404 and
 *   nothing is written.
 *
 * - One-to-one links neither detach a displaced record without its update rule nor link a target
 *   the user cannot see (see one-to-one.ts).
 * - Links through a many-to-many relation from a model to itself are checked under the update rules
 *   ZenStack skips there (see self-many-to-many.ts).
 *
 * All of it happens inside one interactive transaction with the write, on the enhanced client.
 */

type Data = Record<string, unknown>;

function relationKeys(model: RestModel, data: Data): string[] {
    return Object.keys(data).filter((k) => model.relationships.has(k));
}

/**
 * The options of a transaction writing `data`: a to-many replacement is computed from the members read in
 * the same transaction, so it runs serializable where the database offers it (see `readThenWriteOptions`).
 */
export function writeOptions(req: RestRequest, model: RestModel, data: Data): { isolationLevel: string } | undefined {
    const replaces = Object.entries(data).some(([k, op]) => model.relationships.get(k)?.isArray && isObject(op) && Array.isArray(op.set));
    return replaces ? readThenWriteOptions(req.prisma) : undefined;
}

/** The unique `where` of a record from its id fields. */
function whereOfRecord(model: RestModel, record: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const f of model.idFields) values[f.name] = record[f.name];
    const where = uniqueWhereOf(model, values);
    if (!where) throw new Error(`no unique constraint for the id of ${model.type}`);
    return where;
}

/** What is read of the current members: their ids and, on a `@@delegate` base, their kind. */
function memberSelect(target: RestModel): Data {
    const kind = target.def.discriminator;
    return kind ? { ...idSelect(target), [kind]: true } : idSelect(target);
}

/**
 * Whether an identifier's `where` names one of the current members (`byKey`, by id key): the same id and, for an
 * identifier of a concrete type of a `@@delegate` base (its `where` carries the kind), a member of that kind.
 */
function namesMember(target: RestModel, where: Data, byKey: ReadonlyMap<string, Data>): boolean {
    const member = byKey.get(idValuesKey(target, idFieldValues(target, where)));
    const kind = target.def.discriminator;
    return member !== undefined && !(kind && hasOwn(where, kind) && member[kind] !== where[kind]);
}

/** The id field values an identifier's unique `where` names, as a plain filter (without the kind it may carry). */
function idValuesOf(target: RestModel, where: Data): Data {
    const values = idFieldValues(target, where);
    const out: Data = {};
    for (const f of target.idFields) out[f.name] = values[f.name];
    return out;
}

function membersByKey(target: RestModel, current: Data[]): Map<string, Data> {
    return new Map(current.map((c) => [idValuesKey(target, c), c]));
}

/** Rewrites `{ set }` as `{ disconnect, connect }` against the members in `current`. */
function diffSet(target: RestModel, wanted: Record<string, unknown>[], current: Record<string, unknown>[]): Data | undefined {
    const byKey = membersByKey(target, current);
    const kept = new Set(wanted.filter((w) => namesMember(target, w, byKey)).map((w) => idValuesKey(target, idFieldValues(target, w))));
    const disconnect = current.filter((c) => !kept.has(idValuesKey(target, c))).map((c) => whereOfRecord(target, c));
    const connect = wanted.filter((w) => !namesMember(target, w, byKey));
    const op: Data = {};
    if (disconnect.length > 0) op.disconnect = disconnect;
    if (connect.length > 0) op.connect = connect;
    return Object.keys(op).length > 0 ? op : undefined;
}

/**
 * How many current members a replacement reads at most: enough to tell whether it would detach more than
 * `MAX_LINKAGE` of them (it keeps at most the `wanted` ones it lists), without reading a relationship of
 * any size whole.
 */
function replacedMembersTake(wanted: number): number {
    return MAX_LINKAGE + wanted + 1;
}

/**
 * A replacement detaches at most `MAX_LINKAGE` members, as many as a request may name: each is checked and
 * detached one by one (ZenStack checks the update rule of every detached record with statements of its own),
 * so more would run past the transaction's timeout or, on SQLite, Prisma's bound on query parameters, after
 * holding the database for seconds, and could never succeed.
 */
function tooManyDetached(model: RestModel, rel: string, pointer: string | undefined): never {
    throw payloadError(
        pointer ?? '/data',
        `replacing "${rel}" would detach more than ${MAX_LINKAGE} of its current members; a request detaches at most ${MAX_LINKAGE}: ` +
            `remove members in batches with DELETE on /${model.segment}/:id/relationships/${rel} first`,
    );
}

/**
 * Reads what the relationship changes in `data` need (the record itself, the visible members of
 * replaced to-many relationships) and returns the data to write, or `null` when the record is not
 * visible to the user. Data without relationship changes is returned as it is, without a read.
 * A replacement that would detach more than `MAX_LINKAGE` members is a 400 (`pointers`: where the body
 * gives each relationship), before anything is written.
 */
export async function resolveRelationChanges(db: CrudContract, model: RestModel, where: Data, data: Data, pointers: LinkPointers = {}): Promise<Data | null> {
    const keys = relationKeys(model, data);
    if (keys.length === 0) return data;
    const select: Data = { ...idSelect(model) };
    const replaced: string[] = [];
    const narrowed: Array<[string, 'connect' | 'disconnect']> = [];
    /**
     * Narrowed relationships whose listed members are read apart, part by part: by their foreign key (members-at-once.ts)
     * or from the record (member-parts.ts). A read answers `null` when the record is not there.
     */
    const apart = new Map<string, Array<() => Promise<Data[] | null>>>();
    for (const k of keys) {
        const op = data[k];
        const rel = model.relationships.get(k);
        if (!rel?.isArray || !isObject(op)) continue;
        if (Array.isArray(op.set)) {
            replaced.push(k);
            select[k] = { select: memberSelect(rel.target), take: replacedMembersTake(op.set.length) };
            continue;
        }
        const verb = Array.isArray(op.disconnect) ? 'disconnect' : Array.isArray(op.connect) ? 'connect' : undefined;
        if (!verb) continue;
        narrowed.push([k, verb]);
        // an addition or removal needs only the listed records that are members, not every member
        const members = memberSelect(rel.target);
        const filters = listedMemberFilters(model, rel, where, op[verb] as Data[]);
        if (filters) {
            apart.set(k, filters.map((f) => () => db[rel.target.key].findMany({ where: f, select: members }) as Promise<Data[]>));
            continue;
        }
        const parts = inParts((op[verb] as Data[]).map((w) => idValuesOf(rel.target, w)), partSize(rel.target));
        const fromRecord = (part: Data[]) => ({ [k]: { select: members, where: { OR: part } } });
        if (parts.length <= 1) {
            Object.assign(select, fromRecord(parts[0] ?? []));
            continue;
        }
        const readPart = async (part: Data[]) => ((await db[model.key].findUnique({ where, select: fromRecord(part) })) as Data | null)?.[k] as Data[] | null;
        apart.set(k, parts.map((part) => () => readPart(part)));
    }
    const record: Data | null = await db[model.key].findUnique({ where, select });
    if (!record) return null;
    for (const [k, reads] of apart) {
        const members: Data[] = [];
        for (const read of reads) {
            const part = await read();
            if (!part) return null;
            members.push(...part);
        }
        record[k] = members;
    }
    if (replaced.length === 0 && narrowed.length === 0) return data;
    const out: Data = { ...data };
    for (const k of replaced) {
        const target = model.relationships.get(k)!.target;
        const wanted = (data[k] as { set: Data[] }).set;
        const current = (record[k] as Data[]) ?? [];
        // as many as read: there may be more, and then more than MAX_LINKAGE are not listed
        if (current.length >= replacedMembersTake(wanted.length)) tooManyDetached(model, k, pointers[k]);
        const op = diffSet(target, wanted, current);
        if (op && Array.isArray(op.disconnect) && op.disconnect.length > MAX_LINKAGE) tooManyDetached(model, k, pointers[k]);
        if (op) out[k] = op;
        else delete out[k];
    }
    for (const [k, verb] of narrowed) {
        // removing a non-member, or adding a member already there (that the user can see), changes nothing
        // (JSON:API: a POST of members already present succeeds): only the others are sent, under their rules
        const target = model.relationships.get(k)!.target;
        const byKey = membersByKey(target, (record[k] as Data[]) ?? []);
        const wanted = verb === 'disconnect';
        const members = (data[k] as Record<typeof verb, Data[]>)[verb].filter((w) => namesMember(target, w, byKey) === wanted);
        if (members.length > 0) out[k] = { [verb]: members };
        else delete out[k];
    }
    return out;
}

/**
 * Updates the record a URL names with `data` (attributes and/or relationship changes), policy-safe and
 * in one transaction, and returns it as `projection` shapes it (the write's own read-back under the policy:
 * the response document needs no second read).
 */
export async function updateRecord(req: RestRequest, target: WriteTarget & { where: Data }, data: Data, projection: Projection = { select: idSelect(target.model) }): Promise<Data> {
    const { model, where } = target;
    return guardedWrite(req, { ...target, noChange: Object.keys(data).length === 0 }, async () => {
        if (relationKeys(model, data).length === 0) {
            return delegateOf(req, model).update({ where, data, ...projection }) as Promise<Data>;
        }
        const pointers = target.linkPointers ?? {};
        const write = (oneByOne: boolean) =>
            transactionKeepingWrites(
                req.prisma,
                async (t) => {
                    const tx = t as CrudContract;
                    const resolved = await resolveRelationChanges(tx, model, where, data, pointers);
                    if (!resolved) throw resourceNotFound(model, target.id);
                    const linked = await applyRelationChanges(req, tx, model, where, resolved, pointers, oneByOne);
                    await checkLinks(req, tx, model, 'update', { where, data: linked });
                    return updateInParts(req, tx, model, where, linked, projection);
                },
                writeOptions(req, model, data),
            );
        return withLinkConflicts(model, data, pointers, () => withMembersRetry(write));
    });
}

/**
 * The record's update with `data`, its long member lists in parts where the database needs them (member-parts.ts).
 * A part after which the record is not readable (a rule on its members) has been written: the parts that follow
 * are written too, and the last one, which holds the attributes, tells whether the user may read the result.
 * Stopping there committed the parts so far as if the write were whole (transactionKeepingWrites).
 */
async function updateInParts(req: RestRequest, tx: CrudContract, model: RestModel, where: Data, data: Data, projection: Projection): Promise<Data> {
    const updates = splitsMemberLists(providerOf(req.prisma)) ? updatesInParts(model, data) : [data];
    const last = updates.pop()!;
    for (const part of updates) {
        try {
            await tx[model.key].update({ where, data: part, select: idSelect(model) });
        } catch (err) {
            if (!isNotReadable(err)) throw err;
        }
    }
    return (await tx[model.key].update({ where, data: last, ...projection })) as Data;
}

/**
 * Runs `write` linking and detaching members at once (`oneByOne` false); when that cannot tell the answer the nested
 * writes would give (members-at-once.ts), once more with the nested writes.
 */
export async function withMembersRetry<T>(write: (oneByOne: boolean) => Promise<T>): Promise<T> {
    try {
        return await write(false);
    } catch (err) {
        if (err instanceof OneByOne) return write(true);
        throw err;
    }
}

/**
 * The writes the resolved relationship changes of an update of an existing record need before the record's
 * own update: members of one-to-many relationships linked and detached at once (members-at-once.ts; with the nested
 * writes when `oneByOne`), compound-id members detached (compound-members.ts), then the one-to-one part.
 */
export async function applyRelationChanges(req: RestRequest, tx: CrudContract, model: RestModel, where: Data, data: Data, pointers: LinkPointers, oneByOne = false): Promise<Data> {
    const detached = oneByOne ? data : await changeMembersAtOnce(tx, model, where, data);
    const left = await detachCompoundMembers(tx, model, detached);
    return linkOneToOne(req, tx, model, where, left, pointers);
}

/** The one-to-one part of an update of an existing record: displaced partners detached under the policy, owned links as foreign keys. */
export async function linkOneToOne(req: RestRequest, tx: CrudContract, model: RestModel, where: Data, data: Data, pointers: LinkPointers): Promise<Data> {
    const left = await detachDisplacedPartners(tx, model, where, data, pointers, req.config.idDivider);
    return ownerLinksAsForeignKeys(tx, model, left, pointers, req.config.idDivider);
}
