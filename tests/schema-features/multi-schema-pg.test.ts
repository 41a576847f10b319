import { RestApiHandler } from '../../src/api/rest';
import type { Response } from '../../src/types';
import { encodeQuery, rpcCaller, type RpcCaller } from '../rpc/support';
import { describePg, requirePg, withPgDatabase } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * PostgreSQL with several schemas (`schemas = ["public", "sales"]`, `@@schema(…)`, accepted by ZenStack 2.22 and
 * Prisma 6.19 without a preview feature) and an enum whose values are `@map`ped, as one field and as a list, through
 * both handlers: the relation between the schemas is read, written and included; enum values are named, filtered
 * and sorted by their names in the schema (the mapped values are refused), lists by the list operators.
 */

const SCHEMA = `
enum Level {
  LOW  @map("low")
  HIGH @map("high")
  @@map("levels")
  @@schema("sales")
}

model Account {
  id     BigInt  @id @default(autoincrement())
  name   String
  orders Order[]
  @@schema("public")
  @@allow('all', true)
}

model Order {
  id        String  @id @default(uuid())
  level     Level   @default(LOW)
  levels    Level[]
  account   Account @relation(fields: [accountId], references: [id], onDelete: Cascade)
  accountId BigInt
  @@map("orders")
  @@schema("sales")
  @@allow('all', true)
}
`;

