import type { Response } from '../../../../types';
import { RestError } from '../../errors';
import { formatId, whereById } from '../../ids';
import { parseResourceWrite, validateWrite, type PayloadOptions, type ResourceWrite, type WriteMode } from '../../payload';
import { idFieldValues } from '../../payload/document';
import { getJsonNullObjects } from '../../../common/prisma-nulls';
import { enumValuesFor } from '../../query/provider';
import type { DocumentQuery } from '../../query/types';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';
import { parseDocumentQuery, renderResourceDocument } from '../read';
import { selectFor } from '../../query/select';
import { delegateOf, explainFailure, guardedWrite } from './guard';
import { updateRecord } from './replace';

/** POST /:type, PATCH|PUT /:type/:id, DELETE /:type/:id. */

function payloadOptions(req: RestRequest): PayloadOptions {
    return {
        divider: req.config.idDivider,
        enumValues: (name) => enumValuesFor(req, name),
        jsonNull: (name) => {
            try {
                return getJsonNullObjects(req.prisma)[name];
            } catch {
                return undefined; // the client's runtime cannot be found: plain null is passed as it is
            }
        },
    };
}

interface Prepared {
    write: ResourceWrite;
    /** `include` / `fields` of the response document. */
    query: DocumentQuery;
    /** A 422 from the zod schemas, when the attributes fail them. */
    invalid?: Response;
}

/** Everything that can reject the request, checked before anything is written. */
function prepare(req: RestRequest, model: RestModel, mode: WriteMode, urlWhere?: Record<string, unknown>): Prepared {
    const write = parseResourceWrite(model, req.body, mode, payloadOptions(req), urlWhere);
    const query = parseDocumentQuery(req, model).query;
    return { write, query, invalid: validateWrite(req.zodSchemas, model, mode, write) };
}

function selfLink(res: Response, model: RestModel, record: Record<string, unknown>, divider: string): string {
    const self = (res.body as { data?: { links?: { self?: unknown } } } | undefined)?.data?.links?.self;
    return typeof self === 'string' ? self : model.linkPrefix + encodeURIComponent(String(formatId(model, record, divider)));
}

export async function createResource(req: RestRequest): Promise<Response> {
    const model = req.route.model;
    const { write, query, invalid } = prepare(req, model, 'create');
    if (invalid) return invalid;
    // the write's own read-back (under the policy) is the record of the response document
    const select = selectFor(model, query.include, query.fields, req.config);
    const created: Record<string, unknown> = await guardedWrite(req, { model, identifiers: write.identifiers }, () =>
        delegateOf(req, model).create({ data: write.data, select }),
    );
    const res = renderResourceDocument(req, model, created, query, 201);
    return { ...res, headers: { ...res.headers, Location: selfLink(res, model, created, req.config.idDivider) } };
}

export async function updateResource(req: RestRequest): Promise<Response> {
    const { model, id } = req.route;
    const where = whereById(model, id, req.config.idDivider);
    const { write, query, invalid } = prepare(req, model, 'update', where);
    if (invalid) return invalid;
    const select = selectFor(model, query.include, query.fields, req.config);
    const updated = await updateRecord(req, { model, where, id, identifiers: write.identifiers }, write.data, select);
    return renderResourceDocument(req, model, updated, query, 200);
}

export async function deleteResource(req: RestRequest): Promise<Response> {
    const { model, id } = req.route;
    const where = whereById(model, id, req.config.idDivider);
    // deleteMany applies the delete policy as a filter and needs no read-back, so a record that may
    // be deleted but not read is deleted; nothing deleted means missing (404) or denied (403)
    const { count } = await delegateOf(req, model).deleteMany({ where: idFieldValues(model, where) });
    if (count === 0) {
        const explained = await explainFailure(req, { model, where, id, identifiers: [] });
        throw explained ?? new RestError('forbidden', 'denied by access policy', { ormCode: 'P2004', reason: 'ACCESS_POLICY_VIOLATION' });
    }
    return { status: 204, body: undefined };
}
