import Decimal from 'decimal.js-light';
import { appView, onBoth } from './support/compare';
import { clientServers, PLAIN_PATH, type ClientServer } from './support/servers';
import { tanstackClient } from './support/tanstack';
import { ALICE, AT, seedBlog } from './support/seed';

/**
 * The queries of ZenStack's generated TanStack Query hooks (v5 runtime: `q` and `meta` built by its `makeUrl`,
 * answers read by its `fetcher`/`unmarshal`), sent to our RPC handler behind Express and to
 * `@zenstackhq/server` 2.22.3's: the hook's data (or error) must be the same.
 */

const servers = clientServers(seedBlog);

const hooks = (server: ClientServer, user?: number) => tanstackClient(`${server.origin}${PLAIN_PATH}`, server.s.modelMeta, user);

/** One object in two places of the args: superjson lists the second as a referential equality of the first. */
const SHARED = { id: true };

type Read = [name: string, model: string, operation: string, args: unknown, user?: number];

const READS: Read[] = [
    ['findMany with where, include, orderBy, skip and take', 'Post', 'findMany', { where: { authorId: ALICE }, include: { author: true, comments: { take: 1 } }, orderBy: { id: 'desc' }, skip: 0, take: 5 }, ALICE],
    ['findMany under the read policy, anonymous', 'Post', 'findMany', { select: { id: true, title: true } }],
    ['findMany with a select, a relation filter and a relation count', 'Post', 'findMany', { where: { comments: { some: { content: 'Nice' } } }, select: { id: true, _count: { select: { comments: true } } } }, ALICE],
    ['findMany with a Date filter (a Date object in the args)', 'Post', 'findMany', { where: { createdAt: { lte: AT } }, select: { id: true, createdAt: true }, orderBy: { id: 'asc' } }, ALICE],
    ['findUnique of every scalar type', 'AllTypes', 'findUnique', { where: { id: 'typed' } }],
    ['findUnique of a record the user cannot read (null)', 'Post', 'findUnique', { where: { id: 3 } }, ALICE],
    // (not a BigInt: TanStack hashes the query key, which holds the args, with JSON.stringify, which throws on one)
    ['findFirst with Decimal, Date and Bytes filters', 'AllTypes', 'findFirst', { where: { decimal: { gt: new Decimal('12.3') }, dateTime: AT, bytes: Buffer.from([1, 2, 3]) }, select: { id: true, decimal: true } }],
    ['findFirst with a Bytes filter from a runtime without Buffer (a Uint8Array)', 'AllTypes', 'findFirst', { where: { bytes: new Uint8Array([1, 2, 3]) }, select: { id: true } }],
    ['findFirst with a Json filter holding a null', 'AllTypes', 'findFirst', { where: { json: { equals: { a: [1, 'two', null] } } }, select: { id: true, json: true } }],
    ['findMany with optional filters left undefined (superjson sends null tagged "undefined")', 'Post', 'findMany', { where: { title: undefined, published: true, author: undefined }, select: { id: true } }, ALICE],
    ['findMany holding one object in two places (superjson\'s referentialEqualities)', 'Post', 'findMany', { where: { createdAt: { gte: AT, lte: AT } }, include: { author: { select: SHARED }, comments: { select: SHARED } } }, ALICE],
    ['findFirst with no match (null)', 'Post', 'findFirst', { where: { title: 'nothing' } }, ALICE],
    ['count', 'Post', 'count', { where: { published: true } }],
    ['count with a select', 'Post', 'count', { select: { _all: true, title: true } }, ALICE],
    ['count without arguments', 'Post', 'count', undefined, ALICE],
    ['aggregate with _sum, _avg, _max of a Date and _count', 'Post', 'aggregate', { _sum: { viewCount: true }, _avg: { viewCount: true }, _max: { createdAt: true }, _count: true }, ALICE],
    ['aggregate of typed fields (Decimal, BigInt)', 'AllTypes', 'aggregate', { _sum: { decimal: true, bigInt: true }, _min: { dateTime: true } }],
    ['groupBy with _count, orderBy and having', 'Post', 'groupBy', { by: ['published'], _count: { _all: true }, _sum: { viewCount: true }, orderBy: { published: 'asc' }, having: { viewCount: { _sum: { gte: 0 } } } }, ALICE],
    ['check on a schema generated without permission checkers', 'Post', 'check', { operation: 'read' }, ALICE],
];

describe('TanStack Query hooks (v5 runtime): queries answer as with @zenstackhq/server 2.22.3', () => {
    it.each(READS)('%s', async (...[, model, operation, args, user]: Read) => {
        const { ours, upstream } = await onBoth(servers, (server) => hooks(server, user).query(model, operation, args));
        expect(appView(ours)).toEqual(appView(upstream));
        // the check hook needs permission checkers, which this schema is generated without: a 400 from both
        expect(Object.keys(ours)).toEqual([operation === 'check' ? 'error' : 'data']);
    });

    it('typed values come back as the app expects them: Date, bigint, Decimal, Bytes, Json with null', async () => {
        const data = (await hooks(servers.ours()).query('AllTypes', 'findUnique', { where: { id: 'typed' } })) as Record<string, unknown>;
        expect(data.dateTime).toEqual(AT);
        expect(data.bigInt).toBe(BigInt('9007199254740993'));
        expect(data.decimal).toBeInstanceOf(Decimal);
        expect(String(data.decimal)).toBe('12.345');
        expect(data.bytes).toBeInstanceOf(Uint8Array);
        expect([...(data.bytes as Uint8Array)]).toEqual([1, 2, 3]);
        expect(data.json).toEqual({ a: [1, 'two', null] });
    });

    it('an argument the ORM refuses is thrown as a 400 by both; ours without 2.x\'s "prisma" flag (docs/migrating.md), which the runtime does not read there', async () => {
        const { ours, upstream } = await onBoth(servers, (server) => hooks(server, ALICE).query('Post', 'findMany', { where: { nope: 1 } }));
        expect(appView(ours)).toEqual({ thrown: 'An error occurred while fetching the data.', status: 400 });
        expect(appView(upstream)).toEqual({ thrown: 'An error occurred while fetching the data.', status: 400, prisma: true });
        expect((ours as { error: { info: { message: string } } }).error.info.message).toMatch(/nope/);
    });
});
