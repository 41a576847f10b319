import type { Response } from '../../../../types';
import { DocumentBuilder, type Linkage } from '../../document/builder';
import { buildDocument } from '../../document/documents';
import { queryString, resourceLink, routeUrl, withQuery } from '../../document/links';
import { keysHidden, planOf, type RelationshipPlan } from '../../document/model-plan';
import { idSelect, whereById } from '../../ids';
import type { QueryEntry } from '../../query/params';
import { parseRelationshipQuery } from '../../query/read-query';
import { parsePage } from '../../query/page';
import { idOrder, projectionFor } from '../../query/select';
import type { CollectionQuery } from '../../query/types';
import type { RestRequest } from '../../request';
import type { RestModel, RestRelationship } from '../../schema';
import { collectionLinks } from './collection-links';
import { NOT_READABLE_MESSAGE } from '../../../common/errors';
import { RestError } from '../../errors';
import { hiddenRelationship, readToManyPage, readToOne } from './relation-reads';
import { delegate, notFound, ok } from './shared';
import { loadApart } from './to-one-apart';

/** Query and links source of a relationship document: the request's own for a GET, defaults for write responses. */
interface RelationshipRead {
    /** `include` here is the tree below the relationship (its target's), as on the related endpoint. */
    query: Pick<CollectionQuery, 'where' | 'orderBy' | 'page' | 'include' | 'fields'>;
    entries: readonly QueryEntry[];
    /** The request URL without parameters (GET), or undefined for the canonical relationship URL. */
    base?: string;
    id?: string;
    /** The answer to a relationship write (which happened even when the user may not read the relationship). */
    afterWrite?: boolean;
    /** `include=` was given without a path: an empty `included`. */
    emptyInclude?: boolean;
}

/** A relationship hidden from the user by a field-level read rule: 404 to a read, 403 "not readable" after a write (which is kept). */
function hidden(model: RestModel, rel: RestRelationship, read: RelationshipRead): RestError {
    if (!read.afterWrite) return hiddenRelationship(model, read.id, rel);
    return new RestError('forbidden', NOT_READABLE_MESSAGE, { reason: 'RESULT_NOT_READABLE' });
}

export function relationshipPlan(model: RestModel, rel: RestRelationship): RelationshipPlan {
    const plan = planOf(model).relationshipByName.get(rel.name);
    if (!plan) throw new Error(`unknown relationship ${model.type}.${rel.name}`);
    return plan;
}

async function relationshipDoc(req: RestRequest, model: RestModel, where: Record<string, unknown>, rel: RestRelationship, status: number, read: RelationshipRead): Promise<Response> {
    const { include, fields } = read.query;
    const builder = new DocumentBuilder(req.config.idDivider, fields, req.config.pageSize);
    const target = rel.target;
    const plan = relationshipPlan(model, rel);

    // with `include`, the related records are read as the related endpoint reads its primary data (linkage of every
    // to-one they have, also the ones read apart), and rendered into `included`
    if (rel.isArray) {
        const projection = include ? projectionFor(target, include, fields, req.config) : { select: idSelect(target) };
        const { parentRecord, rows, total, hidden: isHidden } = await readToManyPage(req, model, where, rel, read.query, projection, read.id);
        if (isHidden) throw hidden(model, rel, read);
        if (include) await loadApart(req.prisma, target, rows, include, fields, req.config);
        const parentSelf = resourceLink(model, builder.identifier(model, parentRecord).id);
        const data = rows.map((row) => {
            if (include) builder.enqueue(target, row, include);
            return builder.identifier(target, row);
        });
        const links = collectionLinks(read.base ?? parentSelf + plan.selfSuffix, read.entries, read.query.page, total);
        return ok(buildDocument(builder, data, { ...links, related: parentSelf + plan.relatedSuffix }, { included: include !== undefined || read.emptyInclude === true, total }), status);
    }

    const select: Record<string, unknown> = { ...idSelect(model) };
    // read apart (to-one-apart.ts), with linkage from its target: its foreign keys only
    const apart = plan.linkageApart;
    if (plan.fkFields || apart) {
        for (const fk of plan.linkKeys!.local) select[fk] = true;
    } else {
        select[rel.name] = { select: idSelect(target) };
    }
    let record = await delegate(req.prisma, model).findUnique({ where, select });
    if (!record) throw notFound(model, read.id);
    if (plan.fkFields && keysHidden(plan, record)) {
        // a foreign key the user may not read (a field-level rule, `@omit`) tells nothing: the relation, if readable, does
        const linked = await delegate(req.prisma, model).findUnique({ where, select: { ...idSelect(model), [rel.name]: { select: idSelect(target) } } });
        // the record, found above, left out of the nested read: a required target the user may not read (when the
        // relation has a rule of its own, whether that rule allows it cannot be told then)
        if (!linked && rel.field.readProtected) throw hidden(model, rel, read);
        record = linked ?? { ...record, [rel.name]: null };
        if (record[rel.name] === undefined) throw hidden(model, rel, read);
    } else if (apart) await loadApart(req.prisma, model, [record], undefined, new Map([[model.type, new Set([rel.name])]]), req.config);
    else if (!plan.fkFields && record[rel.name] === undefined) throw hidden(model, rel, read);
    // the parent only gives the linkage: it is not in the document (an include path may lead back to it)
    const resource = new DocumentBuilder(req.config.idDivider).resource(model, record, undefined);
    const data: Linkage = resource.relationships[rel.name]?.data ?? null;
    if (include && data) {
        // under the target's read rule, and the relation's: a target the user may not read, or a relation a field-level
        // rule hides while its foreign key gives the linkage, is not included
        const { related } = await readToOne(req, model, where, rel, projectionFor(target, include, fields, req.config), read.id, true);
        if (related) {
            await loadApart(req.prisma, target, [related], include, fields, req.config);
            builder.enqueue(target, related, include);
        }
    }
    const parentSelf = resource.links.self;
    // a GET's `self` is the request URL with its parameters, as on every other read
    const self = read.base === undefined ? parentSelf + plan.selfSuffix : withQuery(read.base, queryString(read.entries));
    return ok(buildDocument(builder, data, { self, related: parentSelf + plan.relatedSuffix }, { included: include !== undefined || read.emptyInclude === true }), status);
}

/**
 * The relationship document of `relationship` of the record of `model` matching the unique `where`,
 * as `GET /:type/:id/relationships/:relationship` renders it without parameters (to-many: the first
 * page by id, `meta.total`, pagination links). For write responses: `links.self` is the canonical
 * relationship URL, `links.related` the related-resources URL; 404 `not-found` if the record is gone.
 */
export async function relationshipDocument(
    req: RestRequest,
    model: RestModel,
    where: Record<string, unknown>,
    relationship: RestRelationship,
    status = 200,
): Promise<Response> {
    const query = { orderBy: idOrder(relationship.target), page: parsePage({}, req.config) };
    return relationshipDoc(req, model, where, relationship, status, { query, entries: [], afterWrite: true });
}

/** GET /:type/:id/relationships/:relationship */
export async function fetchRelationship(req: RestRequest): Promise<Response> {
    const { model, id, relationship } = req.route;
    if (!relationship) throw new Error('route without relationship');
    const where = whereById(model, id, req.config.idDivider);
    const base = routeUrl(req.route);
    const { query, entries, emptyInclude } = parseRelationshipQuery(req, model, relationship);
    return relationshipDoc(req, model, where, relationship, 200, { query, entries, base, id, emptyInclude });
}
