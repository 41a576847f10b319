import { ALICE } from '../client/support/seed';
import { seededBlogEach } from '../rpc/support';

/**
 * A typed value (what `meta.serialization` restores: a Date, a bigint, a Decimal, Bytes, a Json null marker, and
 * superjson's other types) at every place of a call's arguments, one place at a time, in calls that match no row:
 * a filter's value, an operator, a whole filter, an `AND`/`OR` member or list, a nested write, `data`, `where`
 * itself, a cursor, an ordering, `take`/`skip`, `distinct`, `by`, `having`, an aggregate selection. Each answer must be a success that still matches nothing, or a 4xx in the RPC error format; never a 500,
 * and never a change to any row. A typed value once read as an empty filter `{}`, so a `deleteMany` whose filter
 * held a Date deleted every row the user may delete (tests/rpc/typed-filter-values.test.ts); this walks every
 * place such a value can be put, not only the ones that were found.
 */

const NOTHING = 'no post has this title';
const FILTER = { title: NOTHING, AND: [{ viewCount: { gte: 0 } }], OR: [{ published: true }, { published: false }], createdAt: { lte: '2100-01-01T00:00:00.000Z' } };

/** Calls as Alice that match no row (she may read, change and delete her own posts). */
const CALLS: Array<{ method: string; path: string; args: Record<string, unknown> }> = [
    { method: 'GET', path: '/post/findMany', args: { where: FILTER, select: { id: true } } },
    {
        method: 'GET',
        path: '/post/findMany',
        args: { where: FILTER, cursor: { id: 1 }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: 5, skip: 0, distinct: ['title'], select: { id: true, author: { select: { id: true } } } },
    },
    { method: 'GET', path: '/post/groupBy', args: { by: ['published'], where: FILTER, _count: { _all: true }, orderBy: { published: 'asc' }, having: { viewCount: { _sum: { gte: 0 } } } } },
    { method: 'GET', path: '/post/aggregate', args: { where: FILTER, _sum: { viewCount: true }, _count: { _all: true } } },
    { method: 'DELETE', path: '/post/deleteMany', args: { where: FILTER } },
    { method: 'PATCH', path: '/post/updateMany', args: { where: FILTER, data: { title: 'changed', viewCount: 1 } } },
    {
        method: 'PUT',
        path: '/user/update',
        args: {
            where: { id: ALICE },
            data: { posts: { deleteMany: { title: NOTHING, viewCount: { gte: 0 } }, updateMany: { where: { title: NOTHING }, data: { title: 'changed' } } } },
            select: { id: true },
        },
    },
];

/** A typed value as the wire carries it: its JSON and its superjson tag. */
const TYPED: Array<{ name: string; json: unknown; tag: unknown }> = [
    { name: 'Date', json: '2000-01-01T00:00:00.000Z', tag: 'Date' },
    { name: 'bigint', json: '5', tag: 'bigint' },
    { name: 'Decimal', json: '2.5', tag: ['custom', 'Decimal'] },
    { name: 'Bytes', json: 'AQID', tag: ['custom', 'Bytes'] },
    { name: 'empty Bytes', json: '', tag: ['custom', 'Bytes'] },
    { name: 'DbNull', json: null, tag: ['custom', 'DbNull'] },
    { name: 'JsonNull', json: null, tag: ['custom', 'JsonNull'] },
    { name: 'AnyNull', json: null, tag: ['custom', 'AnyNull'] },
    { name: 'NaN', json: 'NaN', tag: 'number' },
    { name: 'regexp', json: '/a/', tag: 'regexp' },
    { name: 'set', json: [], tag: 'set' },
    { name: 'map', json: [], tag: 'map' },
];

/** Every place in `value` below its root, as superjson's dotted paths (keys here hold no dots). */
function places(value: unknown, prefix = ''): string[] {
    if (value === null || typeof value !== 'object') return [];
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    return entries.flatMap(([key, v]) => {
        const at = prefix ? `${prefix}.${key}` : key;
        return [at, ...places(v, at)];
    });
}

/** A copy of `args` with `json` at `path`. */
function withValueAt(args: Record<string, unknown>, path: string, json: unknown): Record<string, unknown> {
    const copy = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
    const keys = path.split('.');
    let holder = copy as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
    holder[keys[keys.length - 1]] = json;
    return copy;
}

const blog = seededBlogEach({ id: ALICE });

const rows = async () => JSON.stringify([await blog.s.prisma.user.findMany({ orderBy: { id: 'asc' } }), await blog.s.prisma.post.findMany({ orderBy: { id: 'asc' } }), await blog.s.prisma.comment.findMany({ orderBy: { id: 'asc' } })]);

it.each(CALLS.map((c) => [`${c.method} ${c.path} (${Object.keys(c.args).join(', ')})`, c] as const))('%s: a typed value at any place matches no more rows, and is never a 500', async (_name, call) => {
    const before = await rows();
    const unexpected: string[] = [];
    let cases = 0;
    walk: for (const path of places(call.args)) {
        for (const typed of TYPED) {
            cases++;
            const args = withValueAt(call.args, path, typed.json);
            const meta = { serialization: { values: { [path]: [typed.tag] } } };
            const res = await blog.rpc(call.method, call.path, call.method === 'GET' || call.method === 'DELETE' ? { q: args, meta } : { body: { ...args, meta } });
            const label = `${typed.name} at ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
            if (res.status >= 500) unexpected.push(label);
            else if (res.status >= 400 && typeof res.body?.error?.message !== 'string') unexpected.push(`not the RPC error format: ${label}`);
            else if (res.status < 300 && JSON.stringify(res.body.data).match(/"(count|_all)":[1-9]|^\[\{/)) unexpected.push(`matched rows: ${label}`);
            if ((await rows()) !== before) {
                // the rows are no longer the ones the other cases start from
                unexpected.push(`rows changed: ${label}`);
                break walk;
            }
        }
    }
    expect(unexpected).toEqual([]);
    // every place of the call, with each type: the walk reached them all
    expect(cases).toBe(places(call.args).length * TYPED.length);
    expect(cases).toBeGreaterThan(100);
});
