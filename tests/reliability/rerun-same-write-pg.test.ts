import { Client } from 'pg';
import { withTransactionCleanup } from '../../src';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { Response } from '../../src/types';
import { driverAdapter } from '../support/generated';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { hookStatement } from './support/statement-hook';

/**
 * A write that lost to a concurrent transaction runs again (common/rerun.ts). Running it again is only right when the
 * second run sends what the first one sent: nothing of the request's arguments may have been changed on the way by the
 * first run (by the ORM, ZenStack, or the handler's own rewrites of relation `set`s, hidden targets, one-to-one links,
 * `omit`, dates, JSON:API relationships). Each request below is sent once on a clean database, counting its writes;
 * then once with its first write and once with its last refused by the database with a deadlock (SQLSTATE 40P01, raised in
 * the request's own session, which rolls back its transaction as a real deadlock does). The second run must store
 * what the clean run stored and answer what it answered.
 */

const WRITE = /^\s*(INSERT INTO|UPDATE|DELETE FROM)\s/i;

type Send = (prisma: unknown) => Promise<Response>;

interface Case {
    name: string;
    send: (s: TestSchema) => Send;
}

const rpc =
    (method: string, path: string, requestBody: unknown): Case['send'] =>
    (s) =>
    (prisma) =>
        RPCApiHandler()({ method, path, query: {}, requestBody, prisma: prisma as never, modelMeta: s.modelMeta, logger: null });

const rest =
    (method: string, path: string, requestBody: unknown): Case['send'] =>
    (s) =>
    (prisma) =>
        RestApiHandler({ endpoint: 'http://localhost/api' })({ method, path, query: {}, requestBody, prisma: prisma as never, modelMeta: s.modelMeta, logger: null });

const CASES: Case[] = [
    {
        name: 'RPC create with nested creates',
        send: rpc('POST', '/post/create', {
            data: { id: 10, title: 'new', published: true, authorId: 1, comments: { create: [{ id: 10, content: 'a' }, { id: 11, content: 'b' }] } },
            include: { comments: { orderBy: { id: 'asc' } } },
        }),
    },
    {
        name: 'RPC update with nested create, update, connect and connectOrCreate',
        send: rpc('PUT', '/user/update', {
            where: { id: 1 },
            data: {
                name: 'al',
                posts: { create: { id: 11, title: 'n2', comments: { create: { id: 12, content: 'k' } } }, update: { where: { id: 2 }, data: { title: 't2', viewCount: { increment: 1 } } } },
                allTypes: { connectOrCreate: { where: { id: 'at2' }, create: { id: 'at2', string: 's' } } },
            },
            include: { posts: { orderBy: { id: 'asc' } }, allTypes: { orderBy: { id: 'asc' } } },
        }),
    },
    {
        name: 'RPC update with a nested to-one upsert',
        send: rpc('PUT', '/user/update', { where: { id: 1 }, data: { profile: { upsert: { create: { id: 5, gender: 'f' }, update: { gender: 'm' } } } }, include: { profile: true } }),
    },
    {
        name: 'RPC update with a relation set (a serializable transaction of the handler)',
        send: rpc('PUT', '/user/update', { where: { id: 1 }, data: { posts: { set: [{ id: 1 }, { id: 2 }] } }, include: { posts: { orderBy: { id: 'asc' } } } }),
    },
    {
        name: 'RPC upsert creating with nested writes',
        send: rpc('POST', '/post/upsert', {
            where: { id: 12 },
            create: { id: 12, title: 'u', authorId: 1, comments: { create: { id: 13, content: 'x' } } },
            update: { title: 'not this' },
        }),
    },
    {
        name: 'RPC upsert updating with nested writes',
        send: rpc('POST', '/post/upsert', {
            where: { id: 2 },
            create: { id: 2, title: 'not this', author: { connect: { id: 1 } } },
            update: { title: 'yes', viewCount: { increment: 5 }, comments: { create: { id: 14, content: 'y' } } },
            include: { comments: { orderBy: { id: 'asc' } } },
        }),
    },
    {
        name: 'RPC update of every kind of value, a date as a string',
        send: rpc('PUT', '/allTypes/update', { where: { id: 'at1' }, data: { int: { increment: 3 }, json: { a: [1, { b: 2 }] }, dateTime: '2020-01-01T00:00:00.000Z', string: 'q' } }),
    },
    {
        name: 'RPC update with omit',
        send: rpc('PUT', '/user/update', { where: { id: 1 }, data: { name: 'o', posts: { update: { where: { id: 3 }, data: { published: true } } } }, omit: { email: true } }),
    },
    {
        name: 'RPC update moving a comment (connect from the owner side)',
        send: rpc('PUT', '/comment/update', { where: { id: 1 }, data: { content: 'moved', post: { connect: { id: 2 } } } }),
    },
    {
        name: 'RPC createMany and updateMany',
        send: rpc('POST', '/$transaction/sequential', [
            { model: 'post', op: 'createMany', args: { data: [{ id: 20, title: 'm1', authorId: 1 }, { id: 21, title: 'm2', authorId: 1 }] } },
            { model: 'post', op: 'updateMany', args: { where: { authorId: 1 }, data: { viewCount: { increment: 1 } } } },
        ]),
    },
    {
        name: 'RPC $transaction/sequential of nested writes',
        send: rpc('POST', '/$transaction/sequential', [
            { model: 'post', op: 'create', args: { data: { id: 14, title: 'tx', authorId: 1 } } },
            { model: 'comment', op: 'create', args: { data: { id: 15, content: 'on tx', postId: 14 } } },
            { model: 'comment', op: 'update', args: { where: { id: 2 }, data: { post: { connect: { id: 14 } } } } },
            { model: 'allTypes', op: 'update', args: { where: { id: 'at1' }, data: { int: { increment: 1 } } } },
            { model: 'user', op: 'update', args: { where: { id: 1 }, data: { posts: { set: [{ id: 14 }] } }, omit: { email: true } } },
        ]),
    },
    {
        name: 'RPC delete',
        send: rpc('DELETE', '/post/delete', undefined),
    },
    {
        name: 'JSON:API create with to-one and to-many relationships',
        send: rest('POST', '/post', {
            data: {
                type: 'post',
                id: '30',
                attributes: { title: 'r', published: true },
                relationships: { author: { data: { type: 'user', id: '1' } }, comments: { data: [{ type: 'comment', id: '2' }] } },
            },
        }),
    },
    {
        name: 'JSON:API update replacing a to-many relationship',
        send: rest('PATCH', '/user/1', { data: { type: 'user', id: '1', attributes: { name: 'patched' }, relationships: { posts: { data: [{ type: 'post', id: '1' }, { type: 'post', id: '3' }] } } } }),
    },
    {
        name: 'JSON:API upsert',
        send: rest('POST', '/post', {
            data: { type: 'post', id: '2', attributes: { title: 'upserted' }, relationships: { author: { data: { type: 'user', id: '1' } }, comments: { data: [{ type: 'comment', id: '1' }] } } },
            meta: { operation: 'upsert', matchFields: ['id'] },
        }),
    },
    {
        name: 'JSON:API relationship replacement',
        send: rest('PATCH', '/user/1/relationships/posts', { data: [{ type: 'post', id: '2' }] }),
    },
    {
        name: 'JSON:API relationship addition',
        send: rest('POST', '/post/2/relationships/comments', { data: [{ type: 'comment', id: '1' }, { type: 'comment', id: '2' }] }),
    },
];

