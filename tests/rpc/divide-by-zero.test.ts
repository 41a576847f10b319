import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { encodeBody, rpcCaller } from './support';
import Decimal from 'decimal.js';

/**
 * `{ divide: 0 }` in an update: SQLite's division by zero is NULL, so an optional number field was silently
 * emptied (a 200) and a required one refused as a "null constraint violation" that the request never asked
 * for; PostgreSQL refused it with a bare SQLSTATE. A 400 naming the place on both, nothing written.
 */

const SCHEMA = `
model Gauge {
  id     Int      @id @default(autoincrement())
  level  Int      @default(8)
  spare  Int?
  ratio  Float?
  big    BigInt?
  amount Decimal?
  parts  Part[]
  @@allow('all', true)
}
model Part {
  id      Int   @id @default(autoincrement())
  size    Int?
  gauge   Gauge @relation(fields: [gaugeId], references: [id])
  gaugeId Int
  @@allow('all', true)
}
`;

const START = { level: 8, spare: 8, ratio: 1.5, big: 8n, amount: new Decimal('8.5') };

function suite(provider: Provider, ready: () => Promise<boolean>) {
    let s: TestSchema | undefined;
    let gauge: number;
    beforeAll(async () => {
        if (!(await ready())) return;
        s = await loadSchema(SCHEMA, { provider });
        gauge = (await s.prisma.gauge.create({ data: { ...START, parts: { create: { size: 4 } } } })).id;
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    const state = async () => {
        const g = await s!.prisma.gauge.findUniqueOrThrow({ where: { id: gauge }, include: { parts: true } });
        return { ...g, big: String(g.big), amount: String(g.amount), parts: g.parts.map((p: { size: number | null }) => p.size) };
    };

    it('is a 400 naming the operand for every number type and write, nothing written', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        const before = await state();
        expect(before).toMatchObject({ spare: 8, ratio: 1.5, big: '8', amount: '8.5', parts: [4] });
        const where = { id: gauge };
        for (const [method, path, body, place] of [
            ['PUT', '/gauge/update', { where, data: { spare: { divide: 0 } } }, 'data.spare.divide'],
            ['PUT', '/gauge/update', { where, data: { level: { divide: 0 } } }, 'data.level.divide'],
            ['PUT', '/gauge/update', { where, data: { ratio: { divide: -0 } } }, 'data.ratio.divide'],
            ['PUT', '/gauge/update', { where, data: { big: { divide: '0' } } }, 'data.big.divide'],
            ['PUT', '/gauge/update', encodeBody({ where, data: { big: { divide: 0n } } }), 'data.big.divide'],
            ['PUT', '/gauge/update', { where, data: { amount: { divide: '0.00' } } }, 'data.amount.divide'],
            ['PUT', '/gauge/update', encodeBody({ where, data: { amount: { divide: new Decimal(0) } } }), 'data.amount.divide'],
            ['PUT', '/gauge/updateMany', { where: {}, data: { spare: { divide: 0 } } }, 'data.spare.divide'],
            ['POST', '/gauge/upsert', { where, create: {}, update: { spare: { divide: 0 } } }, 'update.spare.divide'],
            ['PUT', '/gauge/update', { where, data: { parts: { updateMany: { where: {}, data: { size: { divide: 0 } } } } } }, 'data.parts.updateMany.data.size.divide'],
            ['PUT', '/part/updateMany', { where: {}, data: { size: { divide: 0 } } }, 'data.size.divide'],
        ] as const) {
            const res = await call(method, path, { body });
            expect([path, res.status, res.body.error?.message]).toEqual([path, 400, `invalid arguments: "${place}" must be a number other than 0 (division by zero)`]);
        }
        const tx = await call('POST', '/$transaction/sequential', {
            body: [
                { model: 'Gauge', op: 'update', args: { where, data: { spare: { increment: 1 } } } },
                { model: 'Gauge', op: 'update', args: { where, data: { ratio: { divide: 0 } } } },
            ],
        });
        expect(tx.status).toBe(400);
        expect(await state()).toEqual(before);
    });

    it('other divisors still divide', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        const res = await call('PUT', '/gauge/update', { body: { where: { id: gauge }, data: { spare: { divide: 2 }, ratio: { divide: 0.5 }, amount: { divide: '2' } } } });
        expect([res.status, res.body.data?.spare, res.body.data?.ratio, res.body.data?.amount]).toEqual([200, 4, 3, '4.25']);
    });
}

describe('RPC division by zero in updates [sqlite]', () => suite('sqlite', async () => true));
describePg('RPC division by zero in updates', () => suite('postgresql', requirePg));
