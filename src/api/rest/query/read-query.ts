import { getJsonNullObjects } from '../../common/prisma-nulls';
import type { RestRequest } from '../request';
import { RestError } from '../errors';
import type { RestModel, RestRelationship } from '../schema';
import { parseFields } from './fields';
import { buildFilter, type FilterContext } from './filter';
import { checkIncludedRecords, parseInclude } from './include';
import { parsePage } from './page';
import { parseParams, type Family, type ParsedParams, type QueryEntry } from './params';
import { includedToManyTake } from './select';
import { parseSort } from './sort';
import type { CollectionQuery, DocumentQuery, IncludeTree, PageQuery } from './types';
import { enumValuesFor, previewFeaturesOf, providerOf } from './provider';

/** Query parameters of each kind of read endpoint, parsed and checked before any database access. */

const DOCUMENT_FAMILIES: ReadonlySet<Family> = new Set<Family>(['include', 'fields']);
const COLLECTION_FAMILIES: ReadonlySet<Family> = new Set<Family>(['filter', 'sort', 'page', 'include', 'fields']);

export interface Parsed<Q> {
    query: Q;
    /** Every parameter in request order (for links). */
    entries: QueryEntry[];
}

/** `include` and `fields` of a read of `primary` records (a page, or one resource). */
function documentPart(req: RestRequest, model: RestModel, params: ParsedParams, primary: number): DocumentQuery {
    let include: IncludeTree | undefined;
    if (params.include !== undefined) {
        const parsed = parseInclude(model, params.include, req.config.maxIncludeDepth, includedToManyTake(req.config));
        checkIncludedRecords(primary, parsed.reach, req.config.maxIncludedRecords);
        include = parsed.tree;
    }
    return { include, fields: parseFields(req.schema, params.fields) };
}

/** For single-resource reads (and write responses): `include` and `fields` only. */
export function parseDocumentQuery(req: RestRequest, model: RestModel): Parsed<DocumentQuery> {
    const params = parseParams(req.query, DOCUMENT_FAMILIES, 'a single resource');
    return { query: documentPart(req, model, params, 1), entries: params.entries };
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
    const page = parsePage(params.page, req.config);
    return {
        query: {
            ...documentPart(req, model, params, page.limit),
            where: buildFilter(model, params.filters, filterContext(req)),
            orderBy: parseSort(model, params.sort, req.config.maxIncludeDepth),
            page,
        },
        entries: params.entries,
    };
}

/**
 * `include` on a relationship endpoint, as JSON:API has it: paths from the resource whose relationship it is,
 * each through that relationship (`include=comments` or `comments.author` on `/post/1/relationships/comments`),
 * so that every included resource is reachable from the linkage. Returns the tree below the relationship
 * (relative to its target); any other path is a 400 `invalid-include`.
 */
function relationshipInclude(req: RestRequest, parent: RestModel, rel: RestRelationship, text: string | undefined, page: PageQuery): IncludeTree | undefined {
    if (text === undefined) return undefined;
    // the relationship itself does not count against the depth: the paths below it reach as far as on its related endpoint
    const { tree, reach } = parseInclude(parent, text, req.config.maxIncludeDepth + 1, includedToManyTake(req.config), page.limit);
    checkIncludedRecords(1, reach, req.config.maxIncludedRecords);
    for (const name of tree.keys()) {
        if (name !== rel.name) {
            throw new RestError('invalid-include', `include paths on a relationship endpoint go through its relationship ("${rel.name}" or "${rel.name}.…"), not "${name}"`, {
                source: { parameter: 'include' },
            });
        }
    }
    return tree.get(rel.name);
}

/** A relationship endpoint's query; `emptyInclude`: `include` was given without a path (`include=`), so `included` is empty. */
export interface RelationshipQuery extends Parsed<CollectionQuery> {
    emptyInclude: boolean;
}

/**
 * For relationship endpoints (`/:type/:id/relationships/:rel`): to-many ones take filter, sort and page on the
 * related records, both take `include` (through the relationship: the related resources themselves, and
 * further) and `fields`.
 */
export function parseRelationshipQuery(req: RestRequest, parent: RestModel, rel: RestRelationship): RelationshipQuery {
    const target = rel.target;
    const params = parseParams(req.query, rel.isArray ? COLLECTION_FAMILIES : DOCUMENT_FAMILIES, `${rel.isArray ? 'to-many' : 'to-one'} relationship endpoints`);
    const page = parsePage(params.page, req.config);
    const include = relationshipInclude(req, parent, rel, params.include, page);
    return {
        emptyInclude: params.include !== undefined && include === undefined,
        query: {
            include,
            fields: parseFields(req.schema, params.fields),
            where: rel.isArray ? buildFilter(target, params.filters, filterContext(req)) : undefined,
            orderBy: rel.isArray ? parseSort(target, params.sort, req.config.maxIncludeDepth) : [],
            page,
        },
        entries: params.entries,
    };
}

/** For endpoints that take no parameters (to-one relationship endpoints). */
export function parseNoQuery(req: RestRequest): Parsed<DocumentQuery> {
    const params = parseParams(req.query, new Set<Family>(), 'this endpoint');
    return { query: {}, entries: params.entries };
}
