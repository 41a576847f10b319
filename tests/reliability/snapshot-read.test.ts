import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { withTransactionCleanup } from '../../src';
import { RestApiHandler } from '../../src/api/rest';
import { withOverrides } from '../../src/driver/overrides';
import { SNAPSHOT_PROBE, type SnapshotProbe } from '../../src/driver/snapshot-probe';
import type { Response } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * A REST page and its `meta.total` must come from one state of the database. On SQLite behind
 * `withTransactionCleanup` they are read without a transaction, between two snapshot probes; a commit
 * between the probes (on the same connection or another) must send the read into a transaction and
 * answer the state after that commit, never the page of one state with the total of another. The
 * adapter is observed from outside (transactions started, statements sent), the probe being inside it.
 */

type Client = ReturnType<TestSchema['createClient']>;
type Hook = (sql: string) => Promise<void> | void;

type Observed = { factory: object; transactions: () => number; statements: string[]; hook: { run?: Hook } };

/** A factory whose adapter lets `hook` run before each statement outside a transaction, and counts transactions. */
function observed(factory: object): Observed {
    let transactions = 0;
    const statements: string[] = [];
    const hook: { run?: Hook } = {};
    const connect = async () => {
        const adapter = await (factory as { connect(): Promise<Record<string, (...a: unknown[]) => Promise<unknown>>> }).connect();
        const statement = (name: string) => async (query: { sql: string }) => {
            statements.push(query.sql);
            await hook.run?.(query.sql);
            return adapter[name](query);
        };
        return withOverrides(adapter, {
            queryRaw: statement('queryRaw'),
            executeRaw: statement('executeRaw'),
            startTransaction: (...args: unknown[]) => {
                transactions++;
                return adapter.startTransaction(...args);
            },
        });
    };
    return { factory: withOverrides(factory, { connect }), transactions: () => transactions, statements, hook };
}

