import { parseQuery, safeDecodeSegment } from '../shared/request';
import type { RouteParams } from './options';

/** The rest parameter of a catch-all route: `path` by convention, else the only array-valued one. */
export function restParam(params: RouteParams | undefined): string | string[] | undefined {
    if (!params) {
        return undefined;
    }
    if (params.path !== undefined) {
        return params.path;
    }
    const arrays = Object.values(params).filter((v) => Array.isArray(v));
    return arrays.length === 1 ? arrays[0] : undefined;
}

function sameValue(a: string | string[] | undefined, b: string | string[] | undefined): boolean {
    return Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((v, i) => v === b[i]) : a === b;
}

/**
 * The route parameters in a Pages Router `req.query`, which Next.js merges with the URL's query string
 * (`filter[title]=a&filter[title]=b` is an array there too): the keys the query string did not supply, or
 * whose value a route parameter of the same name replaced.
 */
export function pagesRouteParams(query: RouteParams, search: string): RouteParams {
    const fromUrl = parseQuery(search);
    const params: RouteParams = {};
    for (const [key, value] of Object.entries(query)) {
        if (!Object.prototype.hasOwnProperty.call(fromUrl, key) || !sameValue(fromUrl[key], value)) {
            params[key] = value;
        }
    }
    return params;
}

/** Whether the decoded segments of `pathname` end with `parts` (a catch-all's value, which Next.js decodes). */
function endsWithSegments(pathname: string, parts: string[]): boolean {
    const segments = pathname.split('/').filter((s) => s.length > 0);
    if (parts.length === 0 || parts.length > segments.length) return false;
    const tail = segments.slice(segments.length - parts.length);
    return tail.every((segment, i) => safeDecodeSegment(segment) === parts[i]);
}

/**
 * The catch-all of a Pages Router request: as `restParam(pagesRouteParams(…))`, except that a `path` the query
 * string repeats with the route's own values (`/api/model/post/findMany?path=post&path=findMany`, where the two
 * cannot be told apart) is still the catch-all when the URL's path ends with it.
 */
export function pagesRestParam(query: RouteParams, pathname: string, search: string): string | string[] | undefined {
    const found = restParam(pagesRouteParams(query, search));
    if (found !== undefined) return found;
    const named = query.path;
    return Array.isArray(named) && endsWithSegments(pathname, named) ? named : undefined;
}
