import { parseQuery } from '../shared/request';
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