const isCount = (sql: string) => /\bCOUNT\(/i.test(sql);

describe('SQLite: a page and its total without a transaction, proved by snapshot probes', () => {
    let s: TestSchema;
    let client: Client | undefined;

    beforeEach(async () => {
        s = await loadSchema();
        await s.prisma.user.create({ data: { id: 1, email: 'one@snapshot.test' } });
        for (const id of [1, 2, 3]) {
            await s.prisma.post.create({ data: { id, title: `post ${id}`, published: true, authorId: 1 } });
        }
    });

    afterEach(async () => {
        await client?.$disconnect();
        client = undefined;
        await s.cleanup();
    });

    /** A client over `factory`, connected: the probe answers only for a connected adapter (Prisma connects on first use). */
    async function connected(factory: unknown): Promise<Client> {
        const c = s.createClient(factory);
        await c.$connect();
        return c;
    }

    /** `client`: connected, behind `withTransactionCleanup`, observed from outside it. */
    async function wrapped(): Promise<Observed> {
        const probe = observed(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl })));
        client = await connected(probe.factory);
        return probe;
    }

    /** Runs `write` once, just before the first count statement reaches the adapter; tells whether it ran. */
    function beforeTheCount(probe: Observed, write: () => unknown): () => boolean {
        let fired = false;
        probe.hook.run = async (sql) => {
            if (fired || !isCount(sql)) return;
            fired = true;
            await write();
        };
        return () => fired;
    }

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function get(c: Client, path: string, query: Record<string, string>): Promise<Response & { body: any }> {
        const handler = RestApiHandler({ endpoint: 'http://localhost/api' });
        return handler({ method: 'GET', path, query, prisma: s.enhanceClient(c, { id: 1 }), modelMeta: s.modelMeta, logger: null });
    }
    const list = (c: Client, query: Record<string, string>) => get(c, '/post', query);
    /** The ids of the page and `meta.total`. */
    const pageOf = (body: { data: { id: unknown }[]; meta: { total: number } }) => [body.data.map((r) => r.id), body.meta.total];

    it('with nothing committed meanwhile, answers from the read between the probes: no transaction', async () => {
        const probe = await wrapped();
        const page = await list(client, { 'page[limit]': '2' });
        expect(page.status).toBe(200);
        expect(pageOf(page.body)).toEqual([[1, 2], 3]);
        expect(probe.transactions()).toBe(0);
        expect(probe.statements.filter(isCount)).toHaveLength(1);
    });

    // a relationship page (GET /user/1/posts) takes the same path as the collection
    it.each(['/post', '/user/1/posts'])('%s: a delete committed on the same connection between the page and the count: read again in a transaction', async (path) => {
        const probe = await wrapped();
        const raw = client;
        const fired = beforeTheCount(probe, () => raw.post.delete({ where: { id: 1 } }));
        const page = await get(client, path, { 'page[limit]': '2' });
        expect(page.status).toBe(200);
        expect(fired()).toBe(true);
        // the state after the delete; the page read before it with the total after it would be [1, 2] and 2
        expect(pageOf(page.body)).toEqual([[2, 3], 2]);
        expect(probe.transactions()).toBe(1);
    });

    it('a write committed by another connection between the page and the count: read again in a transaction', async () => {
        const probe = await wrapped();
        const other = new Database(s.dbFile!);
        try {
            const fired = beforeTheCount(probe, () => other.prepare('DELETE FROM "Post" WHERE id = 1').run());
            const page = await list(client, { 'page[limit]': '2' });
            expect(fired()).toBe(true);
            expect(pageOf(page.body)).toEqual([[2, 3], 2]);
            expect(probe.transactions()).toBe(1);
        } finally {
            other.close();
        }
    });

    it('a schema change on the same connection between the page and the count: read again in a transaction', async () => {
        const probe = await wrapped();
        const raw = client;
        // changes no row: only schema_version tells
        const fired = beforeTheCount(probe, () => raw.$executeRawUnsafe('CREATE INDEX "post_title_probe" ON "Post" ("title")'));
        const page = await list(client, { 'page[limit]': '2' });
        expect(fired()).toBe(true);
        expect(pageOf(page.body)).toEqual([[1, 2], 3]);
        expect(probe.transactions()).toBe(1);
    });

    it('without withTransactionCleanup there is no probe: the page is read in a transaction', async () => {
        const probe = observed(new PrismaBetterSQLite3({ url: s.databaseUrl }));
        client = await connected(probe.factory);
        const page = await list(client, { 'page[limit]': '2' });
        expect(pageOf(page.body)).toEqual([[1, 2], 3]);
        expect(probe.transactions()).toBe(1);
    });

    it('a probe that fails: the page is read in a transaction', async () => {
        const inner = new PrismaBetterSQLite3({ url: s.databaseUrl });
        // the adapter refuses the probe's statement (and only it)
        const refusing = withOverrides(inner, {
            connect: async () => {
                const adapter = (await inner.connect()) as unknown as { queryRaw(q: { sql: string }): Promise<unknown> };
                return withOverrides(adapter, {
                    queryRaw: (q: { sql: string }) => (q.sql.includes('total_changes()') ? Promise.reject(new Error('refused')) : adapter.queryRaw(q)),
                });
            },
        });
        const probe = observed(withTransactionCleanup(refusing));
        client = await connected(probe.factory);
        const page = await list(client, { 'page[limit]': '2' });
        expect(page.status).toBe(200);
        expect(pageOf(page.body)).toEqual([[1, 2], 3]);
        expect(probe.transactions()).toBe(1);
    });

    it('through a client extension the probe is found as well', async () => {
        const probe = await wrapped();
        const page = await list(client.$extends({ name: 'noop' }), { 'page[limit]': '2' });
        expect(pageOf(page.body)).toEqual([[1, 2], 3]);
        expect(probe.transactions()).toBe(0);
    });

    it('a factory shared by two clients cannot tell their connections apart: transactions', async () => {
        const shared = observed(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl })));
        client = await connected(shared.factory);
        const second = await connected(shared.factory);
        try {
            const page = await list(client, { 'page[limit]': '2' });
            expect(pageOf(page.body)).toEqual([[1, 2], 3]);
            expect(shared.transactions()).toBe(1);
            // once the second client disconnects, one connection is left and the probe answers again
            await second.$disconnect();
            await list(client, { 'page[limit]': '2' });
            expect(shared.transactions()).toBe(1);
        } finally {
            await second.$disconnect();
        }
    });

    it('the probe names its adapter: a reconnection between two probes shows as a change', async () => {
        const factory = withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl }));
        const probe = (factory as unknown as Record<symbol, SnapshotProbe>)[SNAPSHOT_PROBE];
        client = s.createClient(factory);
        expect(await probe()).toBeUndefined(); // not connected yet
        await client.$connect();
        const first = await probe();
        expect(first).toMatch(/^adapter-\d+\/\d+\/\d+\/\d+$/);
        expect(await probe()).toBe(first);
        await client.$disconnect();
        expect(await probe()).toBeUndefined();
        await client.$connect();
        const again = await probe();
        expect(again).toBeDefined();
        expect(again).not.toBe(first);
    });

    it("inside the application's own transaction: read there at once, no probe and no transaction of its own", async () => {
        const probe = await wrapped();
        const page = await client.$transaction(
            async (tx: Client) => {
                await tx.post.delete({ where: { id: 3 } });
                // sees the transaction's own delete: it reads inside it
                return list(tx, { 'page[limit]': '1' });
            },
            { timeout: 10_000 },
        );
        expect(pageOf(page.body)).toEqual([[1], 2]);
        expect(probe.transactions()).toBe(1);
    });

    it('a page that is not full needs no count, and still reads between probes', async () => {
        const probe = await wrapped();
        const page = await list(client, { 'page[limit]': '10' });
        expect(pageOf(page.body)).toEqual([[1, 2, 3], 3]);
        expect(probe.statements.filter(isCount)).toHaveLength(0);
        expect(probe.transactions()).toBe(0);
    });
});
