import { ALICE } from '../client/support/seed';
import { seededBlogEach } from './support';

/**
 * The simple superjson tags (`bigint`, `Date`, `number`) were restored with `BigInt`, `new Date` and `Number`, which
 * take far more than superjson writes: `""` was stored as 0n, `true` as 1n, a null tagged Date as 1970-01-01 (a client
 * that tags every DateTime path, nulls too, stored the epoch for "no date"), `"0x7"` as 7, and a date-time without
 * its offset was read in the server's time zone. Each is a 400 now, and nothing is written.
 */

const blog = seededBlogEach({ id: ALICE });

const stored = () => blog.s.prisma.allTypes.findUnique({ where: { id: 'typed' } });

const update = (data: Record<string, unknown>, values: Record<string, unknown>) =>
    blog.rpc('PATCH', '/allTypes/update', { body: { where: { id: 'typed' }, data, meta: { serialization: { values } } } });

describe('a tagged value not in the form superjson writes is a 400, and nothing is written', () => {
    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
        ['bigint ""', { bigInt: '' }, { 'data.bigInt': ['bigint'] }],
        ['bigint true', { bigInt: true }, { 'data.bigInt': ['bigint'] }],
        ['bigint "0x10"', { bigInt: '0x10' }, { 'data.bigInt': ['bigint'] }],
        ['bigint " 5"', { bigInt: ' 5' }, { 'data.bigInt': ['bigint'] }],
        ['bigint 1.5', { bigInt: 1.5 }, { 'data.bigInt': ['bigint'] }],
        ['Date null', { dateTime: null }, { 'data.dateTime': ['Date'] }],
        ['Date true', { dateTime: true }, { 'data.dateTime': ['Date'] }],
        ['Date 0', { dateTime: 0 }, { 'data.dateTime': ['Date'] }],
        ['Date without its offset', { dateTime: '2030-01-02T03:04:05' }, { 'data.dateTime': ['Date'] }],
        ['Date in words', { dateTime: 'May 2, 2030' }, { 'data.dateTime': ['Date'] }],
        ['number null', { int: null }, { 'data.int': ['number'] }],
        ['number "0x7"', { int: '0x7' }, { 'data.int': ['number'] }],
        ['number ""', { float: '' }, { 'data.float': ['number'] }],
    ])('%s', async (_name, data, values) => {
        const before = await stored();
        const res = await update(data, values);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^invalid (bigint|DateTime \(an ISO 8601 date-time with its offset\)|number) value at "data\./);
        expect(await stored()).toEqual(before);
    });

    it('in a filter too: deleteMany deletes nothing', async () => {
        const res = await blog.rpc('DELETE', '/allTypes/deleteMany', { q: { where: { dateTime: { gt: null } } }, meta: { serialization: { values: { 'where.dateTime.gt': ['Date'] } } } });
        expect(res.status).toBe(400);
        expect(await blog.s.prisma.allTypes.count()).toBe(1);
    });
});

describe('the forms superjson writes still pass', () => {
    it('bigint, Date and number values', async () => {
        const res = await update(
            { bigInt: '-9223372036854775808', dateTime: '2030-01-02T03:04:05.678Z', float: 2.5 },
            { 'data.bigInt': ['bigint'], 'data.dateTime': ['Date'], 'data.float': ['number'] },
        );
        expect(res.status).toBe(200);
        const row = await stored();
        expect([row.bigInt, row.dateTime.toISOString(), row.float]).toEqual([-9223372036854775808n, '2030-01-02T03:04:05.678Z', 2.5]);
    });

    const countBefore = (when: string) =>
        blog.rpc('GET', '/allTypes/count', { q: { where: { dateTime: { lt: when } } }, meta: { serialization: { values: { 'where.dateTime.lt': ['Date'] } } } });

    it('a date-time with an offset, and a date alone', async () => {
        for (const [when, count] of [['2030-01-01T00:00:00+02:00', 1], ['2030-01-01', 1], ['2000-01-01T00:00:00.000Z', 0]] as const) {
            const res = await countBefore(when);
            expect([when, res.status, res.body.data]).toEqual([when, 200, count]);
        }
    });

    it('a year past 9999, as toISOString writes it, is read, then refused for what the data layer takes', async () => {
        const res = await countBefore('+010000-01-01T00:00:00.000Z');
        expect([res.status, res.body.error.message]).toEqual([400, 'a date of the request is outside the years 0000 to 9999 that the data layer takes']);
    });
});