const ENDPOINT = 'http://localhost/api';
type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describePg('several PostgreSQL schemas, and enums with mapped values', () => {
    let s: TestSchema | undefined;
    let rpc: RpcCaller;
    const rest = RestApiHandler({ endpoint: ENDPOINT });
    const call = (method: string, path: string, body?: unknown, query: Record<string, string> = {}) =>
        rest({ method, path, query, requestBody: body, prisma: s!.enhance(), modelMeta: s!.modelMeta, zodSchemas: s!.zodSchemas, logger: null }) as Promise<Response & { body: Body }>;
    const ids = async (query: Record<string, string>, path = '/order') => {
        const res = await call('GET', path, undefined, query);
        if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.data.map((r: Body) => r.id);
    };

    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql', datasource: 'schemas = ["public", "sales"]' });
        rpc = rpcCaller(s, { zod: true });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it('the tables and the enum are where @@schema puts them, values stored as mapped', async () => {
        if (!s) return;
        const created = await call('POST', '/account', { data: { type: 'account', attributes: { name: 'a' } } });
        expect([created.status, created.body.data.id, created.headers?.Location]).toEqual([201, '1', `${ENDPOINT}/account/1`]);
        const order = await call('POST', '/order', { data: { type: 'order', id: 'o1', attributes: { level: 'HIGH', levels: ['LOW', 'HIGH'] }, relationships: { account: { data: { type: 'account', id: '1' } } } } });
        expect([order.status, order.body.data.attributes]).toEqual([201, { level: 'HIGH', levels: ['LOW', 'HIGH'], accountId: '1' }]);
        const rows = await withPgDatabase(new URL(s.databaseUrl).pathname.slice(1), async (client) => {
            const tables = await client.query(`SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ('public', 'sales') ORDER BY 1, 2`);
            const stored = await client.query(`SELECT level::text, levels::text FROM sales.orders`);
            return [tables.rows, stored.rows];
        });
        expect(rows).toEqual([
            [
                { table_schema: 'public', table_name: 'Account' },
                { table_schema: 'sales', table_name: 'orders' },
            ],
            [{ level: 'high', levels: '{low,high}' }],
        ]);
    });

    it('JSON:API: the relation across schemas is included and filtered; enums by their names', async () => {
        if (!s) return;
        await call('POST', '/order', { data: { type: 'order', id: 'o2', attributes: { levels: [] }, relationships: { account: { data: { type: 'account', id: '1' } } } } });
        const account = await call('GET', '/account/1', undefined, { include: 'orders' });
        expect([account.body.data.relationships.orders.data, account.body.included.map((o: Body) => [o.id, o.attributes.level])]).toEqual([
            [
                { type: 'order', id: 'o1' },
                { type: 'order', id: 'o2' },
            ],
            [
                ['o1', 'HIGH'],
                ['o2', 'LOW'],
            ],
        ]);
        expect(await ids({ 'filter[account][name]': 'a', sort: '-level' })).toEqual(['o1', 'o2']);
        expect(await ids({ sort: 'level' })).toEqual(['o2', 'o1']);
        expect(await ids({ 'filter[level]': 'HIGH' })).toEqual(['o1']);
        expect(await ids({ 'filter[level$in]': 'LOW,HIGH', sort: 'level' })).toEqual(['o2', 'o1']);
        expect(await ids({ 'filter[levels$has]': 'HIGH' })).toEqual(['o1']);
        expect(await ids({ 'filter[levels$hasEvery]': 'HIGH,LOW' })).toEqual(['o1']);
        expect(await ids({ 'filter[levels$isEmpty]': 'true' })).toEqual(['o2']);
        expect(await ids({ 'filter[orders][level]': 'HIGH' }, '/account')).toEqual(['1']);
        // the mapped values are the database's, not the API's
        for (const query of [{ 'filter[level]': 'high' }, { 'filter[levels$has]': 'low' }] as Record<string, string>[]) {
            const res = await call('GET', '/order', undefined, query);
            expect([query, res.status, res.body.errors[0].code]).toEqual([query, 400, 'invalid-value']);
        }
        const patched = await call('PATCH', '/order/o2', { data: { type: 'order', id: 'o2', attributes: { levels: ['HIGH', 'high'] } } });
        expect([patched.status, patched.body.errors[0].source]).toEqual([400, { pointer: '/data/attributes/levels/1' }]);
        const moved = await call('PATCH', '/order/o2', { data: { type: 'order', id: 'o2', attributes: { level: 'HIGH', levels: ['HIGH'] } } });
        expect([moved.status, moved.body.data.attributes.levels]).toEqual([200, ['HIGH']]);
    });

    it('RPC: nested writes across schemas, filters, sorts and groupBy by enum names, BigInt keys tagged', async () => {
        if (!s) return;
        const made = await rpc('POST', '/account/create', { body: { data: { name: 'b', orders: { create: [{ level: 'LOW', levels: ['LOW'] }] } }, include: { orders: true } } });
        expect(made.status).toBe(201);
        expect(made.body.data).toMatchObject({ id: '2', name: 'b', orders: [{ level: 'LOW', levels: ['LOW'], accountId: '2' }] });
        expect(made.body.meta.serialization.values).toEqual({ id: ['bigint'], 'orders.0.accountId': ['bigint'] });
        const found = await rpc('GET', '/order/findMany', encodeQuery({ where: { levels: { hasSome: ['LOW'] }, level: { in: ['LOW', 'HIGH'] } }, orderBy: { account: { name: 'desc' } }, select: { levels: true, account: { select: { id: true } } } }));
        expect([found.body.data, found.body.meta.serialization.values]).toEqual([[{ levels: ['LOW'], account: { id: '2' } }, { levels: ['LOW', 'HIGH'], account: { id: '1' } }], { '0.account.id': ['bigint'], '1.account.id': ['bigint'] }]);
        const pushed = await rpc('PUT', '/order/updateMany', { body: { where: { account: { is: { name: 'b' } } }, data: { levels: { push: 'HIGH' } } } });
        expect(pushed.body.data).toEqual({ count: 1 });
        // in the enum's order (LOW before HIGH), not by the names' spelling
        const grouped = await rpc('GET', '/order/groupBy', encodeQuery({ by: ['level'], _count: { _all: true }, orderBy: { level: 'asc' } }));
        expect(grouped.body.data).toEqual([
            { level: 'LOW', _count: { _all: 1 } },
            { level: 'HIGH', _count: { _all: 2 } },
        ]);
        for (const args of [{ where: { level: 'high' } }, { where: { levels: { has: 'low' } } }]) {
            expect([args, (await rpc('GET', '/order/findMany', encodeQuery(args))).status]).toEqual([args, 422]);
        }
        expect((await rpc('POST', '/order/create', { body: { data: { level: 'high', accountId: 1 } } })).status).toBe(422);
        // deleting the account in public cascades to its orders in sales
        expect((await rpc('DELETE', '/account/delete', encodeQuery({ where: { id: 2n } }))).status).toBe(200);
        expect(await s.prisma.order.count({ where: { accountId: 2n } })).toBe(0);
    });
});
