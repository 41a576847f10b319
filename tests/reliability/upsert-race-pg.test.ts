import { RestApiHandler } from '../../src/api/rest';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller } from '../rpc/support';

/**
 * Upserts of one key sent at once, on PostgreSQL (SQLite runs one write at a time): each finds no record, each
 * creates, and every create but the first fails on the unique key, although an update was all it needed. Such an
 * upsert runs again (Prisma's documentation says to retry it), so every request succeeds and one row is left.
 * Before, some of twenty answered 400 P2002 (RPC) or 409 (JSON:API); 2.22.3 has the same race.
 */

const COUNTERS = `
model Counter {
  id    Int    @id @default(autoincrement())
  key   String @unique
  value Int
  @@allow('all', true)
}
`;

const PARALLEL = 20;

describePg('upserts of one key at once', () => {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(COUNTERS, { provider: 'postgresql' });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it('RPC: every one succeeds, one row is left', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        for (let round = 0; round < 5; round++) {
            const key = `rpc-${round}`;
            const answers = await Promise.all(
                Array.from({ length: PARALLEL }, (_, i) => call('POST', '/counter/upsert', { body: { where: { key }, create: { key, value: i }, update: { value: i } } })),
            );
            expect(answers.map((a) => a.status).filter((st) => st !== 200 && st !== 201)).toEqual([]);
            expect(await s.prisma.counter.count({ where: { key } })).toBe(1);
        }
    });

    it('JSON:API: every one succeeds, one row is left', async () => {
        if (!s) return;
        const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
        for (let round = 0; round < 5; round++) {
            const key = `rest-${round}`;
            const answers = await Promise.all(
                Array.from({ length: PARALLEL }, (_, i) =>
                    handle({
                        method: 'POST',
                        path: '/counter',
                        query: {},
                        requestBody: { data: { type: 'counter', attributes: { key, value: i } }, meta: { operation: 'upsert', matchFields: ['key'] } },
                        prisma: s!.enhance(),
                        modelMeta: s!.modelMeta,
                        logger: null,
                    }),
                ),
            );
            expect(answers.map((a) => a.status).filter((st) => st !== 200 && st !== 201)).toEqual([]);
            expect(await s.prisma.counter.count({ where: { key } })).toBe(1);
        }
    });
});
