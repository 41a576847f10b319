import { pageArgs } from '../../query/page';
import type { CollectionQuery } from '../../query/types';
import type { RestRequest } from '../../request';
import type { RestModel, RestRelationship } from '../../schema';
import { idSelect } from '../../ids';
import type { Projection } from '../../query/select';
import { RestError } from '../../errors';
import { keysHidden, planOf } from '../../document/model-plan';
import { delegate, notFound, readPage } from './shared';
import { whereOfLinked } from './to-one-apart';
import { keepModelReadRule } from '../../../common/read-override';
import { refuseHiddenSort } from './hidden-sort';

/**
 * Reads through a parent resource, so that the parent's existence and visibility are checked by
 * the same query (an unreadable parent is a 404, its existence not revealed).
 */

type DbRecord = Record<string, unknown>;

/**
 * A relationship the ORM leaves out of the parent although it was asked for: a field-level read rule on the
 * relation hides it from this user. It is answered as not found, never as empty, and never counted (ZenStack
 * counts through such a relation).
 */
export function hiddenRelationship(parent: RestModel, parentId: string | undefined, rel: RestRelationship): RestError {
    return new RestError('not-found', `relationship "${rel.name}" of ${parent.type} "${parentId}" not found`);
}

/**
 * One page of a to-many relationship (filtered, sorted) and its total under the same filter; `hidden` when
 * the user may not read the relationship (no rows, no count).
 */
export async function readToManyPage(
    req: RestRequest,
    parent: RestModel,
    parentWhere: Record<string, unknown>,
    rel: RestRelationship,
    query: Pick<CollectionQuery, 'where' | 'orderBy' | 'page'>,
    projection: Projection,
    parentId: string | undefined,
): Promise<{ parentRecord: DbRecord; rows: DbRecord[]; total: number; hidden: boolean }> {
    const nested: DbRecord = { ...projection, orderBy: query.orderBy, ...pageArgs(query.page) };
    // a filter of fields with a read override would let the nested read and its count reach records the target's read rule hides
    const where = keepModelReadRule(rel.target.def, query.where);
    if (where) nested.where = where;
    // hidden from this user: the page is empty and the total is not counted (ZenStack's `_count` would count it)
    let hidden = false;
    const { result, total } = await readPage(
        req,
        query.page,
        async (db) => {
            const found = await delegate(db, parent).findUnique({ where: parentWhere, select: { ...idSelect(parent), [rel.name]: nested } });
            if (!found) throw notFound(parent, parentId);
            hidden = (found as DbRecord)[rel.name] === undefined;
            // over the related records of the parent, now known to be readable (a hidden one is a 404 above, not a 400)
            if (!hidden) await refuseHiddenSort(db, req, rel.target, query.where, query.orderBy, { parent, parentWhere, rel });
            return found as DbRecord;
        },
        (found) => (found[rel.name] ?? []) as DbRecord[],
        async (db) => {
            if (hidden) return 0;
            const counted = await delegate(db, parent).findUnique({
                where: parentWhere,
                select: { _count: { select: { [rel.name]: where ? { where } : true } } },
            });
            if (!counted) throw notFound(parent, parentId);
            return Number((counted._count as DbRecord)[rel.name] ?? 0);
        },
    );
    return { parentRecord: result, rows: (result[rel.name] ?? []) as DbRecord[], total, hidden };
}

/**
 * The related record of a to-one relationship (null when empty or unreadable); 404 when the parent is not found,
 * and when a field-level rule hides the relation, unless `hiddenAsEmpty` (then null). A relation with a field-level
 * rule of its own whose required target the user cannot read counts as hidden (the rule cannot be told then).
 */
export async function readToOne(
    req: RestRequest,
    parent: RestModel,
    parentWhere: Record<string, unknown>,
    rel: RestRelationship,
    projection: Projection,
    parentId: string | undefined,
    hiddenAsEmpty = false,
): Promise<{ parentRecord: DbRecord; related: DbRecord | null }> {
    const plan = planOf(parent).relationshipByName.get(rel.name);
    // the parent as found before the nested read below, when that read may leave it out although it is there
    let seen: DbRecord | undefined;
    if (plan?.loadedApart && rel.field.readProtected) {
        // a field-level rule decides whether the user may read the relation, which only ZenStack tells, through a nested
        // read; that read leaves the parent out when the user may not read the target: the parent is looked for first
        seen = (await delegate(req.prisma, parent).findUnique({ where: parentWhere, select: idSelect(parent) })) ?? undefined;
        if (!seen) throw notFound(parent, parentId);
    } else if (plan?.loadedApart) {
        // read by its foreign keys: a nested read would hide the parent when the user may not read the target
        const keys = await delegate(req.prisma, parent).findUnique({ where: parentWhere, select: { ...idSelect(parent), ...Object.fromEntries(plan.linkKeys!.local.map((f) => [f, true])) } });
        if (!keys) throw notFound(parent, parentId);
        // keys the user may not read (a field-level rule) tell nothing: the relation is read through the record below
        if (!keysHidden(plan, keys)) {
            const where = whereOfLinked(plan, keys);
            const related = where ? ((await delegate(req.prisma, rel.target).findFirst({ where, ...projection })) as DbRecord | null) : null;
            return { parentRecord: keys, related };
        }
        seen = keys;
    }
    // `true` when the projection is empty: the related record whole
    const nested = 'select' in projection || projection.include ? projection : true;
    const read = await delegate(req.prisma, parent).findUnique({ where: parentWhere, select: { ...idSelect(parent), [rel.name]: nested } });
    // the parent, found above, left out of the nested read: its required target is one the user may not read
    if (!read && seen && !rel.field.readProtected) return { parentRecord: seen, related: null };
    const found = read ?? seen;
    if (!found) throw notFound(parent, parentId);
    // left out by a field-level rule; or, the parent left out, a target the user may not read, of a relation whose rule
    // cannot then be told: hidden either way
    if (found[rel.name] === undefined) {
        if (hiddenAsEmpty) return { parentRecord: found, related: null };
        throw hiddenRelationship(parent, parentId, rel);
    }
    return { parentRecord: found, related: (found[rel.name] as DbRecord | null) ?? null };
}
