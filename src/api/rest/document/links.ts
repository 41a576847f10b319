import type { RouteMatch } from '../request';
import type { RestModel } from '../schema';
import type { PageQuery } from '../query/types';

/**
 * Links are built by string concatenation from per-model prefixes (`model.linkPrefix`) computed
 * once; only ids and query values are encoded per request.
 */

const LITERAL: Record<string, string> = { '%5B': '[', '%5D': ']', '%2C': ',', '%24': '$', '%3A': ':', '%2F': '/', '%40': '@' };
const KEPT_LITERAL = /%(5B|5D|2C|24|3A|2F|40)/gi;

/** Percent-encodes a query key or value, keeping the characters JSON:API links show literally. */
function encodeQueryPart(text: string): string {
    const encoded = encodeURIComponent(text);
    return encoded.includes('%') ? encoded.replace(KEPT_LITERAL, (m) => LITERAL[m.toUpperCase()]) : encoded;
}

/**
 * Percent-encodes an id for a path segment of `model`'s links, its compound id's divider as `dividerInLinks` says.
 * Under a `urlSegmentCharset`, a character it does not admit is percent-encoded too (`.` of `a.b` as `%2E`), so that
 * the link passes the check its own router makes; `encodeURIComponent` leaves `.`, `!`, `~`, `*`, `'`, `(` and `)`.
 */
export function encodeSegment(model: RestModel, id: string): string {
    const encoded = encodeURIComponent(id);
    const divider = model.dividerInLinks;
    const segment = divider ? encoded.split(divider.encoded).join(divider.literal) : encoded;
    const allowed = model.segmentPattern;
    return allowed && !allowed.test(segment) ? fitSegment(segment, allowed) : segment;
}

/** A fixed path segment (a model's URL name) as links write it: percent-encoded, and fitted to `allowed` as ids are. */
export function encodeNameSegment(name: string, allowed: RegExp | undefined): string {
    const encoded = encodeURIComponent(name);
    return allowed && !allowed.test(encoded) ? fitSegment(encoded, allowed) : encoded;
}

/**
 * A segment with every literal character `allowed` refuses percent-encoded. The router decodes a segment whole
 * before reading it (a compound id's divider included), so the segment still names the same id. Where `allowed`
 * refuses `%` itself, nothing can be encoded: the segment stays as it is.
 */
function fitSegment(segment: string, allowed: RegExp): string {
    if (!allowed.test('%')) return segment;
    let out = '';
    for (let i = 0; i < segment.length; i++) {
        const c = segment[i];
        if (c === '%') {
            // encodeURIComponent writes every `%` as the start of an escape (a `%` of the id itself as `%25`)
            out += segment.slice(i, i + 3);
            i += 2;
        } else {
            // the rest of what it writes is ASCII: one byte each
            out += allowed.test(c) ? c : `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
        }
    }
    return out;
}

/** `k=v&k2=v2` from ordered entries. */
export function queryString(entries: ReadonlyArray<readonly [string, string]>): string {
    let out = '';
    for (const [k, v] of entries) {
        out += `${out ? '&' : ''}${encodeQueryPart(k)}=${encodeQueryPart(v)}`;
    }
    return out;
}

/** A URL with an optional query string. */
export function withQuery(base: string, query: string): string {
    return query ? `${base}?${query}` : base;
}

/** The self link of a resource (integer ids have nothing to encode, unless a `urlSegmentCharset` refuses `-`). */
export function resourceLink(model: RestModel, id: string | number): string {
    return model.linkPrefix + (Number.isSafeInteger(id) && !model.segmentPattern ? id : encodeSegment(model, String(id)));
}

/** The canonical URL of a routed request, without its query string. */
export function routeUrl(route: RouteMatch): string {
    const prefix = route.model.linkPrefix;
    if (route.kind === 'collection' || route.id === undefined) {
        return prefix.slice(0, -1);
    }
    const self = prefix + encodeSegment(route.model, route.id);
    const rel = route.relationship ? encodeURIComponent(route.relationship.name) : '';
    switch (route.kind) {
        case 'related':
            return `${self}/${rel}`;
        case 'relationship':
            return `${self}/relationships/${rel}`;
        case 'relatedById':
            return `${self}/${rel}/${route.relationship ? encodeSegment(route.relationship.target, route.relatedId ?? '') : encodeURIComponent(route.relatedId ?? '')}`;
        default:
            return self;
    }
}

export interface PaginationLinks {
    self: string;
    first: string;
    last: string;
    prev: string | null;
    next: string | null;
}

/**
 * `first` carries page[limit], `last` page[offset] (and page[limit] when the request named it),
 * `prev`/`next` both or null; every link keeps the request's other parameters (`keep`, already
 * encoded, without page parameters).
 */
export function paginationLinks(self: string, base: string, keep: string, page: PageQuery, total: number): PaginationLinks {
    const link = (params: Array<[string, string]>): string => {
        const extra = queryString(params);
        return withQuery(base, keep && extra ? `${keep}&${extra}` : keep || extra);
    };
    const { offset, limit } = page;
    if (!Number.isFinite(limit)) {
        const all = link([]);
        return { self, first: all, last: all, prev: offset > 0 ? all : null, next: null };
    }
    const L = String(limit);
    const lastOffset = total > 0 ? Math.floor((total - 1) / limit) * limit : 0;
    const last: Array<[string, string]> = [['page[offset]', String(lastOffset)]];
    if (page.explicitLimit) last.push(['page[limit]', L]);
    return {
        self,
        first: link([['page[limit]', L]]),
        last: link(last),
        prev: offset > 0 ? link([['page[offset]', String(Math.max(0, offset - limit))], ['page[limit]', L]]) : null,
        next: offset + limit < total ? link([['page[offset]', String(offset + limit)], ['page[limit]', L]]) : null,
    };
}
