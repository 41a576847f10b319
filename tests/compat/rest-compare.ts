import type { Body } from './sides';

/**
 * How a JSON:API document of ours is compared with 2.22.3's: every value a 2.x client reads from
 * 2.22.3's document (each leaf) must be in ours with the same value, except where the spec or our
 * docs say otherwise (see `missingOrDifferent` and `withoutUnloadedToMany`).
 */

const PAGE_PARAMS = ['page[offset]', 'page[limit]'];

/**
 * A link as a 2.x client uses it: its path, plus, for pagination links, the page parameters that
 * 2.22.3's link carries (its `last` has no `page[limit]`, so following it reads a default-size page;
 * ours carries both).
 */
export function linkForm(name: string, link: unknown, upstream: unknown): unknown {
    if (typeof link !== 'string') return link;
    const url = new URL(link);
    if (!['first', 'last', 'prev', 'next'].includes(name)) return url.pathname;
    const given = typeof upstream === 'string' ? new URL(upstream).searchParams : undefined;
    return { path: url.pathname, page: PAGE_PARAMS.filter((p) => given?.has(p) ?? true).map((p) => url.searchParams.get(p)) };
}

/** Leaves of upstream's answer that ours lacks or answers differently, as "path: ours | upstream". */
export function missingOrDifferent(ours: Body, upstream: Body, path = '', out: string[] = []): string[] {
    const key = path.split('.').pop() ?? '';
    const parent = path.split('.').slice(-2, -1)[0];
    if (parent === 'links') {
        if (JSON.stringify(linkForm(key, ours, upstream)) !== JSON.stringify(linkForm(key, upstream, upstream))) out.push(`${path}: ${ours} | ${upstream}`);
        return out;
    }
    if (key === 'included' && Array.isArray(upstream) && Array.isArray(ours)) {
        const byKey = new Map(ours.map((r: Body) => [`${r.type}/${r.id}`, r]));
        for (const r of upstream) missingOrDifferent(byKey.get(`${r.type}/${r.id}`), r, `${path}[${r.type}/${r.id}]`, out);
        if (ours.length !== upstream.length) out.push(`${path}: ${ours.length} resources | ${upstream.length}`);
        return out;
    }
    if (upstream !== null && typeof upstream === 'object') {
        if (ours === null || typeof ours !== 'object' || Array.isArray(ours) !== Array.isArray(upstream)) {
            out.push(`${path}: ${JSON.stringify(ours)} | ${JSON.stringify(upstream)}`);
            return out;
        }
        if (Array.isArray(upstream) && ours.length !== upstream.length) out.push(`${path}: length ${ours.length} | ${upstream.length}`);
        for (const k of Object.keys(upstream)) missingOrDifferent(ours[k], upstream[k], path ? `${path}.${k}` : k, out);
        return out;
    }
    if (ours !== upstream) out.push(`${path}: ${JSON.stringify(ours)} | ${JSON.stringify(upstream)}`);
    return out;
}

/** Drops the linkage of to-many relationships ours leaves out (not included): links-only is what the spec allows there. */
export function withoutUnloadedToMany(ours: Body, upstream: Body): Body {
    const copy = JSON.parse(JSON.stringify(upstream));
    const resources = (doc: Body): Body[] => [...(Array.isArray(doc?.data) ? doc.data : doc?.data ? [doc.data] : []), ...(doc?.included ?? [])];
    const oursByKey = new Map(resources(ours).map((r) => [`${r.type}/${r.id}`, r]));
    for (const r of resources(copy)) {
        for (const [name, rel] of Object.entries<Body>(r.relationships ?? {})) {
            const mine = oursByKey.get(`${r.type}/${r.id}`)?.relationships?.[name];
            if (Array.isArray(rel.data) && mine && mine.data === undefined) delete rel.data;
        }
    }
    return copy;
}


type Resource = { type: string; id: unknown; attributes?: Body; relationships?: Record<string, Body> };
const keyOf = (r: Resource) => `${r.type}/${r.id}`;

/**
 * A to-many linkage in one canonical order: 2.22.3 lists it in the order the database returns the related rows,
 * which on PostgreSQL changes as rows are updated; ours lists it in id order. Neither order is part of the contract.
 */
