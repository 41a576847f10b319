import { loadSchema, type TestSchema } from '../support/schema';
import { RestApiHandler } from '../../src/api/rest';
import { encodeBody, rpcCaller, type RpcCaller } from './support';

/**
 * SQLite computes `increment`, `decrement`, `multiply` and `divide` past a column's type: an `Int` beyond
 * 2^53 was stored (`updateMany`: a 200), after which every read of the row failed (a 500 for every list of the
 * table, in both protocols), or beyond 2^63 it became a float; a `BigInt` past 64 bits became a float read back
 * as 9223372036854775808. PostgreSQL refuses each (400 P2020). Now a 400 on SQLite
 * too, nothing written.
 */

const SCHEMA = `
model Meter {
  id    Int     @id @default(autoincrement())
  count Int     @default(0)
  big   BigInt?
  ratio Float?
  dials Dial[]
  @@allow('all', true)
}
model Dial {
  id      Int   @id @default(autoincrement())
  turns   Int   @default(0)
  meter   Meter @relation(fields: [meterId], references: [id])
  meterId Int
  @@allow('all', true)
}
model Pair {
  a Int
  b Int
  n Int @default(0)
  @@id([a, b])
  @@allow('all', true)
}
`;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const BIG_MAX = 2n ** 63n - 1n;

let s: TestSchema;
let call: RpcCaller;
let meter: number;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    call = rpcCaller(s);
    meter = (await s.prisma.meter.create({ data: { count: MAX_SAFE, big: BIG_MAX, ratio: 1e308, dials: { create: { turns: MAX_SAFE } } } })).id;
    await s.prisma.meter.create({ data: { count: 5 } });
});

afterAll(async () => {
    await s.cleanup();
});

const rows = async () =>
    JSON.stringify(await s.prisma.$queryRawUnsafe('SELECT m.id, CAST(m.count AS TEXT) AS c, CAST(m.big AS TEXT) AS b, m.ratio, CAST(d.turns AS TEXT) AS t FROM Meter m LEFT JOIN Dial d ON d.meterId = m.id ORDER BY m.id'));

describe('RPC arithmetic updates beyond a number type on SQLite', () => {
    it('are a 400 naming the field, nothing written, and the table stays readable', async () => {
        const before = await rows();
        const where = { id: meter };
        for (const [method, path, body, field] of [
            ['PUT', '/meter/updateMany', { where: {}, data: { count: { increment: 1 } } }, 'Meter.count'],
            ['PUT', '/meter/update', { where, data: { count: { increment: 1 } } }, 'Meter.count'],
            ['PUT', '/meter/update', { where, data: { count: { multiply: MAX_SAFE } } }, 'Meter.count'],
            ['PUT', '/meter/update', { where, data: { ratio: { multiply: 2 }, count: { decrement: MAX_SAFE }, big: { multiply: -2 } } }, 'Meter.big'],
            ['PUT', '/meter/update', encodeBody({ where, data: { big: { increment: 1n } } }), 'Meter.big'],
            ['POST', '/meter/upsert', { where, create: {}, update: { count: { increment: 2 } } }, 'Meter.count'],
            ['PUT', '/meter/update', { where, data: { dials: { updateMany: { where: {}, data: { turns: { increment: 1 } } } } } }, 'Dial.turns'],
            ['PUT', '/dial/updateMany', { where: {}, data: { turns: { multiply: 3 } } }, 'Dial.turns'],
        ] as const) {
            const res = await call(method, path, { body });
            expect([path, res.status, res.body.error?.message]).toEqual([path, 400, expect.stringContaining(`"${field}"`)]);
        }
        const tx = await call('POST', '/$transaction/sequential', {
            body: [
                { model: 'Meter', op: 'update', args: { where: { id: meter }, data: { ratio: 2 } } },
                { model: 'Meter', op: 'updateMany', args: { where: {}, data: { count: { increment: 1 } } } },
            ],
        });
        expect([tx.status, tx.body.error?.failedOperation]).toEqual([400, 1]);
        expect(await rows()).toBe(before);
        const list = await call('GET', '/meter/findMany', { q: { include: { dials: true } } });
        expect(list.status).toBe(200);
        const rest = await RestApiHandler({ endpoint: 'http://x/api' })({ method: 'GET', path: '/meter', query: {}, prisma: s.enhance(), modelMeta: s.modelMeta, logger: null });
        expect(rest.status).toBe(200);
    });

    it('within the range they run as before', async () => {
        const res = await call('PUT', '/meter/updateMany', { body: { where: { count: { lt: 100 } }, data: { count: { increment: 2 } } } });
        expect([res.status, res.body.data]).toEqual([200, { count: 1 }]);
        const back = await call('PUT', '/meter/update', { body: { where: { id: meter }, data: { count: { decrement: 1 }, ratio: { divide: 10 } } } });
        expect([back.status, back.body.data?.count, back.body.data?.ratio]).toEqual([200, MAX_SAFE - 1, 1e307]);
    });
});

