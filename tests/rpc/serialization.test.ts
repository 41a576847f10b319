import Decimal from 'decimal.js';
import { loadSchema, type TestSchema } from '../support/schema';
import { decodeData, encodeBody, encodeQuery, rpcCaller, type RpcCaller } from './support';

/** Typed values both ways: DateTime, BigInt, Decimal, Bytes, and Json null vs database NULL. */

let s: TestSchema;
let call: RpcCaller;

const BIG = 9007199254740993n; // 2^53 + 1: not representable as a JSON number
const WHEN = new Date('2024-02-29T12:34:56.789Z');

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
    call = rpcCaller(s, { user: { id: 1 } });
});

afterAll(async () => {
    await s.cleanup();
});

async function seedRow(tag: string, extra: Record<string, unknown> = {}) {
    return s.prisma.allTypes.create({
        data: { string: tag, bigInt: BIG, decimal: new Decimal('1234.5678'), dateTime: WHEN, bytes: Buffer.from([0, 1, 2, 253, 254, 255]), ownerId: 1, ...extra },
    });
}

describe('output', () => {
    it('tags every complex value; wire formats are ISO, decimal strings and Base64', async () => {
        const row = await seedRow('out');
        const res = await call('GET', '/allTypes/findUnique', { q: { where: { id: row.id } } });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ dateTime: WHEN.toISOString(), bigInt: BIG.toString(), decimal: '1234.5678', bytes: 'AAEC/f7/' });
        expect(res.body.meta.serialization.values).toEqual({
            dateTime: ['Date'],
            bigInt: ['bigint'],
            decimal: [['custom', 'Decimal']],
            bytes: [['custom', 'Bytes']],
        });
        const decoded = decodeData(res.body);
        expect(decoded.dateTime).toEqual(WHEN);
        expect(decoded.bigInt).toBe(BIG);
        expect(new Decimal(decoded.decimal).equals('1234.5678')).toBe(true);
        expect(Buffer.from(decoded.bytes)).toEqual(Buffer.from([0, 1, 2, 253, 254, 255]));
    });

    it('sends no meta member when the result has no complex value', async () => {
        await seedRow('plain');
        const res = await call('GET', '/allTypes/findFirst', { q: { where: { string: 'plain' }, select: { string: true, int: true, role: true } } });
        expect(res.body).toEqual({ data: { string: 'plain', int: 0, role: 'USER' } });
        expect((await call('GET', '/allTypes/count')).body).toEqual({ data: expect.any(Number) });
    });

    it('tags values nested in include, in arrays and in aggregates', async () => {
        await seedRow('nested-a');
        await seedRow('nested-b');
        const res = await call('GET', '/user/findUnique', {
            q: { where: { id: 1 }, include: { allTypes: { where: { string: { startsWith: 'nested-' } }, orderBy: { string: 'asc' } } } },
        });
        const values = res.body.meta.serialization.values;
        expect(values['allTypes.0.bytes']).toEqual([['custom', 'Bytes']]);
        expect(values['allTypes.1.bigInt']).toEqual(['bigint']);
        expect(decodeData(res.body).allTypes[1].dateTime).toEqual(WHEN);

        const agg = await call('GET', '/allTypes/aggregate', { q: { where: { string: { startsWith: 'nested-' } }, _sum: { bigInt: true, decimal: true }, _max: { dateTime: true } } });
        expect(agg.body.meta.serialization.values).toEqual({ '_sum.bigInt': ['bigint'], '_sum.decimal': [['custom', 'Decimal']], '_max.dateTime': ['Date'] });
        const sum = decodeData(agg.body)._sum;
        expect(sum.bigInt).toBe(BIG * 2n);
        expect(new Decimal(sum.decimal).equals('2469.1356')).toBe(true);
    });
});

