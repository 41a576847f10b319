import { getJsonNullObjects } from '../../common/prisma-nulls';
import type { RestRequest } from '../request';
import type { RestModel } from '../schema';
import { parseFields } from './fields';
import { buildFilter, type FilterContext } from './filter';
import { parseInclude } from './include';
import { parsePage } from './page';
import { parseParams, type Family, type ParsedParams, type QueryEntry } from './params';
import { parseSort } from './sort';
import type { CollectionQuery, DocumentQuery } from './types';
import { enumValuesFor, previewFeaturesOf, providerOf } from './provider';

/** Query parameters of each kind of read endpoint, parsed and checked before any database access. */

const DOCUMENT_FAMILIES: ReadonlySet<Family> = new Set<Family>(['include', 'fields']);
const COLLECTION_FAMILIES: ReadonlySet<Family> = new Set<Family>(['filter', 'sort', 'page', 'include', 'fields']);
const RELATIONSHIP_FAMILIES: ReadonlySet<Family> = new Set<Family>(['filter', 'sort', 'page']);

export interface Parsed<Q> {
    query: Q;
    /** Every parameter in request order (for links). */
    entries: QueryEntry[];
}

function documentPart(req: RestRequest, model: RestModel, params: ParsedParams): DocumentQuery {
    return {
        include: params.include === undefined ? undefined : parseInclude(model, params.include, req.config.maxIncludeDepth),
        fields: parseFields(req.schema, params.fields),
    };
}

/** For single-resource reads (and write responses): `include` and `fields` only. */
export function parseDocumentQuery(req: RestRequest, model: RestModel): Parsed<DocumentQuery> {
    const params = parseParams(req.query, DOCUMENT_FAMILIES, 'a single resource');
    return { query: documentPart(req, model, params), entries: params.entries };
}

function filterContext(req: RestRequest): FilterContext {
    return {
        provider: providerOf(req.prisma),
        previewFeatures: previewFeaturesOf(req.prisma),
        maxFilters: req.config.maxFilters,
        maxDepth: req.config.maxIncludeDepth,
        idDivider: req.config.idDivider,
        enumValues: (name) => enumValuesFor(req, name),
        anyNull: () => getJsonNullObjects(req.prisma).AnyNull,
        registry: req.schema.registry,
    };
}

/** For collections of `model` (`/:type`, to-many `/:type/:id/:rel`). */
export function parseCollectionQuery(req: RestRequest, model: RestModel): Parsed<CollectionQuery> {
    const params = parseParams(req.query, COLLECTION_FAMILIES, 'this endpoint');
    return {
        query: {
            ...documentPart(req, model, params),
            where: buildFilter(model, params.filters, filterContext(req)),
            orderBy: parseSort(model, params.sort),
            page: parsePage(params.page, req.config),
        },
        entries: params.entries,
    };
}

/** For to-many relationship endpoints (identifiers only): filter, sort and page. */
export function parseRelationshipQuery(req: RestRequest, model: RestModel): Parsed<CollectionQuery> {
    const params = parseParams(req.query, RELATIONSHIP_FAMILIES, 'relationship endpoints');
    return {
        query: {
            where: buildFilter(model, params.filters, filterContext(req)),
            orderBy: parseSort(model, params.sort),
            page: parsePage(params.page, req.config),
        },
        entries: params.entries,
    };
}

/** For endpoints that take no parameters (to-one relationship endpoints). */
export function parseNoQuery(req: RestRequest): Parsed<DocumentQuery> {
    const params = parseParams(req.query, new Set<Family>(), 'this endpoint');
    return { query: {}, entries: params.entries };
}
