import type { ParsedRequest } from './http';
import { first, publishedFilter, resourceData, restRouter, rpc, sortOrder, type Client, type Route } from './floor';

/**
 * A second floor, for information: the least code that makes *our* handler's ORM calls (observed
 * with BENCH_LOG_CALLS=1; the pre-flight fails when they drift apart) and sends the result through
 * JSON.stringify. Where our calls cost more than upstream's (the REST page and `meta.total` read
 * between two snapshot probes, a stable order and a cap on included to-many relationships), ours ÷
 * this floor is what our handler itself costs. RPC: our handler makes upstream's calls, so this is
 * the floor's RPC.
 */

/** The fields our REST handler selects per model: attributes, with the foreign keys among them. */
const FIELDS = {
    post: { id: true, createdAt: true, title: true, published: true, viewCount: true, authorId: true },
    user: { id: true, email: true, name: true, role: true },
    comment: { id: true, content: true, postId: true },
};
const ID_ORDER = [{ id: 'asc' }];
/** The bench servers' `pageSize`: the default page and the cap on included to-many relationships. */
const PAGE_SIZE = 1000;
const INCLUDED: Record<string, unknown> = {
    author: { select: FIELDS.user },
    // one more than shown: ours tells from it that an included to-many has more members (links to its next page)
    comments: { select: FIELDS.comment, orderBy: ID_ORDER, take: PAGE_SIZE + 1 },
};

function listArgs(query: ParsedRequest['query']): { where?: Record<string, unknown>; args: Record<string, unknown>; skip: number; take: number } {
    const args: Record<string, unknown> = {};
    const where = publishedFilter(query);
    if (where) args.where = where;
    const sort = first(query.sort);
    // ours appends the id to every order, for a stable page
    args.orderBy = sort ? [...sortOrder(sort), ...ID_ORDER] : ID_ORDER;
    const skip = Number(first(query['page[offset]']) ?? 0);
    if (skip > 0) args.skip = skip;
    const take = Number(first(query['page[limit]']) ?? PAGE_SIZE);
    args.take = take;
    const select: Record<string, unknown> = { ...FIELDS.post };
    for (const name of first(query.include)?.split(',') ?? []) select[name] = INCLUDED[name];
    args.select = select;
    return { where, args, skip, take };
}

/** The snapshot probe `withTransactionCleanup` offers on the factory (src/driver/snapshot-probe.ts), on SQLite. */
const SNAPSHOT_PROBE = Symbol.for('zenstack-api.snapshotProbe');

function probeOf(db: Client): (() => Promise<string | undefined>) | undefined {
    if (db._activeProvider !== 'sqlite') return undefined;
    const probe = db._engineConfig.adapter[SNAPSHOT_PROBE];
    if (typeof probe !== 'function') throw new Error('the bench database is not opened through withTransactionCleanup');
    return probe;
}

const routes: Record<string, Route> = {
    'GET /post': async (db, req) => {
        const { where, args, skip, take } = listArgs(req.query);
        // a page that is not full gives the total without counting
        const read = async (client: Client) => {
            const rows = await client.post.findMany(args);
            const total = rows.length < take && (rows.length > 0 || skip === 0) ? skip + rows.length : await client.post.count({ where });
            return { rows, total };
        };
        // one state of the database: on SQLite nothing committed between two probes, else a transaction
        // (on PostgreSQL always, at repeatable read)
        const probe = probeOf(db);
        const before = await probe?.();
        const optimistic = before === undefined ? undefined : await read(db);
        const answer =
            optimistic && (await probe!()) === before
                ? optimistic
                : await db.$transaction(read, db._activeProvider === 'postgresql' ? { isolationLevel: 'RepeatableRead' } : undefined);
        return { status: 200, body: { data: answer.rows, meta: { total: answer.total } } };
    },
    'GET /post/:id': async (db, _req, id) => ({ status: 200, body: { data: await db.post.findUnique({ where: { id }, select: FIELDS.post }) } }),
    'POST /post': async (db, req) => ({ status: 201, body: { data: await db.post.create({ data: resourceData(req.body), select: FIELDS.post }) } }),
    'PATCH /post/:id': async (db, req, id) => ({
        status: 200,
        body: { data: await db.post.update({ where: { id }, data: resourceData(req.body), select: FIELDS.post }) },
    }),
};

export const floorOursHandlers = { rest: restRouter(routes), rpc };
