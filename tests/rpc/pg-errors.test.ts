import { randomBytes } from 'node:crypto';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller } from './support';

/** PostgreSQL errors caused by the request, not the server: a 400 with the error shape, nothing written. */

const ARTICLES = `
model Article {
  id    Int    @id @default(autoincrement())
  title String @unique
  data  Json?
  ref   String  @default(dbgenerated("gen_random_uuid()")) @db.Uuid
  flag  Boolean @default(false)
  @@allow('all', true)
}
`;

describePg('RPC on PostgreSQL, requests the database refuses', () => {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(ARTICLES, { provider: 'postgresql', previewFeatures: ['fullTextSearchPostgres'] });
        await s.prisma.article.create({ data: { title: 'the quick brown fox' } });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it('a full-text query to_tsquery cannot parse is a 400 (it was a 500), in filters and in relevance ordering', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        for (const search of ['quick fox', 'a & | b', '!', "'"]) {
            const res = await call('GET', '/article/findMany', { q: { where: { title: { search } } } });
            expect([search, res.status]).toEqual([search, 400]);
            expect(res.body.error.message).toMatch(/invalid full-text search query/);
        }
        const ordered = await call('GET', '/article/findMany', { q: { orderBy: { _relevance: { fields: ['title'], search: 'quick fox', sort: 'asc' } } } });
        expect(ordered.status).toBe(400);
        const found = await call('GET', '/article/findMany', { q: { where: { title: { search: 'quick & fox' } }, select: { title: true } } });
        expect([found.status, found.body.data]).toEqual([200, [{ title: 'the quick brown fox' }]]);
    });

    it("a JSON comparison Prisma's query compiler panics on is a 400, and another request's transaction survives it", async () => {
        if (!s) return;
        const call = rpcCaller(s);
        // the panic disconnected the whole client: this transaction (another request's) failed with it
        const other = s.prisma.$transaction(async (tx: TestSchema['prisma']) => {
            await tx.article.create({ data: { title: 'in a transaction' } });
            await new Promise((r) => setTimeout(r, 300));
            return tx.article.count();
        });
        await new Promise((r) => setTimeout(r, 100));
        const res = await call('GET', '/article/findMany', { q: { where: { data: { path: ['a'], lt: true } } } });
        expect([res.status, res.body.error.message]).toEqual([400, expect.stringMatching(/"where.data.lt" must be a string or a number/)]);
        expect(await other).toBe(2);
        await s.prisma.article.delete({ where: { title: 'in a transaction' } });
        const numbers = await call('GET', '/article/findMany', { q: { where: { data: { path: ['a'], lt: 5 } } } });
        expect([numbers.status, numbers.body.data]).toEqual([200, []]);
    });

    it('_min or _max of a uuid or boolean field (no such function in PostgreSQL) is a 400 (it was a 500)', async () => {
        if (!s) return;
        const call = rpcCaller(s, { logger: null });
        for (const [path, q] of [
            ['/article/aggregate', { _max: { ref: true } }],
            ['/article/aggregate', { _min: { flag: true } }],
            ['/article/groupBy', { by: ['title'], _max: { ref: true } }],
        ] as const) {
            const res = await call('GET', path, { q });
            expect([path, res.status, res.body.error.message]).toEqual([path, 400, expect.stringMatching(/no function or operator for a type in the request: function m(in|ax)\(\w+\) does not exist \(SQLSTATE 42883\)$/)]);
        }
        const numbers = await call('GET', '/article/aggregate', { q: { _max: { id: true } } });
        expect(numbers.status).toBe(200);
    });

    it('a value too large for its unique index is a 400 (it was a 500), nothing written', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        const title = randomBytes(12000).toString('base64'); // incompressible: 16 KB in the index row
        for (const [method, path, body] of [
            ['POST', '/article/create', { data: { title } }],
            ['POST', '/article/createMany', { data: [{ title: 'fine' }, { title }] }],
            ['PUT', '/article/updateMany', { where: {}, data: { title } }],
        ] as const) {
            const res = await call(method, path, { body });
            expect([path, res.status]).toEqual([path, 400]);
            expect(res.body.error.message).toMatch(/exceeds a limit of the database.*SQLSTATE 54000/);
        }
        expect(await s.prisma.article.findMany({ select: { title: true } })).toEqual([{ title: 'the quick brown fox' }]);
    });
});
