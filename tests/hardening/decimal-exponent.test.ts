import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { Response } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Prisma hands a Decimal to the data layer written out digit by digit (`toFixed()`): a value of eleven characters,
 * `1e900000000`, made it build a string of 900 million digits, and the process died of heap exhaustion (tagged
 * or as a JSON:API attribute or filter; untagged, the client gave up after seconds with a 400, its query compiler
 * left in a broken state). Both handlers now refuse a Decimal whose exponent is beyond ±1000 (the most any
 * database Prisma supports can hold) with a 400 before the client sees it.
 */

let s: TestSchema;
const rpc = RPCApiHandler();
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
const HOSTILE = ['1e900000000', '-1E+900000000', '1e-900000000', '0x1p900000000'];
const decimalTag = (path: string) => ({ serialization: { values: { [path]: [['custom', 'Decimal']] } } });

beforeAll(async () => {
    s = await loadSchema();
});

afterAll(() => s.cleanup());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = Response & { body: any };

function callRpc(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Answer> {
    return rpc({ method, path, query, requestBody: body, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null }) as Promise<Answer>;
}

function callRest(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Answer> {
    return rest({ method, path, query, requestBody: body, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null }) as Promise<Answer>;
}

describe('a Decimal with an exponent no database takes is a 400, and nothing is written', () => {
    it('RPC: tagged or not, in data, filters, lists and having', async () => {
        for (const value of HOSTILE) {
            const answers = [
                await callRpc('POST', '/allTypes/create', { data: { decimal: value }, meta: decimalTag('data.decimal') }),
                await callRpc('POST', '/allTypes/create', { data: { decimal: value } }),
                await callRpc('GET', '/allTypes/findMany', undefined, { q: JSON.stringify({ where: { decimal: { gt: value } } }) }),
                await callRpc('GET', '/allTypes/count', undefined, {
                    q: JSON.stringify({ where: { decimal: { in: ['1', value] } } }),
                    meta: JSON.stringify(decimalTag('where.decimal.in.1')),
                }),
                await callRpc('GET', '/allTypes/groupBy', undefined, { q: JSON.stringify({ by: ['role'], having: { decimal: { _sum: { gt: value } } } }) }),
            ];
            for (const [i, res] of answers.entries()) {
                expect({ value, i, status: res.status }).toEqual({ value, i, status: 400 });
                // a tagged value must be written in decimal notation: hexadecimal is refused as no decimal at all
                expect(res.body.error.message).toMatch(value.startsWith('0x') ? /decimal/ : /exponent is within ±1000/);
            }
        }
        expect(await s.prisma.allTypes.count()).toBe(0);
    });

    it('JSON:API: an attribute (400 pointing at it) and a filter (400 naming the parameter)', async () => {
        for (const value of HOSTILE.filter((v) => !v.startsWith('0x'))) {
            const created = await callRest('POST', '/allTypes', { data: { type: 'allTypes', attributes: { decimal: value } } });
            expect({ value, status: created.status }).toEqual({ value, status: 400 });
            expect(created.body.errors[0]).toMatchObject({ source: { pointer: '/data/attributes/decimal' }, detail: expect.stringMatching(/exponent is within ±1000/) });
            const read = await callRest('GET', '/allTypes', undefined, { 'filter[decimal$lt]': value });
            expect({ value, status: read.status }).toEqual({ value, status: 400 });
            expect(read.body.errors[0]).toMatchObject({ code: 'invalid-value', source: { parameter: 'filter[decimal$lt]' } });
        }
        expect(await s.prisma.allTypes.count()).toBe(0);
    });

    it('values within the range are written and compared as before', async () => {
        const rpcMade = await callRpc('POST', '/allTypes/create', { data: { decimal: '1.5e+30' } });
        expect(rpcMade.status).toBe(201);
        const restMade = await callRest('POST', '/allTypes', { data: { type: 'allTypes', attributes: { decimal: '2.5e-20' } } });
        expect(restMade.status).toBe(201);
        const count = await callRpc('GET', '/allTypes/count', undefined, { q: JSON.stringify({ where: { decimal: { lt: '1e1000', gt: '-1e-1000' } } }) });
        expect([count.status, count.body.data]).toEqual([200, 2]);
        const listed = await callRest('GET', '/allTypes', undefined, { 'filter[decimal$gte]': '1e29', 'filter[decimal$lt]': '0e900000000' });
        expect([listed.status, listed.body.data]).toEqual([200, []]);
        await s.prisma.allTypes.deleteMany();
    });
});

/**
 * Within the range, `1e1000` is six characters sent and 1,001 digits in Prisma's query plan, which it keeps after the
 * answer (the plans of its last 100 queries stay in its debug log): 116,000 of them (1 MiB) made it hold 116 million
 * digits. The Decimal values of one RPC call, or of one transaction, may take at most 1 MiB more written out than sent.
 */
describe('RPC: Decimal values that would take more than 1 MiB beyond what was sent, written out', () => {
    const BUDGET = 1024 * 1024;
    const many = (n: number, value: string) => Array.from({ length: n }, () => value);
    const MESSAGE = new RegExp(`must be a Decimal the call can take: written out in full, its Decimal values would take more than ${BUDGET} characters beyond those sent`);

    it('a filter list: 900 times 1e1000 is read, 1,100 times is a 400 naming the value that overdraws', async () => {
        const within = await callRpc('GET', '/allTypes/count', undefined, { q: JSON.stringify({ where: { decimal: { in: many(900, '1e1000') } } }) });
        expect([within.status, within.body.data]).toEqual([200, 0]);
        const over = await callRpc('GET', '/allTypes/count', undefined, { q: JSON.stringify({ where: { decimal: { notIn: many(1100, '-1E+1000') } } }) });
        expect(over.status).toBe(400);
        // 994 characters more each (1,002 for 8): the 1,055th overdraws
        expect(over.body.error.message).toMatch(/"where\.decimal\.notIn\.1054" must be a Decimal/);
        expect(over.body.error.message).toMatch(MESSAGE);
    });

    it('tagged values and numbers count too, and the operations of a transaction together; nothing is written', async () => {
        const res = await callRpc('POST', '/$transaction/sequential', [
            { model: 'allTypes', op: 'createMany', args: { data: many(500, '1e-1000').map((decimal) => ({ decimal })) } },
            { model: 'allTypes', op: 'updateMany', args: { where: { decimal: { notIn: many(600, '1e1000') } }, data: { int: 1 } } },
        ]);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^operation #1: invalid arguments: "where\.decimal\.notIn\.\d+" must be a Decimal/);
        const tagged = await callRpc('GET', '/allTypes/count', undefined, {
            q: JSON.stringify({ where: { decimal: { in: many(1100, '1e1000') } } }),
            meta: JSON.stringify({ serialization: { values: Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`where.decimal.in.${i}`, [['custom', 'Decimal']]])) } }),
        });
        expect(tagged.status).toBe(400);
        expect(tagged.body.error.message).toMatch(MESSAGE);
        // 1e300 is written 1e+300: 295 characters more each
        const numbers = await callRpc('GET', '/allTypes/count', undefined, { q: JSON.stringify({ where: { OR: Array.from({ length: 3600 }, () => ({ decimal: 1e300 })) } }) });
        expect(numbers.status).toBe(400);
        expect(numbers.body.error.message).toMatch(MESSAGE);
        expect(await s.prisma.allTypes.count()).toBe(0);
        // values written out by the client cost nothing beyond what they take in the body
        const plain = await callRpc('POST', '/allTypes/createMany', { data: many(1000, `${'9'.repeat(900)}.5`).map((decimal) => ({ decimal })) });
        expect([plain.status, plain.body.data]).toEqual([201, { count: 1000 }]);
        await s.prisma.allTypes.deleteMany();
    });
});
