import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { withTransactionCleanup } from '../../src';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Prisma bounds a statement's parameters by what the driver adapter declares and otherwise, on SQLite, by 999 (a
 * 400 `P2029` past it). `withTransactionCleanup` declares the bound the connected SQLite was built with (32,766 for
 * better-sqlite3's), so filters of many values work on SQLite as on PostgreSQL.
 */

const POSTS = 1200;
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Client = any;

let s: TestSchema;
beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
    await s.prisma.post.createMany({ data: ids(POSTS).map((id) => ({ id, title: `p${id}`, published: true, authorId: 1 })) });
});
afterAll(() => s.cleanup());

async function withClient<T>(adapter: unknown, use: (client: Client) => Promise<T>): Promise<T> {
    const client = s.createClient(adapter);
    try {
        return await use(client);
    } finally {
        await client.$disconnect();
    }
}

describe('the bound on query parameters on SQLite', () => {
    it('without the wrapper Prisma stops at 999 (P2029); with it a filter of 5,000 values runs', async () => {
        const where = { id: { in: ids(5000) } };
        await withClient(new PrismaBetterSQLite3({ url: s.databaseUrl }), async (bare) => {
            await expect(bare.post.count({ where })).rejects.toMatchObject({ code: 'P2029' });
        });
        await withClient(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl })), async (wrapped) => {
            expect(await wrapped.post.count({ where })).toBe(POSTS);
            expect(await s.enhanceClient(wrapped, { id: 1 }).post.count({ where: { id: { notIn: ids(5000).slice(10) } } })).toBe(10);
        });
    });

    it('a bound the adapter declares itself is kept', async () => {
        const factory = new PrismaBetterSQLite3({ url: s.databaseUrl });
        const declaring = {
            provider: factory.provider,
            adapterName: factory.adapterName,
            connect: async () => {
                const adapter = await factory.connect();
                return new Proxy(adapter, {
                    get: (t, p) => (p === 'getConnectionInfo' ? () => ({ supportsRelationJoins: false, maxBindValues: 100 }) : Reflect.get(t, p, t)),
                });
            },
        };
        await withClient(withTransactionCleanup(declaring), async (client) => {
            expect(await client.post.count({ where: { id: { in: ids(50) } } })).toBe(50);
            await expect(client.post.count({ where: { id: { in: ids(150) } } })).rejects.toMatchObject({ code: 'P2029' });
        });
    });

    it('through the handlers: an RPC `in` of 10,000 values (maxFilterValues) and a JSON:API filter of 1,000 values', async () => {
        const prisma = s.enhance({ id: 1 });
        const rpc = await RPCApiHandler()({
            method: 'GET',
            path: '/post/count',
            query: { q: JSON.stringify({ where: { id: { in: ids(10000) } } }) },
            prisma,
            modelMeta: s.modelMeta,
            logger: null,
        });
        expect([rpc.status, (rpc.body as { data: unknown }).data]).toEqual([200, POSTS]);
        const rest = await RestApiHandler({ endpoint: 'http://localhost/api' })({
            method: 'GET',
            path: '/post',
            query: { 'filter[id]': ids(1000).join(','), 'page[limit]': '1' },
            prisma,
            modelMeta: s.modelMeta,
            logger: null,
        });
        expect([rest.status, (rest.body as { meta: { total: number } }).meta.total]).toEqual([200, 1000]);
    });

    it('rows written in larger batches by createMany arrive whole', async () => {
        await withClient(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl })), async (wrapped) => {
            const rows = ids(6000).map((i) => ({ id: 10_000 + i, title: `b${i}`, authorId: 1 }));
            expect((await wrapped.post.createMany({ data: rows })).count).toBe(6000);
            expect(await wrapped.post.count({ where: { id: { gt: 10_000 } } })).toBe(6000);
            await wrapped.post.deleteMany({ where: { id: { gt: 10_000 } } });
        });
    });
});
