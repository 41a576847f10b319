import Decimal from 'decimal.js-light';
import { appView, onBoth } from './support/compare';
import { clientServers, PLAIN_PATH, type ClientServer } from './support/servers';
import { swrClient } from './support/swr';
import { ALICE, AT, BOB, seedBlog } from './support/seed';

/**
 * ZenStack's generated SWR hooks (`@zenstackhq/swr` runtime) against our RPC handler and `@zenstackhq/server`
 * 2.22.3's. Unlike the TanStack runtime, SWR's sends a `DELETE`'s arguments twice: in `q`/`meta` and again as
 * a JSON body (`{ ...args, meta: { serialization } }`); 2.x reads `q` and ignores the body.
 */

const servers = clientServers(seedBlog);

const hooks = (server: ClientServer, user?: number) => swrClient(`${server.origin}${PLAIN_PATH}`, server.s.modelMeta, user);

type Call = [name: string, kind: 'query' | 'mutate', model: string, operation: string, args: unknown, user?: number];

const CALLS: Call[] = [
    ['findMany with a Date filter, include and orderBy', 'query', 'Post', 'findMany', { where: { createdAt: { lte: AT } }, include: { comments: true }, orderBy: { id: 'asc' } }, ALICE],
    ['findUnique of every scalar type', 'query', 'AllTypes', 'findUnique', { where: { id: 'typed' } }],
    ['findFirst with Decimal and Bytes filters', 'query', 'AllTypes', 'findFirst', { where: { decimal: { gte: new Decimal('12.345') }, bytes: Buffer.from([1, 2, 3]) }, select: { id: true } }],
    ['aggregate and groupBy', 'query', 'Post', 'groupBy', { by: ['authorId'], _count: { _all: true }, _max: { createdAt: true }, orderBy: { authorId: 'asc' } }, ALICE],
    ['count', 'query', 'Post', 'count', { where: { authorId: ALICE } }, ALICE],
    ['create of typed values', 'mutate', 'AllTypes', 'create', { data: { id: 'made', bigInt: BigInt(5), decimal: new Decimal('2.5'), bytes: Buffer.from([9]), dateTime: AT } }],
    ['createMany', 'mutate', 'Comment', 'createMany', { data: [{ id: 5, content: 'a', postId: 1 }, { id: 6, content: 'b', postId: 1 }] }, ALICE],
    ['update', 'mutate', 'Post', 'update', { where: { id: 2 }, data: { title: 'Edited', viewCount: { increment: 1 } } }, ALICE],
    ['updateMany', 'mutate', 'Comment', 'updateMany', { where: { postId: 1 }, data: { content: 'same' } }, ALICE],
    ['upsert', 'mutate', 'Post', 'upsert', { where: { id: 2 }, create: { title: 'x', authorId: ALICE }, update: { title: 'Upserted' } }, ALICE],
    ['delete', 'mutate', 'Comment', 'delete', { where: { id: 5 }, select: { id: true } }, ALICE],
    ['deleteMany', 'mutate', 'Comment', 'deleteMany', { where: { id: { in: [6] } } }, ALICE],
    ['deleteMany with typed filters (BigInt, Date: meta in the URL and in the body)', 'mutate', 'AllTypes', 'deleteMany', { where: { bigInt: BigInt(5), dateTime: { lte: AT } } }],
    ['deleteMany without a filter', 'mutate', 'Comment', 'deleteMany', {}, ALICE],
    ['a delete the policy rejects', 'mutate', 'Post', 'delete', { where: { id: 1 } }, BOB],
    ['a delete of a record that does not exist', 'mutate', 'Post', 'delete', { where: { id: 999 } }, ALICE],
    ['an update the policy rejects', 'mutate', 'Post', 'update', { where: { id: 1 }, data: { title: 'mine' } }, BOB],
    ['a create whose result the user cannot read (the hook answers undefined)', 'mutate', 'User', 'create', { data: { email: 'anon@x' } }],
];

describe('SWR hooks: queries and mutations answer as with @zenstackhq/server 2.22.3', () => {
    it.each(CALLS)('%s', async (...[name, kind, model, operation, args, user]: Call) => {
        const { ours, upstream } = await onBoth(servers, (server) => hooks(server, user)[kind](model, operation, args));
        expect(appView(ours)).toEqual(appView(upstream));
        expect(Object.keys(ours)).toEqual([/rejects|not exist/.test(name) ? 'error' : 'data']);
    });

    it('the databases are alike afterwards', async () => {
        const read = (s: ClientServer['s']) =>
            Promise.all([s.prisma.post.findMany({ orderBy: { id: 'asc' } }), s.prisma.comment.findMany({ orderBy: { id: 'asc' } }), s.prisma.allTypes.findMany({ orderBy: { id: 'asc' } })]);
        expect(await read(servers.ours().s)).toEqual(await read(servers.upstream().s));
        expect(await servers.ours().s.prisma.comment.count()).toBe(0);
    });
});
