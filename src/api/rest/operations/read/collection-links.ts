import { paginationLinks, queryString, withQuery, type PaginationLinks } from '../../document/links';
import type { QueryEntry } from '../../query/params';
import type { PageQuery } from '../../query/types';

/** Pagination links of a collection at `base`: `self` is base + the request's parameters, the others keep its non-page ones. */
export function collectionLinks(base: string, entries: readonly QueryEntry[], page: PageQuery, total: number): PaginationLinks {
    const keep = queryString(entries.filter(([k]) => !k.startsWith('page[')));
    return paginationLinks(withQuery(base, queryString(entries)), base, keep, page, total);
}
