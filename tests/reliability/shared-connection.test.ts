import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { withTransactionCleanup } from '../../src';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { withOverrides } from '../../src/driver/overrides';
import { SNAPSHOT_PROBE } from '../../src/driver/snapshot-probe';
import type { Response } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * SQLite through `@prisma/adapter-better-sqlite3` has one connection for everything. Without
 * `withTransactionCleanup`, a statement sent outside a transaction runs inside whatever transaction
 * another request has open on it: it reads that transaction's uncommitted rows, and its own write is
 * rolled back with that transaction after it was acknowledged. With the wrapper such statements wait
 * for the transaction to end. "Another request's transaction" is held open by a raw client here, so
 * that the requests under test land inside it for certain.
 */

type Client = ReturnType<TestSchema['createClient']>;

/**
 * A factory whose adapter reports each call that reaches it (startTransaction or a statement), and
 * whose snapshot probe reports each call too: a REST list's first statement is the probe, which runs
 * on the wrapped adapter's gated `queryRaw`, not through the adapter this factory hands out.
 */
function observed<F extends object>(factory: F): { factory: F; nextCall: () => Promise<void> } {
    let waiting: (() => void)[] = [];
    const reporting = (adapter: Record<string, (...a: unknown[]) => unknown>, name: string) => (...args: unknown[]) => {
        const w = waiting;
        waiting = [];
        w.forEach((resolve) => resolve());
        return adapter[name](...args);
    };
    const connect = async () => {
        const adapter = await (factory as unknown as { connect(): Promise<Record<string, (...a: unknown[]) => unknown>> }).connect();
        const names = ['queryRaw', 'executeRaw', 'startTransaction'];
        return withOverrides(adapter, Object.fromEntries(names.map((name) => [name, reporting(adapter, name)])));
    };
    const probe = (factory as Record<symbol, (...a: unknown[]) => unknown>)[SNAPSHOT_PROBE];
    expect(typeof probe).toBe('function');
    const overrides = { connect, [SNAPSHOT_PROBE]: reporting({ probe }, 'probe') };
    return { factory: withOverrides(factory, overrides), nextCall: () => new Promise<void>((resolve) => waiting.push(resolve)) };
}

/**
 * Opens a transaction on `client` that inserts a user and stays open until `rollBack()` (or until Prisma's
 * timeout expires it: `stillOpen()` tells, by reading through it).
 */
async function openTransaction(client: Client): Promise<{ rollBack: () => Promise<void>; stillOpen: () => Promise<boolean> }> {
    let txClient!: Client;
    let opened!: () => void;
    let abort!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const aborted = new Promise<void>((resolve) => (abort = resolve));
    const done = client
        .$transaction(
            async (tx: Client) => {
                await tx.user.create({ data: { email: 'uncommitted@shared.test' } });
                txClient = tx;
                opened();
                await aborted;
                throw new Error('rolled back on purpose');
            },
            { timeout: 60_000 },
        )
        .catch((err: Error) => expect(err.message).toBe('rolled back on purpose'));
    await isOpen;
    return {
        rollBack: async () => {
            abort();
            await done;
        },
        stillOpen: () => txClient.user.count().then(() => true, () => false),
    };
}

function handlers(s: TestSchema, client: Client) {
    const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
    const rpc = RPCApiHandler();
    const common = { modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null };
    return {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        rest: (method: string, path: string, user?: number): Promise<Response & { body: any }> =>
            rest({ method, path, query: {}, prisma: s.enhanceClient(client, user ? { id: user } : undefined), ...common }),
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        rpc: (method: string, path: string, args: unknown, user?: number): Promise<Response & { body: any }> =>
            rpc({ method, path, query: { q: JSON.stringify(args) }, prisma: s.enhanceClient(client, user ? { id: user } : undefined), ...common }),
    };
}

describe('SQLite (better-sqlite3): requests while another transaction is open', () => {
    let s: TestSchema;
    let client: Client | undefined;

    beforeEach(async () => {
        s = await loadSchema();
        await s.prisma.user.create({ data: { id: 1, email: 'one@shared.test' } });
        await s.prisma.post.create({ data: { id: 1, title: 'kept', published: true, authorId: 1, comments: { create: [{ content: 'a' }, { content: 'b' }] } } });
    });

    afterEach(async () => {
        await client?.$disconnect();
        client = undefined;
        await s.cleanup();
    });

    it('without withTransactionCleanup (Prisma 6.19): reads see the open transaction, and an acknowledged delete is undone by its rollback', async () => {
        client = s.createClient(new PrismaBetterSQLite3({ url: s.databaseUrl }));
        const api = handlers(s, client);
        const tx = await openTransaction(client);

        // (a REST list reads its page and total in a transaction of its own, so it waits; RPC findMany does not)
        const users = await api.rpc('GET', '/user/findMany', {}, 1);
        expect(users.body.data.map((u: { email: string }) => u.email)).toContain('uncommitted@shared.test');
        const deleted = await api.rpc('DELETE', '/comment/deleteMany', { where: { postId: 1 } }, 1);
        expect([deleted.status, deleted.body.data]).toEqual([200, { count: 2 }]);

        await tx.rollBack();
        // the two comments the client was told were deleted are back
        expect(await s.prisma.comment.count()).toBe(2);
        expect(await s.prisma.user.count({ where: { email: 'uncommitted@shared.test' } })).toBe(0);
    });

    it('with withTransactionCleanup: they wait for it, then read what is committed and their writes stay', async () => {
        const probe = observed(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl })));
        client = s.createClient(probe.factory);
        const api = handlers(s, client);
        const tx = await openTransaction(client);

        let answered = 0;
        // sends a request and waits until it has reached the database (a promise in a box: not awaited)
        const sent = async <T>(request: () => Promise<T>): Promise<{ answer: Promise<T> }> => {
            const arrived = probe.nextCall();
            const answer = request().finally(() => answered++);
            await arrived;
            return { answer };
        };
        const users = (await sent(() => api.rpc('GET', '/user/findMany', {}, 1))).answer;
        const list = (await sent(() => api.rest('GET', '/user', 1))).answer;
        const deleted = (await sent(() => api.rpc('DELETE', '/comment/deleteMany', { where: { postId: 1 } }, 1))).answer;
        // all three reached the database while the transaction is open: none can have run
        expect(answered).toBe(0);
        expect(await tx.stillOpen()).toBe(true);

        await tx.rollBack();
        const found = await users;
        expect(found.body.data.map((u: { email: string }) => u.email)).toEqual(['one@shared.test']);
        const page = await list;
        expect(page.status).toBe(200);
        expect(page.body.data.map((u: { attributes: { email: string } }) => u.attributes.email)).toEqual(['one@shared.test']);
        expect(page.body.meta.total).toBe(1);
        const del = await deleted;
        expect([del.status, del.body.data]).toEqual([200, { count: 2 }]);
        expect(await s.prisma.comment.count()).toBe(0);
    });

    it('with withTransactionCleanup: a transaction that cannot start gives the connection back', async () => {
        client = s.createClient(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl })));
        // SQLite has only serializable transactions: the adapter refuses to start this one
        await expect(client.$transaction(async () => undefined, { isolationLevel: 'ReadCommitted' })).rejects.toThrow();
        const api = handlers(s, client);
        const found = await api.rpc('GET', '/post/findMany', {}, 1);
        expect(found.body.data.map((p: { title: string }) => p.title)).toEqual(['kept']);
        const page = await api.rest('GET', '/post', 1);
        expect(page.body.meta.total).toBe(1);
    });
});
