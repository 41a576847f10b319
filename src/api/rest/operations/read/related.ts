import type { Response } from '../../../../types';
import { DocumentBuilder } from '../../document/builder';
import { buildDocument } from '../../document/documents';
import { routeUrl } from '../../document/links';
import { RestError } from '../../errors';
import { formatId, whereById } from '../../ids';
import { parseCollectionQuery, parseDocumentQuery } from '../../query/read-query';
import { projectionFor } from '../../query/select';
import type { RestRequest } from '../../request';
import type { RestModel, RestRelationship } from '../../schema';
import { collectionLinks } from './collection-links';
import { hiddenRelationship, readToManyPage, readToOne } from './relation-reads';
import { renderResourceDocument, requestSelf } from './resource';
import { ok } from './shared';
import { loadApart } from './to-one-apart';

function routed(req: RestRequest): { model: RestModel; id: string | undefined; rel: RestRelationship } {
    const { model, id, relationship } = req.route;
    if (!relationship) throw new Error('route without relationship');
    return { model, id, rel: relationship };
}

/** GET /:type/:id/:relationship: the related resource (to-one, or null) or a page of related resources (to-many). */
export async function fetchRelated(req: RestRequest): Promise<Response> {
    const { model, id, rel } = routed(req);
    const target = rel.target;
    const where = whereById(model, id, req.config.idDivider);

    if (rel.isArray) {
        const { query, entries } = parseCollectionQuery(req, target);
        const projection = projectionFor(target, query.include, query.fields, req.config);
        const { rows, total, hidden } = await readToManyPage(req, model, where, rel, query, projection, id);
        if (hidden) throw hiddenRelationship(model, id, rel);
        await loadApart(req.prisma, target, rows, query.include, query.fields, req.config);
        const builder = new DocumentBuilder(req.config.idDivider, query.fields, req.config.pageSize);
        const data = rows.map((row, i) => builder.resource(target, row, i, query.include));
        const links = collectionLinks(routeUrl(req.route), entries, query.page, total);
        return ok(buildDocument(builder, data, { ...links }, { included: query.include !== undefined, total }));
    }

    const { query, entries } = parseDocumentQuery(req, target);
    const { related } = await readToOne(req, model, where, rel, projectionFor(target, query.include, query.fields, req.config), id);
    if (related) await loadApart(req.prisma, target, [related], query.include, query.fields, req.config);
    const builder = new DocumentBuilder(req.config.idDivider, query.fields, req.config.pageSize);
    const data = related ? builder.resource(target, related, undefined, query.include) : null;
    return ok(buildDocument(builder, data, { self: requestSelf(req, entries) }, { included: query.include !== undefined }));
}

/** A unique `where` (possibly of compound form `{ a_b: { a, b } }`) as a plain filter `{ a, b }`. */
function plainWhere(model: RestModel, unique: Record<string, unknown>): Record<string, unknown> {
    return model.idFields.length > 1 ? { ...(Object.values(unique)[0] as Record<string, unknown>) } : unique;
}

/** GET /:type/:id/:relationship/:relatedId: the related resource with that id, if it belongs to the relationship. */
export async function fetchRelatedById(req: RestRequest): Promise<Response> {
    const { model, id, rel } = routed(req);
    const target = rel.target;
    const relatedId = req.route.relatedId;
    const where = whereById(model, id, req.config.idDivider);
    const relatedWhere = plainWhere(target, whereById(target, relatedId, req.config.idDivider));
    const { query, entries } = parseDocumentQuery(req, target);
    const projection = projectionFor(target, query.include, query.fields, req.config);

    let record: Record<string, unknown> | null;
    if (rel.isArray) {
        // the id is unique: no page, and no transaction or count needed
        const page = { offset: 0, limit: Infinity, explicitLimit: false };
        const { rows } = await readToManyPage(req, model, where, rel, { where: relatedWhere, orderBy: [], page }, projection, id);
        record = rows[0] ?? null;
    } else {
        const { related } = await readToOne(req, model, where, rel, projection, id);
        const wanted = formatId(target, relatedWhere, req.config.idDivider);
        record = related && formatId(target, related, req.config.idDivider) === wanted ? related : null;
    }
    if (!record) {
        // the record may exist outside the relationship (or be hidden): the detail says only that it is not a member
        throw new RestError('not-found', `${target.type} "${relatedId}" not found in relationship "${rel.name}" of ${model.type} "${id}"`);
    }
    return renderResourceDocument(req, target, record, query, 200, requestSelf(req, entries));
}
