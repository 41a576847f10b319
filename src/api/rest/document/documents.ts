import { JSONAPI_VERSION } from '../errors';
import type { DocumentBuilder, Linkage, ResourceObject } from './builder';

/** Top-level JSON:API documents: primary data, `included`, `meta` (total, serialization), `links`, `jsonapi`. */

export type TopLinks = Record<string, string | null>;

export interface JsonApiDocument {
    data: ResourceObject | ResourceObject[] | Linkage;
    included?: ResourceObject[];
    meta?: Record<string, unknown>;
    links: TopLinks;
    jsonapi: typeof JSONAPI_VERSION;
}

/**
 * Finishes a document: renders what is queued for `included` (present whenever `include` was
 * asked for), and adds `meta.serialization` only when some value needed a tag.
 */
export function buildDocument(
    builder: DocumentBuilder,
    data: JsonApiDocument['data'],
    links: TopLinks,
    options: { included: boolean; total?: number },
): JsonApiDocument {
    const { included, values } = builder.finish();
    const doc: JsonApiDocument = { data, links, jsonapi: JSONAPI_VERSION };
    if (options.included) doc.included = included;
    if (options.total !== undefined || values) {
        const meta: Record<string, unknown> = {};
        if (options.total !== undefined) meta.total = options.total;
        if (values) meta.serialization = { values };
        doc.meta = meta;
    }
    return doc;
}