describe('input', () => {
    it('restores typed values of a body (client superjson encoding, paths like data.bytes)', async () => {
        const body = encodeBody({ data: { string: 'in-body', bigInt: BIG, decimal: new Decimal('0.25'), dateTime: WHEN, bytes: Buffer.from('hello') } });
        expect(body.meta).toBeDefined();
        const res = await call('POST', '/allTypes/create', { body });
        expect(res.status).toBe(201);
        const stored = await s.prisma.allTypes.findFirst({ where: { string: 'in-body' } });
        expect(stored.bigInt).toBe(BIG);
        expect(stored.decimal.toString()).toBe('0.25');
        expect(stored.dateTime).toEqual(WHEN);
        expect(Buffer.from(stored.bytes).toString()).toBe('hello');
        expect(decodeData(res.body).bigInt).toBe(BIG);
    });

    it("accepts the spec's form: paths relative to data", async () => {
        const res = await call('POST', '/allTypes/create', {
            body: {
                data: { string: 'spec-form', bytes: 'AQID', bigInt: '12' },
                meta: { serialization: { values: { bytes: [['custom', 'Bytes']], bigInt: ['bigint'] } } },
            },
        });
        expect(res.status).toBe(201);
        const stored = await s.prisma.allTypes.findFirst({ where: { string: 'spec-form' } });
        expect([...stored.bytes]).toEqual([1, 2, 3]);
        expect(stored.bigInt).toBe(12n);
    });

    it('restores values inside arrays (createMany data, `in` lists)', async () => {
        const body = encodeBody({ data: [{ string: 'arr-1', bigInt: 1n, bytes: Buffer.from([1]) }, { string: 'arr-2', bigInt: BIG, decimal: new Decimal('2.5') }] });
        expect(Object.keys((body.meta as { serialization: { values: object } }).serialization.values)).toContain('data.1.bigInt');
        expect((await call('POST', '/allTypes/createMany', { body })).body).toEqual({ data: { count: 2 } });

        const res = await call('GET', '/allTypes/findMany', { ...encodeQuery({ where: { bigInt: { in: [1n, BIG] }, string: { startsWith: 'arr-' } }, orderBy: { string: 'asc' } }) });
        expect(res.body.data.map((r: { string: string }) => r.string)).toEqual(['arr-1', 'arr-2']);
        expect(new Decimal(decodeData(res.body)[1].decimal).equals('2.5')).toBe(true);
    });

    it('restores typed values in GET filters (q + meta)', async () => {
        const row = await seedRow('filter', { bytes: Buffer.from([9, 9, 9]) });
        const input = encodeQuery({
            where: { string: 'filter', bigInt: { gte: BIG }, decimal: { gt: new Decimal('1234.5') }, dateTime: { lte: WHEN }, bytes: { equals: Buffer.from([9, 9, 9]) } },
        });
        expect(input.meta).toBeDefined();
        const res = await call('GET', '/allTypes/findMany', input);
        expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([row.id]);
        const miss = await call('GET', '/allTypes/findMany', encodeQuery({ where: { string: 'filter', dateTime: { gt: WHEN } } }));
        expect(miss.body.data).toEqual([]);
    });

    it('takes the metadata as the "meta" member of q too (the envelope of a body), but not in both places', async () => {
        const row = await seedRow('inner-meta');
        const { q, meta } = encodeQuery({ where: { string: 'inner-meta', bigInt: BIG, dateTime: WHEN } }) as { q: Record<string, unknown>; meta: unknown };
        const inner = { ...q, select: { id: true }, meta };
        expect((await call('GET', '/allTypes/findMany', { q: inner })).body).toEqual({ data: [{ id: row.id }] });
        const twice = await call('GET', '/allTypes/findMany', { q: inner, meta });
        expect(twice.status).toBe(400);
        expect(twice.body.error.message).toMatch(/both/);
        // `meta=null` is no metadata, as without `q.meta`
        expect((await call('GET', '/allTypes/findMany', { q: inner, meta: 'null' })).body).toEqual({ data: [{ id: row.id }] });
        // the same rules as a body's meta
        expect((await call('GET', '/allTypes/findMany', { q: { ...q, meta: { values: {} } } })).status).toBe(400);
        expect((await call('GET', '/allTypes/findMany', { q: { where: { string: 'inner-meta' }, select: { id: true }, meta: null } })).body).toEqual({ data: [{ id: row.id }] });
    });

    it('typed values in update data and deleteMany filters', async () => {
        const row = await seedRow('upd');
        const upd = await call('PATCH', '/allTypes/update', { body: encodeBody({ where: { id: row.id }, data: { bigInt: { increment: 2n }, bytes: Buffer.from([7]) } }) });
        expect(upd.status).toBe(200);
        expect(decodeData(upd.body).bigInt).toBe(BIG + 2n);
        const del = await call('DELETE', '/allTypes/deleteMany', encodeQuery({ where: { string: 'upd', bigInt: BIG + 2n } }));
        expect(del.body.data).toEqual({ count: 1 });
    });

    // what clients of @zenstackhq/server 2.x send for a Uint8Array where there is no Buffer (browsers)
    const typedArray = (bytes: unknown, tag: unknown = ['typed-array', 'Uint8Array']) => ({
        data: { string: 'typed-array', bytes },
        select: { bytes: true },
        meta: { serialization: { values: { 'data.bytes': [tag] } } },
    });

    it.each([false, true])("accepts superjson's Uint8Array form of Bytes (zod validation: %s) and answers Base64", async (zod) => {
        const res = await rpcCaller(s, { user: { id: 1 }, zod })('POST', '/allTypes/create', { body: typedArray([0, 1, 2, 255]) });
        expect(res.status).toBe(201);
        expect(res.body).toEqual({ data: { bytes: 'AAEC/w==' }, meta: { serialization: { values: { bytes: [['custom', 'Bytes']] } } } });
        const stored = await s.prisma.allTypes.findFirst({ where: { string: 'typed-array' }, orderBy: { dateTime: 'desc' } });
        expect([...stored.bytes]).toEqual([0, 1, 2, 255]);
        await s.prisma.allTypes.deleteMany({ where: { string: 'typed-array' } });
    });

    it.each([
        ['an element above 255', [1, 2, 300]],
        ['a fraction', [1.5]],
        ['a string', 'AAEC'],
        ['an object', { 0: 1 }],
    ])('refuses a Uint8Array-tagged value with %s (400, nothing written)', async (_what, bytes) => {
        const res = await call('POST', '/allTypes/create', { body: typedArray(bytes) });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/Uint8Array .* must be an array of integers from 0 to 255/);
        expect(await s.prisma.allTypes.count({ where: { string: 'typed-array' } })).toBe(0);
    });

    const tagged = (bytes: string) => ({ data: { string: 'base64', bytes }, select: { bytes: true }, meta: { serialization: { values: { 'data.bytes': [['custom', 'Bytes']] } } } });

    it.each([
        ['padded', 'AP+A/w==', [0, 255, 128, 255]],
        ['without its padding', 'AP+A/w', [0, 255, 128, 255]],
        ['in the URL-safe alphabet (RFC 4648 §5)', 'AP-A_w', [0, 255, 128, 255]],
        ['URL-safe and padded', 'AP-A_w==', [0, 255, 128, 255]],
        ['empty', '', []],
    ])('accepts Bytes in Base64 %s, and answers standard Base64', async (_what, bytes, expected) => {
        const res = await call('POST', '/allTypes/create', { body: tagged(bytes) });
        expect(res.status).toBe(201);
        expect(res.body.data.bytes).toBe(Buffer.from(expected).toString('base64'));
        const stored = await s.prisma.allTypes.findFirst({ where: { string: 'base64' } });
        expect([...stored.bytes]).toEqual(expected);
        await s.prisma.allTypes.deleteMany({ where: { string: 'base64' } });
    });

    it.each([['A'], ['AQ='], ['AQ==='], ['AQ=A'], ['AP+A_w'], ['AQ I='], ['%%%']])('refuses %j as Base64 (400, nothing written)', async (bytes) => {
        const res = await call('POST', '/allTypes/create', { body: tagged(bytes) });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/invalid Base64/);
        expect(await s.prisma.allTypes.count({ where: { string: 'base64' } })).toBe(0);
    });

    it.each([['2024-02-30T00:00:00.000Z'], ['2023-02-29T12:00:00.000Z'], ['2024-06-31T00:00:00.000Z']])(
        'refuses a Date-tagged %s, a day no calendar has (new Date() rolls it over), and writes nothing',
        async (text) => {
            const body = { data: { string: 'no-such-day', dateTime: text, ownerId: 1 }, meta: { serialization: { values: { 'data.dateTime': ['Date'] } } } };
            const res = await call('POST', '/allTypes/create', { body });
            expect(res.status).toBe(400);
            expect(await s.prisma.allTypes.count({ where: { string: 'no-such-day' } })).toBe(0);
        },
    );

    it('takes February 29th of a leap year', async () => {
        const body = { data: { string: 'leap', dateTime: '2024-02-29T00:00:00.000Z', ownerId: 1 }, meta: { serialization: { values: { 'data.dateTime': ['Date'] } } } };
        const res = await call('POST', '/allTypes/create', { body });
        expect(res.status).toBe(201);
        await s.prisma.allTypes.deleteMany({ where: { string: 'leap' } });
    });

    it('refuses the other typed arrays', async () => {
        const res = await call('POST', '/allTypes/create', { body: typedArray([1], ['typed-array', 'Float64Array']) });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/unsupported serialization type/);
    });
});