describe('the rows an update names are checked against the exact bounds of its operation', () => {
    const update = (id: number, data: Record<string, unknown>) => call('PUT', '/meter/update', { body: encodeBody({ where: { id }, data }) });
    const stored = async (id: number) => {
        const [row] = (await s.prisma.$queryRawUnsafe(`SELECT CAST(count AS TEXT) AS c, CAST(big AS TEXT) AS b FROM Meter WHERE id = ${id}`)) as Array<{ c: string; b: string | null }>;
        return [row.c, row.b];
    };
    const BIG_MIN = -(2n ** 63n);

    it('Int: up to 2^53 - 1 either way, and no further', async () => {
        const id = (await s.prisma.meter.create({ data: { count: MAX_SAFE - 3 } })).id;
        const statuses = [];
        for (const data of [
            { count: { increment: 3 } }, // to MAX_SAFE: allowed
            { count: { increment: 1 } }, // one past: refused
            { count: { multiply: -1 } }, // to -MAX_SAFE: allowed
            { count: { decrement: 1 } }, // one past below: refused
            { count: { divide: -1 } }, // back to MAX_SAFE: allowed
            { count: { divide: 2 } }, // to 2^52 - 1 (SQLite divides integers towards zero)
            { count: { multiply: 2 } }, // to 2^53 - 2: allowed
            { count: { multiply: 2 } }, // past: refused
            { count: { multiply: -2 } }, // past below: refused
        ]) {
            statuses.push((await update(id, data)).status);
        }
        expect(statuses).toEqual([200, 400, 200, 400, 200, 200, 200, 400, 400]);
        expect(await stored(id)).toEqual([String(MAX_SAFE - 1), null]);
    });

    it('BigInt: the 64-bit range, the minimum negated or divided by -1 included', async () => {
        const id = (await s.prisma.meter.create({ data: { big: BIG_MIN + 2n } })).id;
        const statuses = [];
        for (const data of [
            { big: { decrement: 2n } }, // to the minimum: allowed
            { big: { multiply: -1n } }, // 2^63: refused
            { big: { divide: -1n } }, // 2^63: refused
            { big: { divide: 2n } }, // to -(2^62): allowed
            { big: { multiply: -2n } }, // to 2^63: refused
            { big: { multiply: 2n } }, // to the minimum: allowed
            { big: { increment: BIG_MAX } }, // to -1: allowed
        ]) {
            statuses.push((await update(id, data)).status);
        }
        expect(statuses).toEqual([200, 400, 400, 200, 400, 200, 200]);
        expect(await stored(id)).toEqual(['0', '-1']);
    });

    it('a filtered or compound where names the rows; rows outside it do not count', async () => {
        const near = (await s.prisma.meter.create({ data: { count: MAX_SAFE } })).id;
        const far = (await s.prisma.meter.create({ data: { count: 7 } })).id;
        const res = await call('PUT', '/meter/updateMany', { body: { where: { id: { in: [far] } }, data: { count: { increment: 5 } } } });
        expect([res.status, res.body.data]).toEqual([200, { count: 1 }]);
        const refused = await call('PUT', '/meter/updateMany', { body: { where: { id: { in: [far, near] } }, data: { count: { increment: 5 } } } });
        expect([refused.status, await stored(far)]).toEqual([400, ['12', null]]);
        await s.prisma.pair.createMany({ data: [{ a: 1, b: 1, n: MAX_SAFE }, { a: 1, b: 2 }] });
        const pair = (b: number) => call('PUT', '/pair/update', { body: { where: { a_b: { a: 1, b } }, data: { n: { increment: 1 } } } });
        expect([(await pair(2)).status, (await pair(1)).status]).toEqual([200, 400]);
        expect((await s.prisma.pair.findMany({ orderBy: { b: 'asc' } })).map((p: { n: number }) => p.n)).toEqual([MAX_SAFE, 1]);
    });
});
