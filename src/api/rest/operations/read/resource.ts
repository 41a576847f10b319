import type { Response } from '../../../../types';
import { DocumentBuilder } from '../../document/builder';
import { buildDocument } from '../../document/documents';
import { queryString, routeUrl, withQuery } from '../../document/links';
import { whereById } from '../../ids';
import type { QueryEntry } from '../../query/params';
import { parseDocumentQuery } from '../../query/read-query';
import { projectionFor } from '../../query/select';
import type { DocumentQuery } from '../../query/types';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';
import { delegate, notFound, ok } from './shared';
import { loadApart } from './to-one-apart';

/** The request URL (canonical path, the request's parameters): the top-level `links.self` of a read. */
export function requestSelf(req: RestRequest, entries: readonly QueryEntry[]): string {
    return withQuery(routeUrl(req.route), queryString(entries));
}

async function resourceDocument(
    req: RestRequest,
    model: RestModel,
    where: Record<string, unknown>,
    query: DocumentQuery,
    status: number,
    self: string | undefined,
    id?: string,
): Promise<Response> {
    const record = await delegate(req.prisma, model).findUnique({ where, ...projectionFor(model, query.include, query.fields, req.config) });
    if (!record) {
        throw notFound(model, id);
    }
    return renderResourceDocument(req, model, record, query, status, self);
}

/**
 * The single-resource document of a record read with `projectionFor(model, query.include, query.fields)`
 * (by a read, or as the read-back of a write), completed with the included relationships read apart.
 * The top-level `links.self` is `self`, or the resource's own URL.
 */
export async function renderResourceDocument(
    req: RestRequest,
    model: RestModel,
    record: Record<string, unknown>,
    query: DocumentQuery,
    status: number,
    self?: string,
): Promise<Response> {
    await loadApart(req.prisma, model, [record], query.include, query.fields, req.config);
    const builder = new DocumentBuilder(req.config.idDivider, query.fields, req.config.pageSize);
    const data = builder.resource(model, record, undefined, query.include);
    return ok(buildDocument(builder, data, { self: self ?? data.links.self }, { included: query.include !== undefined }), status);
}

/**
 * The single-resource document of the record of `model` matching the unique `where`, exactly as
 * `GET /:type/:id` renders it (404 `not-found` when it does not exist or cannot be read).
 *
 * Writes answer with it after a successful write. `query` shapes the document (`include`,
 * `fields`): parse it with `parseDocumentQuery(req, model).query` BEFORE writing, so that a bad
 * parameter is a 400 and not a half-answered write; when omitted, a GET parses the request's own
 * query and any other method renders the plain document. The top-level `links.self` is the request
 * URL for a GET and the resource's own URL otherwise.
 */
export async function readResourceDocument(
    req: RestRequest,
    model: RestModel,
    where: Record<string, unknown>,
    status = 200,
    query?: DocumentQuery,
): Promise<Response> {
    if (!query && req.method === 'GET') {
        const parsed = parseDocumentQuery(req, model);
        return resourceDocument(req, model, where, parsed.query, status, requestSelf(req, parsed.entries));
    }
    return resourceDocument(req, model, where, query ?? {}, status, undefined);
}

/** GET /:type/:id */
export async function fetchResource(req: RestRequest): Promise<Response> {
    const { model, id } = req.route;
    const where = whereById(model, id, req.config.idDivider);
    const parsed = parseDocumentQuery(req, model);
    return resourceDocument(req, model, where, parsed.query, 200, requestSelf(req, parsed.entries), id);
}
