/** Options of `RestApiHandler`, as in `@zenstackhq/server` 2.x plus safety limits. */
export interface RestApiHandlerOptions {
    /** Base URL of the API, used to build every link (required, absolute). */
    endpoint: string;
    /** Default page size of collections (default 100, or `maxPageSize` when smaller); `Infinity` disables pagination. */
    pageSize?: number;
    /** Largest `page[limit]` a client may ask for (default 1000); a larger one is 400. */
    maxPageSize?: number;
    /** Deepest `include` path (default 4 relationships). */
    maxIncludeDepth?: number;
    /** Most `filter[...]` parameters per request (default 32). */
    maxFilters?: number;
    /**
     * Most records one read may hold more than once, at worst, through include paths from a shared relationship on (a
     * to-one relationship of a one-to-many relation, or a many-to-many one): the page size (1 for a single resource)
     * times, summed over such paths' relationships, the product of the caps on the way (`pageSize + 1` per to-many
     * relationship, 1 per to-one one). A larger read is a 400 `invalid-include` before the database is asked. Default
     * 110,000, or `pageSize × (pageSize + 4)` when larger (a `pageSize` above 329), so that a default page with
     * `author.posts` included still passes; `Infinity`: off.
     */
    maxIncludedRecords?: number;
    /** Separator of compound id values in URLs and `id` members (default `_`). */
    idDivider?: string;
    /**
     * Model name → the URL path name of its resources (`{ User: 'users' }`), as in 2.x: documents keep
     * the model's `type` (`user`); request bodies may give either name.
     */
    modelNameMapping?: Record<string, string>;
    /**
     * Model name → the name of one of its unique constraints (a `@unique` field's name, or a
     * `@@unique`'s name such as `a_b`) whose fields identify its resources instead of the `@id`:
     * in URLs, `id` members, relationship linkage and links. The `@id` field then becomes an attribute.
     */
    externalIdMapping?: Record<string, string>;
    /**
     * Characters allowed in every path segment, as the inside of a regular-expression character
     * class (`@zenstackhq/server` 2.x uses `a-zA-Z0-9-_~ %` by default). A segment with any other
     * character is a 400 `invalid-path`. When not given, every percent-encoded segment is accepted.
     */
    urlSegmentCharset?: string;
}

/**
 * `maxIncludedRecords` unless configured: the most records one read may hold more than once, at worst, through `include`
 * (query/include.ts). Admits `/post?include=author.posts&page[limit]=1000` (1000 × 102 records), which made the
 * server hold about 60 MB, and `/user?include=posts.author.posts` on pages of up to 10.
 */
export const DEFAULT_MAX_INCLUDED_RECORDS = 110_000;

/** The default `maxIncludedRecords` for `pageSize`: never below a default page with a shared to-one relationship and a to-many one below it (`author.posts`) included. */
function defaultIncludedRecords(pageSize: number): number {
    return Number.isFinite(pageSize) ? Math.max(DEFAULT_MAX_INCLUDED_RECORDS, pageSize * (pageSize + 4)) : DEFAULT_MAX_INCLUDED_RECORDS;
}

/** Normalized, validated options. */
export interface RestConfig {
    /** Endpoint without trailing slash. */
    endpoint: string;
    pageSize: number;
    maxPageSize: number;
    maxIncludeDepth: number;
    maxFilters: number;
    maxIncludedRecords: number;
    idDivider: string;
    modelNameMapping: Readonly<Record<string, string>>;
    externalIdMapping: Readonly<Record<string, string>>;
    /** Every raw path segment must match this (from `urlSegmentCharset`), when given. */
    segmentPattern?: RegExp;
}

function positiveInt(name: string, value: unknown, fallback: number, allowInfinity = false): number {
    if (value === undefined) {
        return fallback;
    }
    if (allowInfinity && value === Infinity) {
        return Infinity;
    }
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
        throw new Error(`RestApiHandler: "${name}" must be a positive integer${allowInfinity ? ' or Infinity' : ''}, got ${String(value)}`);
    }
    return value;
}

