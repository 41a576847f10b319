import type { ParsedRequest, Reply } from './http';

/**
 * The floor: the least code that makes the same ORM calls as `@zenstackhq/server` for the benchmark's
 * requests (observed with BENCH_LOG_CALLS=1) and sends the ORM's result through JSON.stringify.
 * No validation, no JSON:API document, no superjson: what is left is the cost of Prisma and the
 * ZenStack policy layer, the physical limit for any handler. It only understands the `post` requests
 * the scenarios send; anything else is a 404.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Client = any;
export type Route = (db: Client, req: ParsedRequest, id?: number) => Promise<Reply>;

/** Upstream loads the ids of every relationship of a resource it returns. */
const RELATIONSHIP_IDS = { author: { select: { id: true } }, comments: { select: { id: true } } };

export function first(value: string | string[] | undefined): string | undefined {
    return Array.isArray(value) ? value[0] : value;
}

/** The scenarios' only filter, `filter[published]`, as a Prisma `where` (undefined without it). */
export function publishedFilter(query: ParsedRequest['query']): Record<string, unknown> | undefined {
    const published = first(query['filter[published]']);
    return published === undefined ? undefined : { published: { equals: published === 'true' } };
}

/** `sort=-a,b` as a Prisma `orderBy` list. */
export function sortOrder(sort: string): Record<string, 'asc' | 'desc'>[] {
    return sort.split(',').map((f) => (f.startsWith('-') ? { [f.slice(1)]: 'desc' } : { [f]: 'asc' }));
}

/** The findMany arguments upstream builds for the list scenarios (only the keys it sets). */
function listArgs(query: ParsedRequest['query']): { where: Record<string, unknown>; args: Record<string, unknown> } {
    const args: Record<string, unknown> = {};
    const filter = publishedFilter(query);
    if (filter) args.where = filter;
    const sort = first(query.sort);
    if (sort) args.orderBy = sortOrder(sort);
    const include: Record<string, unknown> = { ...RELATIONSHIP_IDS };
    for (const name of first(query.include)?.split(',') ?? []) include[name] = true;
    args.include = include;
    const offset = first(query['page[offset]']);
    if (offset) args.skip = Number(offset);
    args.take = Number(first(query['page[limit]']) ?? 100);
    // upstream counts with an empty `where` when there is no filter
    return { where: filter ?? {}, args };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Resource = { data: { attributes?: Record<string, unknown>; relationships?: Record<string, any> } };

export function resourceData(body: unknown): Record<string, unknown> {
    const { attributes, relationships } = (body as Resource).data;
    const data: Record<string, unknown> = { ...attributes };
    for (const [name, rel] of Object.entries(relationships ?? {})) {
        data[name] = { connect: { id: Number(rel.data.id) } };
    }
    return data;
}

const restRoutes: Record<string, Route> = {
    'GET /post': async (db, req) => {
        const { where, args } = listArgs(req.query);
        const rows = await db.post.findMany(args);
        const total = await db.post.count({ where });
        return { status: 200, body: { data: rows, meta: { total } } };
    },
    'GET /post/:id': async (db, _req, id) => ({
        status: 200,
        body: { data: await db.post.findUnique({ where: { id }, include: RELATIONSHIP_IDS }) },
    }),
    'POST /post': async (db, req) => ({
        status: 201,
        body: { data: await db.post.create({ data: resourceData(req.body), include: RELATIONSHIP_IDS }) },
    }),
    'PATCH /post/:id': async (db, req, id) => ({
        status: 200,
        body: { data: await db.post.update({ where: { id }, data: resourceData(req.body), include: RELATIONSHIP_IDS }) },
    }),
};

/** Sends the scenarios' `post` requests (`GET /post`, `GET /post/:id` …) to `routes`; anything else is a 404. */
export function restRouter(routes: Record<string, Route>): (req: ParsedRequest, db: Client) => Promise<Reply> {
    return async (req, db) => {
        const match = /^\/post(?:\/(\d+))?$/.exec(req.path);
        const route = match && routes[`${req.method} /post${match[1] ? '/:id' : ''}`];
        if (!route) return { status: 404, body: { error: 'not found' } };
        return route(db, req, match[1] ? Number(match[1]) : undefined);
    };
}

const RPC_STATUS: Record<string, number> = { create: 201 };

export async function rpc(req: ParsedRequest, db: Client): Promise<Reply> {
    const [, model, op] = req.path.split('/');
    const args = req.method === 'GET' ? JSON.parse(first(req.query.q) ?? '{}') : req.body;
    return { status: RPC_STATUS[op] ?? 200, body: { data: await db[model][op](args) } };
}

export const floorHandlers = { rest: restRouter(restRoutes), rpc };
