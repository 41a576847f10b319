/** Options of `RestApiHandler`, as in `@zenstackhq/server` 2.x plus safety limits. */
export interface RestApiHandlerOptions {
    /** Base URL of the API, used to build every link (required, absolute). */
    endpoint: string;
    /** Default page size of collections (default 100); `Infinity` disables pagination. */
    pageSize?: number;
    /** Largest `page[limit]` a client may ask for (default 1000); a larger one is 400. */
    maxPageSize?: number;
    /** Deepest `include` path (default 4 relationships). */
    maxIncludeDepth?: number;
    /** Most `filter[...]` parameters per request (default 32). */
    maxFilters?: number;
    /** Separator of compound id values in URLs and `id` members (default `_`). */
    idDivider?: string;
    /** Model name → resource type name used in URLs and `type` members. */
    modelNameMapping?: Record<string, string>;
}

/** Normalized, validated options. */
export interface RestConfig {
    /** Endpoint without trailing slash. */
    endpoint: string;
    pageSize: number;
    maxPageSize: number;
    maxIncludeDepth: number;
    maxFilters: number;
    idDivider: string;
    modelNameMapping: Readonly<Record<string, string>>;
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
    const idDivider = options.idDivider ?? '_';
    if (typeof idDivider !== 'string' || idDivider.length === 0 || idDivider.includes('/')) {
        throw new Error('RestApiHandler: "idDivider" must be a non-empty string without "/"');
    }
    const pageSize = positiveInt('pageSize', options.pageSize, 100, true);
    return {
        endpoint: options.endpoint.replace(/\/+$/, ''),
        pageSize,
        maxPageSize: positiveInt('maxPageSize', options.maxPageSize, Math.max(1000, pageSize === Infinity ? 1000 : pageSize)),
        maxIncludeDepth: positiveInt('maxIncludeDepth', options.maxIncludeDepth, 4),
        maxFilters: positiveInt('maxFilters', options.maxFilters, 32),
        idDivider,
        modelNameMapping: { ...(options.modelNameMapping ?? {}) },
    };
}
