import Decimal from 'decimal.js-light';
import { appView, onBoth } from './support/compare';
import { clientServers, PLAIN_PATH, VALIDATED_PATH, type ClientServer } from './support/servers';
import { tanstackClient } from './support/tanstack';
import { ALICE, AT, BOB, seedBlog } from './support/seed';

/**
 * The mutations of ZenStack's generated TanStack Query hooks (v5 runtime: bodies built by its `marshal`, DELETE
 * arguments by its `makeUrl`, errors thrown by its `fetcher` with `status` and `info`), against our RPC handler
 * and `@zenstackhq/server` 2.22.3's. The calls run in order on both servers, each on its own database, so that
 * the databases stay alike.
 */

const servers = clientServers(seedBlog);

const hooks = (server: ClientServer, user?: number, path = PLAIN_PATH) => tanstackClient(`${server.origin}${path}`, server.s.modelMeta, user);

type Write = [name: string, model: string, operation: string, args: unknown, user?: number];

const WRITES: Write[] = [
    ['create with a Date', 'Post', 'create', { data: { id: 10, title: 'New', createdAt: AT, authorId: ALICE } }, ALICE],
    ['create with a nested connect, answered with an include', 'Post', 'create', { data: { title: 'Linked', createdAt: AT, author: { connect: { id: ALICE } } }, include: { author: true } }, ALICE],
    [
        'create of typed values (BigInt, Decimal, Bytes, Date, Json with null)',
        'AllTypes',
        'create',
        { data: { id: 'made', bigInt: BigInt('-9007199254740993'), decimal: new Decimal('0.1'), bytes: Buffer.from([0, 255]), dateTime: AT, json: { k: null, l: [null] } } },
    ],
    ['update of typed values, the Bytes from a runtime without Buffer', 'AllTypes', 'update', { where: { id: 'made' }, data: { bigInt: { increment: BigInt(2) }, bytes: new Uint8Array([7, 8]) }, select: { bigInt: true, bytes: true } }],
    ['update with fields left undefined and one Date object in two places', 'Post', 'update', { where: { id: 10 }, data: { title: undefined, published: undefined, createdAt: { set: AT } }, select: { id: true, createdAt: true, comments: { where: { post: { createdAt: AT } } } } }, ALICE],
    ['createMany', 'Comment', 'createMany', { data: [{ id: 5, content: 'a', postId: 10 }, { id: 6, content: 'b', postId: 10 }] }, ALICE],
    ['update with increment and a nested create, answered with an include', 'Post', 'update', { where: { id: 10 }, data: { viewCount: { increment: 2 }, comments: { create: { id: 7, content: 'c' } } }, include: { comments: { orderBy: { id: 'asc' } } } }, ALICE],
    ['updateMany', 'Comment', 'updateMany', { where: { postId: 10 }, data: { content: 'same' } }, ALICE],
    ['upsert that updates', 'Post', 'upsert', { where: { id: 10 }, create: { title: 'x', authorId: ALICE }, update: { title: 'Upserted' }, select: { id: true, title: true } }, ALICE],
    ['upsert that creates', 'Post', 'upsert', { where: { id: 12 }, create: { id: 12, title: 'Created', createdAt: AT, authorId: ALICE }, update: { title: 'no' } }, ALICE],
    ['delete with a select', 'Comment', 'delete', { where: { id: 7 }, select: { id: true, content: true } }, ALICE],
    ['deleteMany', 'Comment', 'deleteMany', { where: { postId: 10 } }, ALICE],
    ['deleteMany with typed filters in the URL (BigInt, Date)', 'AllTypes', 'deleteMany', { where: { bigInt: { lt: BigInt(0) }, dateTime: { lte: AT } } }],
    ['a policy-rejected update', 'Post', 'update', { where: { id: 1 }, data: { title: 'mine' } }, BOB],
    ['a policy-rejected delete', 'Post', 'delete', { where: { id: 1 } }, BOB],
    ['a policy-rejected create', 'Post', 'create', { data: { title: 'as Bob', author: { connect: { id: ALICE } } } }, BOB],
    ['an update of a record that does not exist', 'Post', 'update', { where: { id: 999 }, data: { title: 'x' } }, ALICE],
    ['a delete of a record that does not exist', 'Post', 'delete', { where: { id: 999 } }, ALICE],
    ['a unique constraint violation', 'User', 'create', { data: { email: 'bob@x' } }, ALICE],
    ['a validation rule the enhanced client checks (@length)', 'Post', 'create', { data: { title: '', authorId: ALICE } }, ALICE],
    ['a create whose result the user cannot read (the hook answers undefined)', 'User', 'create', { data: { email: 'anon@x' } }],
    ['an update handing the post to another user, which its author then cannot read (the hook answers undefined)', 'Post', 'update', { where: { id: 2 }, data: { authorId: BOB } }, ALICE],
    ['an anonymous upsert, rejected (ZenStack checks the update rule too)', 'User', 'upsert', { where: { email: 'anon3@x' }, create: { email: 'anon3@x' }, update: {} }],
    ['a deleteMany the policy limits to the user\'s own rows', 'Post', 'deleteMany', { where: { id: { in: [3, 12] } } }, ALICE],
];

