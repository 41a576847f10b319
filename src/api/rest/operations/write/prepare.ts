import type { Response } from '../../../../types';
import { formatId } from '../../ids';
import { parseResourceWrite, validateWrite, type PayloadOptions, type ResourceWrite, type WriteMode } from '../../payload';
import { getJsonNullObjects } from '../../../common/prisma-nulls';
import { enumValuesFor } from '../../query/provider';
import type { DocumentQuery } from '../../query/types';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';
import { parseDocumentQuery } from '../read';
import { encodeSegment } from '../../document/links';

/** Reading and checking a resource write body, shared by create, update and upsert. */

export function payloadOptions(req: RestRequest): PayloadOptions {
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

export interface Prepared {
    write: ResourceWrite;
    /** `include` / `fields` of the response document. */
    query: DocumentQuery;
    /** A 422 from the zod schemas, when the attributes fail them. */
    invalid?: Response;
}

/** Everything that can reject the request, checked before anything is written (an upsert's body is read as a create's). */
export function prepare(req: RestRequest, model: RestModel, mode: WriteMode | 'upsert', urlWhere?: Record<string, unknown>): Prepared {
    const parseAs = mode === 'upsert' ? 'create' : mode;
    const write = parseResourceWrite(model, req.body, parseAs, payloadOptions(req), urlWhere);
    const query = parseDocumentQuery(req, model).query;
    return { write, query, invalid: validateWrite(req.zodSchemas, model, parseAs, write, mode === 'upsert') };
}

export function selfLink(res: Response, model: RestModel, record: Record<string, unknown>, divider: string): string {
    const self = (res.body as { data?: { links?: { self?: unknown } } } | undefined)?.data?.links?.self;
    return typeof self === 'string' ? self : model.linkPrefix + encodeSegment(model, String(formatId(model, record, divider)));
}
