import { BENCH_USER_ID, postIdsOf, publishedPostIds, seedRows } from './seed';

/**
 * The measured requests. Every implementation receives byte-identical requests; ids rotate over a
 * fixed list so that no scenario hammers a single row.
 */

export interface BenchRequest {
    method: string;
    /** Full path including the query string, e.g. `/api/rest/post/7`. */
    path: string;
    body?: unknown;
}

export interface Scenario {
    name: string;
    title: string;
    /** The status every answer must have; anything else fails the run. */
    status: number;
    /** 1,000-row reads: measured in a fresh process each, with peak RSS. */
    large?: boolean;
    /** Writes run after the reads of a round, on the round's own database copy. */
    write?: boolean;
    /** Also measured against the floor that makes our handler's ORM calls (where those cost more than upstream's). */
    oursCallsFloor?: boolean;
    /** The n-th request of a run. */
    request: (n: number) => BenchRequest;
    /** Checks one answer's body (pre-flight); returns a problem or undefined. */
    check: (body: unknown) => string | undefined;
}

const rows = seedRows();
const PUBLISHED = publishedPostIds(rows);
const OWN = postIdsOf(rows, BENCH_USER_ID);
const pick = (ids: number[], n: number) => ids[n % ids.length];

export const USER_HEADER = { 'x-user-id': String(BENCH_USER_ID) };

const rpcQuery = (args: unknown) => `q=${encodeURIComponent(JSON.stringify(args))}`;

function data(body: unknown): unknown {
    return body && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
}

/** The body holds `data` with exactly `count` items. */
const hasItems = (count: number) => (body: unknown) => {
    const items = data(body);
    if (!Array.isArray(items)) return 'data is not an array';
    return items.length === count ? undefined : `expected ${count} items, got ${items.length}`;
};

/** The body holds one record in `data` (JSON:API resource or plain record) with an id. */
const hasRecord = (body: unknown) => {
    const record = data(body) as { id?: unknown } | undefined;
    return record && typeof record === 'object' && record.id !== undefined ? undefined : 'data holds no record';
};

const title = (n: number) => `Benchmark post ${n}`;

export const SCENARIOS: Scenario[] = [
    {
        name: 'rest-get-one',
        title: 'REST `GET /post/:id`',
        status: 200,
        request: (n) => ({ method: 'GET', path: `/api/rest/post/${pick(PUBLISHED, n)}` }),
        check: hasRecord,
    },
    {
        name: 'rest-list-include',
        title: 'REST `GET /post?include=author,comments&page[limit]=20`',
        status: 200,
        oursCallsFloor: true,
        request: () => ({ method: 'GET', path: '/api/rest/post?include=author%2Ccomments&page%5Blimit%5D=20' }),
        check: hasItems(20),
    },
    {
        name: 'rest-filter-sort-page',
        title: 'REST `GET /post?filter[published]=true&sort=-viewCount&page[offset]=40&page[limit]=20`',
        status: 200,
        oursCallsFloor: true,
        request: () => ({
            method: 'GET',
            path: '/api/rest/post?filter%5Bpublished%5D=true&sort=-viewCount&page%5Boffset%5D=40&page%5Blimit%5D=20',
        }),
        check: hasItems(20),
    },
    {
        name: 'rpc-findMany',
        title: 'RPC `post/findMany` include author+comments, take 20',
        status: 200,
        request: () => ({
            method: 'GET',
            path: `/api/rpc/post/findMany?${rpcQuery({ include: { author: true, comments: true }, take: 20 })}`,
        }),
        check: hasItems(20),
    },
    {
        name: 'rpc-findUnique',
        title: 'RPC `post/findUnique`',
        status: 200,
        request: (n) => ({ method: 'GET', path: `/api/rpc/post/findUnique?${rpcQuery({ where: { id: pick(PUBLISHED, n) } })}` }),
        check: hasRecord,
    },
    {
        name: 'rest-update',
        title: 'REST `PATCH /post/:id`',
        status: 200,
        write: true,
        request: (n) => {
            const id = pick(OWN, n);
            return {
                method: 'PATCH',
                path: `/api/rest/post/${id}`,
                body: { data: { type: 'post', id: String(id), attributes: { title: title(n), viewCount: n } } },
            };
        },
        check: hasRecord,
    },
    {
        name: 'rpc-update',
        title: 'RPC `post/update`',
        status: 200,
        write: true,
        request: (n) => ({
            method: 'PUT',
            path: '/api/rpc/post/update',
            body: { where: { id: pick(OWN, n) }, data: { title: title(n), viewCount: n } },
        }),
        check: hasRecord,
    },
    {
        name: 'rest-create',
        title: 'REST `POST /post`',
        status: 201,
        write: true,
        request: (n) => ({
            method: 'POST',
            path: '/api/rest/post',
            body: {
                data: {
                    type: 'post',
                    attributes: { title: title(n), published: true },
                    relationships: { author: { data: { type: 'user', id: String(BENCH_USER_ID) } } },
                },
            },
        }),
        check: hasRecord,
    },
    {
        name: 'rpc-create',
        title: 'RPC `post/create`',
        status: 201,
        write: true,
        request: (n) => ({
            method: 'POST',
            path: '/api/rpc/post/create',
            body: { data: { title: title(n), published: true, author: { connect: { id: BENCH_USER_ID } } } },
        }),
        check: hasRecord,
    },
    {
        name: 'rest-list-1000',
        title: 'REST `GET /post?page[limit]=1000` (1,000 rows)',
        status: 200,
        large: true,
        request: () => ({ method: 'GET', path: '/api/rest/post?page%5Blimit%5D=1000' }),
        check: hasItems(1000),
    },
    {
        name: 'rpc-findMany-1000',
        title: 'RPC `post/findMany` take 1000 (1,000 rows)',
        status: 200,
        large: true,
        request: () => ({ method: 'GET', path: `/api/rpc/post/findMany?${rpcQuery({ take: 1000 })}` }),
        check: hasItems(1000),
    },
];

export function selectScenarios(names?: string[]): Scenario[] {
    if (!names) return SCENARIOS;
    const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
    if (unknown.length) {
        throw new Error(`BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`);
    }
    return SCENARIOS.filter((s) => names.includes(s.name));
}