describe('TanStack Query hooks (v5 runtime): mutations answer as with @zenstackhq/server 2.22.3', () => {
    it.each(WRITES)('%s', async (...[name, model, operation, args, user]: Write) => {
        const { ours, upstream } = await onBoth(servers, (server) => hooks(server, user).mutate(model, operation, args));
        expect(appView(ours)).toEqual(appView(upstream));
        const fails = /rejected|not exist|violation|rule/.test(name);
        expect(Object.keys(ours)).toEqual([fails ? 'error' : 'data']);
        if (/answers undefined/.test(name)) expect(ours).toEqual({ data: undefined });
    });

    it('the databases are alike afterwards', async () => {
        const read = (s: ClientServer['s']) =>
            Promise.all([
                s.prisma.post.findMany({ orderBy: { id: 'asc' } }),
                s.prisma.comment.findMany({ orderBy: { id: 'asc' } }),
                s.prisma.allTypes.findMany({ orderBy: { id: 'asc' } }),
                s.prisma.user.findMany({ orderBy: { id: 'asc' } }),
            ]);
        const [ours, upstream] = [await read(servers.ours().s), await read(servers.upstream().s)];
        expect(ours).toEqual(upstream);
    });

    it('a policy rejection is thrown with status 403 and the flags apps branch on', async () => {
        const { ours } = await onBoth(servers, (server) => hooks(server, BOB).mutate('Post', 'update', { where: { id: 1 }, data: { title: 'mine' } }));
        expect(appView(ours)).toEqual({ thrown: 'An error occurred while fetching the data.', status: 403, prisma: true, rejectedByPolicy: true, code: 'P2004', reason: 'ACCESS_POLICY_VIOLATION' });
    });

    it('a create whose result cannot be read back resolves to undefined (the runtime\'s read-back check), and the record is written', async () => {
        const { ours, upstream } = await onBoth(servers, (server) => hooks(server).mutate('User', 'create', { data: { email: 'anon2@x' } }));
        expect(ours).toEqual({ data: undefined });
        expect(upstream).toEqual({ data: undefined });
        expect(await servers.ours().s.prisma.user.count({ where: { email: 'anon2@x' } })).toBe(1);
    });

    it('zod validation (the adapter given zodSchemas) is thrown as a 422 by both, with zodErrors', async () => {
        const { ours, upstream } = await onBoth(servers, (server) => hooks(server, ALICE, VALIDATED_PATH).mutate('Post', 'create', { data: { title: '', authorId: ALICE } }));
        expect(appView(ours)).toEqual(appView(upstream));
        expect(appView(ours)).toMatchObject({ status: 422, rejectedByValidation: true });
        const info = (o: typeof ours) => (o as { error: { info: { zodErrors: unknown } } }).error.info.zodErrors;
        expect(info(ours)).toEqual(info(upstream));
    });

    it('differs on purpose: an update of a record the user cannot read is thrown as a 404, as for a missing one (2.22.3: 403)', async () => {
        // post 3 is Bob's draft, hidden from Alice
        const { ours, upstream } = await onBoth(servers, (server) => hooks(server, ALICE).mutate('Post', 'update', { where: { id: 3 }, data: { title: 'mine' } }));
        expect(appView(ours)).toEqual({ thrown: 'An error occurred while fetching the data.', status: 404, prisma: true, code: 'P2025' });
        expect(appView(upstream)).toMatchObject({ status: 403, rejectedByPolicy: true });
    });
});