/** Validates options once, at handler creation; throws a clear error for bad ones. */
export function normalizeOptions(options: RestApiHandlerOptions | undefined): RestConfig {
    if (!options || typeof options.endpoint !== 'string' || options.endpoint.length === 0) {
        throw new Error('RestApiHandler: the "endpoint" option is required (the absolute base URL of the API, e.g. "https://example.com/api")');
    }
    let url: URL;
    try {
        url = new URL(options.endpoint);
    } catch {
        throw new Error(`RestApiHandler: "endpoint" must be an absolute URL, got "${options.endpoint}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`RestApiHandler: "endpoint" must be an http(s) URL, got "${options.endpoint}"`);
    }
    if (url.search || url.hash) {
        throw new Error(`RestApiHandler: "endpoint" must not have a query or a fragment (every link appends a path to it), got "${options.endpoint}"`);
    }
    // links and `Location` are URIs: an internationalized host in punycode, a space or a non-ASCII letter of the
    // path percent-encoded (as written, `Location` could not even be sent: a 500 after a create had been written)
    url.search = '';
    url.hash = '';
    const idDivider = options.idDivider ?? '_';
    // `%` starts the escapes of a divider inside a compound id's values (ids.ts)
    if (typeof idDivider !== 'string' || idDivider.length === 0 || idDivider.includes('/') || idDivider.includes('%')) {
        throw new Error('RestApiHandler: "idDivider" must be a non-empty string without "/" or "%"');
    }
    const givenMax = positiveInt('maxPageSize', options.maxPageSize, Infinity);
    // the default page must be one a client may ask for: the pagination links name its size
    const pageSize = positiveInt('pageSize', options.pageSize, Math.min(100, givenMax), true);
    if (Number.isFinite(pageSize) && pageSize > givenMax) {
        throw new Error(`RestApiHandler: "pageSize" (${pageSize}) must not exceed "maxPageSize" (${givenMax}): the pagination links name page[limit]=${pageSize}, which would be refused`);
    }
    const modelNameMapping = stringRecord('modelNameMapping', options.modelNameMapping);
    const externalIdMapping = stringRecord('externalIdMapping', options.externalIdMapping);
    return {
        endpoint: url.href.replace(/\/+$/, ''),
        pageSize,
        maxPageSize: Number.isFinite(givenMax) ? givenMax : Math.max(1000, pageSize === Infinity ? 1000 : pageSize),
        maxIncludeDepth: positiveInt('maxIncludeDepth', options.maxIncludeDepth, 4),
        maxFilters: positiveInt('maxFilters', options.maxFilters, 32),
        maxIncludedRecords: positiveInt('maxIncludedRecords', options.maxIncludedRecords, defaultIncludedRecords(pageSize), true),
        idDivider,
        modelNameMapping,
        externalIdMapping,
        segmentPattern: segmentPatternOf(options.urlSegmentCharset),
    };
}

/** A copy of a name → name option; anything but an object of non-empty strings is refused. */
function stringRecord(name: string, value: unknown): Readonly<Record<string, string>> {
    if (value === undefined || value === null) {
        return {};
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
        throw new Error(`RestApiHandler: "${name}" must be an object of model names to names`);
    }
    // no prototype: a key such as "__proto__" stays an ordinary entry
    const out: Record<string, string> = Object.create(null);
    for (const [key, v] of Object.entries(value)) {
        if (typeof v !== 'string' || v.length === 0) {
            throw new Error(`RestApiHandler: "${name}.${key}" must be a non-empty string`);
        }
        out[key] = v;
    }
    return out;
}

function segmentPatternOf(charset: unknown): RegExp | undefined {
    if (charset === undefined) {
        return undefined;
    }
    if (typeof charset !== 'string' || charset.length === 0) {
        throw new Error('RestApiHandler: "urlSegmentCharset" must be a non-empty string of characters (a regular-expression character class body)');
    }
    try {
        return new RegExp(`^[${charset}]+$`);
    } catch {
        throw new Error(`RestApiHandler: "urlSegmentCharset" is not a valid character class: "${charset}"`);
    }
}
