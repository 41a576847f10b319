import { RestError } from '../errors';

/**
 * Splits a request's query into the JSON:API parameter families. Unknown families, and families
 * an endpoint does not take, are 400 (JSON:API), never silently ignored. Adapters that parse
 * `filter[a][b]=v` into nested objects (qs) are accepted too: nested values are flattened back.
 */

export type QueryEntry = readonly [string, string];
export type Family = 'filter' | 'sort' | 'page' | 'include' | 'fields';

export interface FilterParam {
    /** The parameter as written (`filter[author][name$contains]`), for `source.parameter`. */
    parameter: string;
    /** Field and relationship names, the last one without its operator. */
    selectors: string[];
    /** Operator suffix without `$` (`contains`), if any. */
    op?: string;
    value: string;
}

export interface ParsedParams {
    /** Every parameter in request order, flattened (for links). */
    entries: QueryEntry[];
    filters: FilterParam[];
    sort?: string;
    include?: string;
    fields: Array<[type: string, value: string]>;
    page: { offset?: string; limit?: string };
}

const FAMILIES: ReadonlySet<string> = new Set<Family>(['filter', 'sort', 'page', 'include', 'fields']);
const KEY = /^([A-Za-z_][\w-]*)((?:\[[^[\]]*\])*)$/;

/**
 * Appends `value` under `key`, first to last. Iterative: a query object a framework nested as deep as the client
 * wrote brackets (300,000 levels) overflowed the stack of a recursive walk, a 500.
 */
function flattenInto(out: QueryEntry[], key: string, value: unknown): void {
    const pending: Array<[string, unknown]> = [[key, value]];
    while (pending.length > 0) {
        const [k, v] = pending.pop()!;
        if (v === undefined || v === null) continue;
        if (Array.isArray(v)) {
            for (let i = v.length - 1; i >= 0; i--) pending.push([k, v[i]]);
        } else if (typeof v === 'object') {
            const entries = Object.entries(v as Record<string, unknown>);
            for (let i = entries.length - 1; i >= 0; i--) pending.push([`${k}[${entries[i][0]}]`, entries[i][1]]);
        } else {
            out.push([k, String(v)]);
        }
    }
}

/** The query as ordered `[key, value]` pairs (repeated keys repeat). */
export function flattenQuery(query: Record<string, unknown> | undefined): QueryEntry[] {
    const out: QueryEntry[] = [];
    if (query) {
        // a plain text value (every adapter's query holds only those, or lists of them) needs no walk
        for (const [key, value] of Object.entries(query)) {
            if (typeof value === 'string') out.push([key, value]);
            else flattenInto(out, key, value);
        }
    }
    return out;
}

const isBlank = (text: string): boolean => text.trim().length === 0;

/** Repeated `include` parameters are one list; an empty one (JSON:API: no related resources) adds no path to it. */
function joinIncludes(prev: string | undefined, value: string): string {
    if (prev === undefined || isBlank(prev)) return value;
    return isBlank(value) ? prev : `${prev},${value}`;
}

function unknownParam(parameter: string, detail: string): RestError {
    return new RestError('unknown-parameter', detail, { source: { parameter } });
}

/** Parses and checks the families; `allowed` lists those the endpoint takes. */
export function parseParams(query: Record<string, unknown> | undefined, allowed: ReadonlySet<Family>, endpoint: string): ParsedParams {
    const entries = flattenQuery(query);
    const parsed: ParsedParams = { entries, filters: [], fields: [], page: {} };
    for (const [key, value] of entries) {
        const m = KEY.exec(key);
        const family = m?.[1];
        if (!m || !family || !FAMILIES.has(family)) {
            throw unknownParam(key, `unsupported query parameter "${key}" (supported: filter[...], sort, page[offset], page[limit], include, fields[type])`);
        }
        if (!allowed.has(family as Family)) {
            throw unknownParam(key, `the "${family}" parameter is not supported on ${endpoint}`);
        }
        const segments = m[2] ? m[2].slice(1, -1).split('][') : [];
        switch (family as Family) {
            case 'filter': {
                if (segments.length === 0 || segments.some((s) => s.length === 0)) {
                    throw new RestError('invalid-filter', `malformed filter parameter "${key}": use filter[field]=value`, { source: { parameter: key } });
                }
                const last = segments[segments.length - 1];
                const dollar = last.indexOf('$');
                const selectors = segments.slice(0, -1);
                selectors.push(dollar >= 0 ? last.slice(0, dollar) : last);
                parsed.filters.push({ parameter: key, selectors, op: dollar >= 0 ? last.slice(dollar + 1) : undefined, value });
                break;
            }
            case 'page': {
                const name = segments[0];
                if (segments.length !== 1 || (name !== 'offset' && name !== 'limit')) {
                    throw new RestError('invalid-page', `unsupported page parameter "${key}" (use page[offset] and page[limit])`, { source: { parameter: key } });
                }
                if (parsed.page[name] !== undefined) {
                    throw new RestError('invalid-page', `"${key}" is given more than once`, { source: { parameter: key } });
                }
                parsed.page[name] = value;
                break;
            }
            case 'fields':
                if (segments.length !== 1 || segments[0].length === 0) {
                    throw new RestError('invalid-fields', `malformed sparse fieldset "${key}": use fields[type]=a,b`, { source: { parameter: key } });
                }
                parsed.fields.push([segments[0], value]);
                break;
            default: {
                if (segments.length > 0) {
                    throw unknownParam(key, `"${family}" takes no brackets: use ${family}=a,b`);
                }
                if (family === 'sort') parsed.sort = parsed.sort === undefined ? value : `${parsed.sort},${value}`;
                else parsed.include = joinIncludes(parsed.include, value);
            }
        }
    }
    return parsed;
}
