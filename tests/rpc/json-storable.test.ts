import Decimal from 'decimal.js';
import { loadSchema, type TestSchema } from '../support/schema';
import { decodeData, encodeBody, rpcCaller, type RpcCaller } from './support';

/**
 * A Json field stores JSON: a value in it that JSON cannot hold as sent (NaN, ±Infinity, a Decimal, a Map …,
 * restored from `meta.serialization`, or a JSON number beyond a double) is a 400 and nothing is written.
 * Prisma had written NaN and Infinity as null and a Decimal as a double, and the answer was a 201.
 */

let s: TestSchema;
const calls: Record<'plain' | 'zod', RpcCaller> = {} as never;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
    calls.plain = rpcCaller(s, { user: { id: 1 } });
    calls.zod = rpcCaller(s, { user: { id: 1 }, zod: true });
});

afterAll(async () => {
    await s.cleanup();
});

const stored = (string: string) => s.prisma.allTypes.findMany({ where: { string }, select: { json: true } });

const BAD: [string, unknown, RegExp][] = [
    ['NaN', { ratio: NaN }, /"data\.json" must be a JSON value .* holding NaN/],
    ['Infinity in a list', { limits: [1, -Infinity] }, /"data\.json" .* holding -Infinity/],
    ['a Decimal', { price: new Decimal('0.1000000000000000000001') }, /"data\.json" .* holding a decimal/],
    ['a bigint', { n: 5n }, /"data\.json" .* holding a bigint/],
];

describe('Json values in writes', () => {
    const call = (method: string, path: string, body: unknown) => calls.plain(method, path, { body });

    it.each(BAD)('create with %s in it: 400, nothing written', async (name, json, message) => {
        const tag = `create-${name}`;
        const res = await call('POST', '/allTypes/create', encodeBody({ data: { string: tag, json } }));
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(message);
        expect(await stored(tag)).toEqual([]);
    });

    it('a JSON number beyond a double (1e400 reads as Infinity) is refused, not stored as null', async () => {
        const res = await call('POST', '/allTypes/create', Buffer.from('{"data":{"string":"huge","json":{"big":1e400}}}'));
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/"data\.json" .* holding Infinity/);
        expect(await stored('huge')).toEqual([]);
    });

    it('is checked in every write: createMany, update, updateMany, upsert and nested creates', async () => {
        const row = await s.prisma.allTypes.create({ data: { string: 'every', json: { v: 1 } } });
        const bad = { v: NaN };
        const attempts: [string, string, unknown, string][] = [
            ['POST', '/allTypes/createMany', { data: [{ string: 'every', json: { v: 2 } }, { string: 'every', json: bad }] }, 'data.1.json'],
            ['PATCH', '/allTypes/update', { where: { id: row.id }, data: { json: bad } }, 'data.json'],
            ['PUT', '/allTypes/updateMany', { where: { string: 'every' }, data: { json: bad } }, 'data.json'],
            ['POST', '/allTypes/upsert', { where: { id: row.id }, create: { string: 'every' }, update: { json: bad } }, 'update.json'],
            ['PATCH', '/user/update', { where: { id: 1 }, data: { allTypes: { create: { string: 'every', json: bad } } } }, 'data.allTypes.create.json'],
        ];
        for (const [method, path, args, at] of attempts) {
            const res = await call(method, path, encodeBody(args));
            expect([path, res.status]).toEqual([path, 400]);
            expect(res.body.error.message).toContain(`"${at}"`);
        }
        expect(await stored('every')).toEqual([{ json: { v: 1 } }]);
    });

    it('still takes plain JSON, dates (stored as ISO strings) and properties left undefined', async () => {
        const when = new Date('2025-01-02T03:04:05.000Z');
        const json = { n: 1.5, s: 'x', b: true, nil: null, list: [1, 'two', { three: 3 }], when, gone: undefined };
        const res = await call('POST', '/allTypes/create', encodeBody({ data: { string: 'fine', json }, select: { json: true } }));
        expect(res.status).toBe(201);
        const expected = { n: 1.5, s: 'x', b: true, nil: null, list: [1, 'two', { three: 3 }], when: when.toISOString() };
        expect(decodeData(res.body).json).toEqual(expected);
        expect(await stored('fine')).toEqual([{ json: expected }]);
    });
});

describe('with zodSchemas', () => {
    const call = (body: unknown) => calls.zod('POST', '/allTypes/create', { body });

    // ZenStack's Json schema refuses NaN, Decimals and bigints itself (422); Infinity passes it and is ours to refuse
    it.each(BAD)('create with %s in it: refused, nothing written', async (name, json) => {
        const tag = `zod-${name}`;
        const res = await call(encodeBody({ data: { string: tag, json } }));
        expect(res.status).toBe(name.startsWith('Infinity') ? 400 : 422);
        expect(await stored(tag)).toEqual([]);
    });

    it('takes plain JSON', async () => {
        const json = { n: 1.5, list: [1, 'two', { three: null }] };
        const res = await call({ data: { string: 'zod-fine', json }, select: { json: true } });
        expect(res.status).toBe(201);
        expect(await stored('zod-fine')).toEqual([{ json }]);
    });
});