function canonicalOrder(linkage: Resource[]): Resource[] {
    const key = (r: Resource) => JSON.stringify([r.type, r.id]);
    return [...linkage].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * A document as the differential test compares it: resources without links (their relationships' `data` only),
 * to-many linkage in a canonical order,
 * `included` keyed by type and id (JSON:API gives it no order), `meta.total`, and each `meta.serialization`
 * tag keyed by its resource instead of its position.
 */
export function canonicalDocument(doc: Body): Body {
    const resource = (r: Resource): Body => ({
        type: r.type,
        id: r.id,
        attributes: r.attributes,
        relationships: Object.fromEntries(Object.entries(r.relationships ?? {}).map(([name, rel]) => [name, rel.data === undefined ? {} : { data: Array.isArray(rel.data) ? canonicalOrder(rel.data) : rel.data }])),
    });
    const list = (doc.data === null || doc.data === undefined ? [] : Array.isArray(doc.data) ? doc.data : [doc.data]) as Resource[];
    const included = (doc.included ?? []) as Resource[];
    const serialization: Record<string, unknown> = {};
    for (const [path, tags] of Object.entries<unknown>(doc.meta?.serialization?.values ?? {})) {
        const [root, ...rest] = path.split('.');
        const indexed = root === 'included' || Array.isArray(doc.data);
        const owner = root === 'included' ? included[Number(rest[0])] : Array.isArray(doc.data) ? list[Number(rest[0])] : list[0];
        serialization[`${owner ? keyOf(owner) : root}.${(indexed ? rest.slice(1) : rest).join('.')}`] = tags;
    }
    // a relationship document's linkage (identifiers only): ours in id order, 2.22.3's as the database returned it
    const linkage = Array.isArray(doc.data) && list.every((r) => r.attributes === undefined && r.relationships === undefined);
    return {
        data: Array.isArray(doc.data) ? (linkage ? canonicalOrder(list) : list).map(resource) : doc.data && resource(doc.data),
        included: doc.included === undefined ? undefined : Object.fromEntries(included.map((r) => [keyOf(r), resource(r)])),
        total: doc.meta?.total,
        serialization,
    };
}

/**
 * 2.22.3's canonical document (`canonicalDocument`) with what ours answers differently on purpose made as ours
 * answers it, each documented (docs/migrating.md §5, docs/rest-read.md):
 * - to-many linkage only for included relationships (as `withoutUnloadedToMany`), and included resources' to-one
 *   linkage only where the key is theirs (docs/rest-read.md#documents);
 * - a sparse fieldset covers relationships too: those it does not list are left out;
 * - to-one linkage follows the foreign key also where the related record is not readable (2.22.3: null);
 * - `included` never repeats a resource of the primary data (2.22.3 repeats it).
 * `extraIncluded` is how many more resources ours includes: allowed only under a fieldset, below which
 * 2.22.3 drops the nested includes.
 */
export function upstreamAsOurs(ours: Body, upstream: Body, query: Record<string, string>): { expected: Body; extraIncluded: number } {
    const expected = JSON.parse(JSON.stringify(upstream));
    const mine = new Map<string, Body>();
    for (const r of Array.isArray(ours.data) ? ours.data : ours.data ? [ours.data] : []) mine.set(keyOf(r), r);
    const primary = new Set(mine.keys());
    for (const [k, r] of Object.entries<Body>(ours.included ?? {})) mine.set(k, r);
    if (expected.included) {
        for (const k of Object.keys(expected.included)) if (primary.has(k)) delete expected.included[k];
    }
    const resources = [...(Array.isArray(expected.data) ? expected.data : expected.data ? [expected.data] : []), ...Object.values<Body>(expected.included ?? {})];
    for (const r of resources) {
        const fieldset = query[`fields[${r.type}]`]?.split(',');
        for (const [name, rel] of Object.entries<Body>(r.relationships)) {
            const own = mine.get(keyOf(r))?.relationships?.[name];
            if (fieldset && !fieldset.includes(name)) delete r.relationships[name];
            // links only: to-many relationships not included, and to-one relationships of included resources whose key the other side holds
            else if ((Array.isArray(rel.data) || !primary.has(keyOf(r))) && own && own.data === undefined) delete rel.data;
            else if (rel.data === null && own?.data) rel.data = own.data;
        }
    }
    // a to-one relationship document: its linkage follows the foreign key, also to a record the user may not read
    if (expected.data === null && ours.data && !Array.isArray(ours.data) && ours.data.attributes === undefined) expected.data = ours.data;
    const count = (doc: Body) => Object.keys(doc.included ?? {}).length;
    return { expected, extraIncluded: count(ours) - count(expected) };
}