describe('Json: JSON null versus database NULL', () => {
    async function storedJson(id: string): Promise<{ isDbNull: number; text: string | null }> {
        const rows = await s.prisma.$queryRawUnsafe('SELECT json IS NULL AS isDbNull, CAST(json AS TEXT) AS text FROM AllTypes WHERE id = ?', id);
        return { isDbNull: Number(rows[0].isDbNull), text: rows[0].text };
    }

    const tagged = (name: string, extra: Record<string, unknown> = {}) => ({
        data: { json: null, ...extra },
        meta: { serialization: { values: { 'data.json': [['custom', name]] } } },
    });

    it('["custom","DbNull"] stores a database NULL, ["custom","JsonNull"] a JSON null', async () => {
        const dbNull = await call('POST', '/allTypes/create', { body: tagged('DbNull', { string: 'j-db' }) });
        expect(dbNull.status).toBe(201);
        expect(await storedJson(dbNull.body.data.id)).toEqual({ isDbNull: 1, text: null });

        const jsonNull = await call('POST', '/allTypes/create', { body: tagged('JsonNull', { string: 'j-json' }) });
        expect(jsonNull.status).toBe(201);
        expect(await storedJson(jsonNull.body.data.id)).toEqual({ isDbNull: 0, text: 'null' });

        // on read Prisma returns null for both: the output carries plain null, untagged
        expect(dbNull.body.data.json).toBeNull();
        expect(jsonNull.body.data.json).toBeNull();
        expect(jsonNull.body.meta.serialization.values).not.toHaveProperty('json');
    });

    it('the spec form (path relative to data) and updates work too', async () => {
        const created = await call('POST', '/allTypes/create', { body: { data: { string: 'j-upd', json: { a: 1 } } } });
        expect(await storedJson(created.body.data.id)).toEqual({ isDbNull: 0, text: '{"a":1}' });
        const upd = await call('PATCH', '/allTypes/update', {
            body: { where: { id: created.body.data.id }, data: { json: null }, meta: { serialization: { values: { json: [['custom', 'JsonNull']] } } } },
        });
        expect(upd.status).toBe(200);
        expect(await storedJson(created.body.data.id)).toEqual({ isDbNull: 0, text: 'null' });
    });

    it('filters with DbNull, JsonNull and AnyNull', async () => {
        await call('POST', '/allTypes/create', { body: tagged('DbNull', { string: 'jf' }) });
        await call('POST', '/allTypes/create', { body: tagged('JsonNull', { string: 'jf' }) });
        await call('POST', '/allTypes/create', { body: { data: { string: 'jf', json: { nested: null } } } });
        const count = async (name: string) =>
            (await call('GET', '/allTypes/count', { q: { where: { string: 'jf', json: { equals: null } } }, meta: { serialization: { values: { 'where.json.equals': [['custom', name]] } } } })).body.data;
        expect(await count('DbNull')).toBe(1);
        expect(await count('JsonNull')).toBe(1);
        expect(await count('AnyNull')).toBe(2);
    });

    it('works with zod validation enabled (ZenStack schemas name the markers)', async () => {
        const withZod = rpcCaller(s, { user: { id: 1 }, zod: true });
        const res = await withZod('POST', '/allTypes/create', { body: tagged('DbNull', { string: 'j-zod' }) });
        expect(res.status).toBe(201);
        expect(await storedJson(res.body.data.id)).toEqual({ isDbNull: 1, text: null });
    });

    it('passes an untagged null through as is (Prisma 6 stores a JSON null) and refuses a tagged non-null value', async () => {
        const untagged = await call('POST', '/allTypes/create', { body: { data: { string: 'j-plain', json: null } } });
        expect(untagged.status).toBe(201);
        expect(await storedJson(untagged.body.data.id)).toEqual({ isDbNull: 0, text: 'null' });
        const wrong = await call('POST', '/allTypes/create', {
            body: { data: { string: 'j-bad', json: { a: 1 } }, meta: { serialization: { values: { 'data.json': [['custom', 'DbNull']] } } } },
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body.error.message).toMatch(/must be null/);
        expect(await s.prisma.allTypes.count({ where: { string: 'j-bad' } })).toBe(0);
    });
});