// the RPC delete takes its arguments from the query string
CASES.find((c) => c.name === 'RPC delete')!.send = (s) => (prisma) =>
    RPCApiHandler()({ method: 'DELETE', path: '/post/delete', query: { q: JSON.stringify({ where: { id: 3 } }) }, prisma: prisma as never, modelMeta: s.modelMeta, logger: null });

/** Values set from the clock (`@default(now())`), which differ between any two runs. */
const CLOCK = new Set(['createdAt', 'dateTime']);

function normalized(value: unknown): unknown {
    return JSON.parse(JSON.stringify(value, (key, v) => (CLOCK.has(key) ? '<clock>' : typeof v === 'bigint' ? `${v}n` : v)));
}

describePg('a write that runs again sends what it sent the first time', () => {
    let s: TestSchema | undefined;
    let admin: Client;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let client: any;
    /** Writes counted since the last reset; the one to refuse (1-based), if any. */
    const writes = { seen: 0, refuse: 0 };

    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        admin = new Client({ connectionString: s.databaseUrl });
        await admin.connect();
        client = s.createClient(
            withTransactionCleanup(
                hookStatement(await driverAdapter('postgresql', s.databaseUrl), {
                    matches: (sql) => WRITE.test(sql) && ++writes.seen === writes.refuse,
                    fail: () => '40P01',
                    times: Infinity,
                }) as never,
            ),
        );
    });
    afterAll(async () => {
        await client?.$disconnect();
        await admin?.end();
        await s?.cleanup();
    });

    async function reset(): Promise<void> {
        await admin.query('TRUNCATE "User", "Post", "Comment", "Profile", "AllTypes" RESTART IDENTITY CASCADE');
        const db = s!.prisma;
        await db.user.create({ data: { id: 1, email: 'alice@rerun.test' } });
        await db.user.create({ data: { id: 2, email: 'bob@rerun.test' } });
        await db.profile.create({ data: { id: 1, gender: 'x', userId: 2 } });
        for (const [id, authorId, published] of [
            [1, 1, true],
            [2, 1, false],
            [3, 1, false],
            [4, 2, true],
        ] as const) {
            await db.post.create({ data: { id, title: `post ${id}`, authorId, published } });
        }
        for (const [id, postId] of [
            [1, 1],
            [2, 1],
            [3, 4],
        ]) {
            await db.comment.create({ data: { id, content: `comment ${id}`, postId } });
        }
        await db.allTypes.create({ data: { id: 'at1', ownerId: 1 } });
        writes.seen = 0;
    }

    async function stored(): Promise<unknown> {
        const db = s!.prisma;
        const orderBy = { id: 'asc' };
        return normalized({
            users: await db.user.findMany({ orderBy }),
            profiles: await db.profile.findMany({ orderBy }),
            posts: await db.post.findMany({ orderBy }),
            comments: await db.comment.findMany({ orderBy }),
            allTypes: await db.allTypes.findMany({ orderBy }),
        });
    }

    it.each(CASES)('$name', async ({ send }) => {
        if (!s) return;
        const request = send(s);
        const enhanced = () => s!.enhanceClient(client, { id: 1 });
        await reset();
        writes.refuse = 0;
        const clean = await request(enhanced());
        expect(clean.status).toBeLessThan(300);
        const count = writes.seen;
        const expected = { status: clean.status, body: normalized(clean.body), stored: await stored() };
        expect(count).toBeGreaterThan(0);
        // the first write refused (nothing of the first run done), and the last (all of it done but that)
        for (const refuse of new Set([1, count])) {
            await reset();
            writes.refuse = refuse;
            const rerun = await request(enhanced());
            writes.refuse = 0;
            // the refused write happened: the request ran again
            expect(writes.seen).toBeGreaterThan(count);
            expect({ refuse, status: rerun.status, body: normalized(rerun.body), stored: await stored() }).toEqual({ refuse, ...expected });
        }
    });
});
