import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, type PoolClient } from 'pg';
import { RPCApiHandler } from '../../src/api/rpc';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Prisma's query interpreter sends the independent statements of one query (the children of a nested include)
 * at once. Inside an interactive transaction, which ZenStack opens for every policy-checked write, they all go to
 * the transaction's one connection, where node-postgres queues them: deprecated since pg 8.19 (a DeprecationWarning
 * once a statement arrives while one runs and another waits) and dropped in pg 9. `withTransactionCleanup` sends
 * them one at a time; this test counts the statements a pooled connection is given while it is still running one.
 */

interface Counted {
    pool: Pool;
    /** Statements a connection was given while one of its own was still running. */
    overlapping: () => number;
}

/** A pool whose connections count the statements they are given while busy. */
function countingPool(url: string): Counted {
    const pool = new Pool({ connectionString: url, max: 4 });
    let overlapping = 0;
    pool.on('connect', (client: PoolClient) => {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        let running = 0;
        (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
            if (running > 0) overlapping++;
            running++;
            const last = args.length - 1;
            if (typeof args[last] === 'function') {
                const callback = args[last] as (...a: unknown[]) => void;
                args[last] = (...a: unknown[]) => {
                    running--;
                    callback(...a);
                };
                return query(...args);
            }
            const result = query(...args) as Promise<unknown>;
            return result.finally(() => running--);
        };
    });
    return { pool, overlapping: () => overlapping };
}

let s: TestSchema | undefined;

describePg('statements of one transaction', () => {
    beforeAll(async () => {
        if (!(await requirePg())) return;
        // the project's blog schema: its access rules put ZenStack's checks in the transaction too
        s = await loadSchema(undefined, { provider: 'postgresql' });
        await s.prisma.user.create({
            data: {
                email: 'ann@statements.test',
                profile: { create: { gender: 'f' } },
                posts: { create: [{ title: 'one', comments: { create: [{ content: 'a' }, { content: 'b' }] } }, { title: 'two' }] },
            },
        });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    /** User 1's RPC update answering with nested includes (one ZenStack transaction), and a read with them in a transaction. */
    async function run(adapter: unknown): Promise<unknown[]> {
        const client = s!.createClient(adapter);
        try {
            const rpc = await RPCApiHandler()({
                method: 'PUT',
                path: '/user/update',
                query: {},
                requestBody: { where: { id: 1 }, data: { name: 'Ann' }, include: { profile: true, posts: { include: { comments: true }, orderBy: { id: 'asc' } } } },
                prisma: s!.enhanceClient(client, { id: 1 }),
                modelMeta: s!.modelMeta,
                logger: null,
            });
            expect(rpc.status).toBe(200);
            const read = await client.$transaction((tx: typeof client) =>
                tx.user.findMany({ include: { profile: true, posts: { include: { author: true, comments: true }, orderBy: { id: 'asc' } } } }),
            );
            return [(rpc.body as { data: unknown }).data, read];
        } finally {
            await client.$disconnect();
        }
    }

    it('are sent one at a time through withTransactionCleanup, with the same answers', async () => {
        if (!s) return;
        const bare = countingPool(s.databaseUrl);
        const wrapped = countingPool(s.databaseUrl);
        try {
            const without = await run(new PrismaPg(bare.pool));
            const withIt = await run(withTransactionCleanup(new PrismaPg(wrapped.pool)));
            // the same rows either way (the second update writes the same name)
            expect(withIt).toEqual(without);
            expect((withIt[0] as { posts: { comments: unknown[] }[] }).posts[0].comments).toHaveLength(2);
            // Prisma 6.19 on its own: the includes' statements reach the transaction's connection at once
            expect(bare.overlapping()).toBeGreaterThan(0);
            expect(wrapped.overlapping()).toBe(0);
        } finally {
            await Promise.all([bare.pool.end(), wrapped.pool.end()]);
        }
    });
});
