/** Parsed query parameters, in the shapes the select builder and the document builder consume. */

/** `include=a,b.c` as a tree: relationship name → what to include below it. */
export type IncludeTree = ReadonlyMap<string, IncludeTree>;

/** `fields[type]=a,b`: resource type → the attribute and relationship names to render. */
export type Fieldsets = ReadonlyMap<string, ReadonlySet<string>>;

/** What shapes a document: used by every read, and by writes for the document they answer with. */
export interface DocumentQuery {
    include?: IncludeTree;
    fields?: Fieldsets;
}

/** `page[offset]` / `page[limit]`, resolved against the configuration. */
export interface PageQuery {
    offset: number;
    /** `Infinity` when pagination is disabled. */
    limit: number;
    /** The request named `page[limit]` (links then carry it). */
    explicitLimit: boolean;
}

/** Everything a collection read needs. */
export interface CollectionQuery extends DocumentQuery {
    where?: Record<string, unknown>;
    orderBy: Array<Record<string, unknown>>;
    page: PageQuery;
}
