import { describePg, requirePg } from '../support/postgres';
import { NATIVE_TYPES_OPTIONS, NATIVE_TYPES_SCHEMA } from '../support/pg-native-types';
import { loadSchema, type TestSchema } from '../support/schema';
import { decodeData, rpcCaller, type RpcCaller } from './support';

/**
 * RPC on PostgreSQL native column types (`@db.*`): values come back as the columns store them, scalar lists filter
 * with has/hasSome/hasEvery/isEmpty, and a value a column cannot take, or a comparison its type lacks, is a 400 that
 * names the type (in a sequential transaction too, rolled back).
 */

describePg('RPC on PostgreSQL native column types', () => {
    let s: TestSchema | undefined;
    let call: RpcCaller;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(NATIVE_TYPES_SCHEMA, NATIVE_TYPES_OPTIONS);
        call = rpcCaller(s);
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    const ids = async (where: unknown): Promise<number[]> => {
        const res = await call('GET', '/native/findMany', { q: { where, select: { id: true }, orderBy: { id: 'asc' } } });
        if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.data.map((r: { id: number }) => r.id);
    };

    it('creates, filters and updates values of native types and lists, answered as stored', async () => {
        if (!s) return;
        const data = {
            id: 1, small: 7, dec: '1.005', money: '12.34', code: 'ab', xml: '<a>1</a>', time: '1970-01-01T12:34:56.789Z', day: '2024-02-03T10:00:00Z',
            oid: 4000000000, doc: { b: 1, a: 2 }, tags: ['x', 'y'], colors: ['RED', 'GREEN'], dates: ['2024-01-01T00:00:00Z'],
        };
        const created = await call('POST', '/native/create', { body: { data, select: { dec: true, money: true, code: true, day: true, oid: true, doc: true, dates: true } } });
        expect(created.status).toBe(201);
        expect(created.body.data).toEqual({ dec: '1.01', money: '12.34', code: 'ab  ', day: '2024-02-03T00:00:00.000Z', oid: 4000000000, doc: { b: 1, a: 2 }, dates: ['2024-01-01T00:00:00.000Z'] });
        expect(created.body.meta.serialization.values).toEqual({ dec: [['custom', 'Decimal']], money: [['custom', 'Decimal']], day: ['Date'], 'dates.0': ['Date'] });
        expect((await call('POST', '/native/create', { body: { data: { id: 2, dec: '2.25', tags: [], colors: ['RED'], code: 'zz' } } })).status).toBe(201);

        expect(await ids({ colors: { has: 'GREEN' } })).toEqual([1]);
        expect(await ids({ colors: { hasSome: ['GREEN', 'RED'] } })).toEqual([1, 2]);
        expect(await ids({ colors: { hasEvery: ['GREEN', 'RED'] } })).toEqual([1]);
        expect(await ids({ tags: { isEmpty: true } })).toEqual([2]);
        expect(await ids({ dates: { has: '2024-01-01T00:00:00.000Z' } })).toEqual([1]);
        expect(await ids({ code: 'ab' })).toEqual([1]);
        expect(await ids({ oid: { gt: 3000000000 } })).toEqual([1]);
        expect(await ids({ money: { gte: '12.34' }, day: { lt: '2024-02-04T00:00:00Z' } })).toEqual([1]);

        const updated = await call('PUT', '/native/update', { body: { where: { id: 2 }, data: { tags: { push: 'z' }, dec: { increment: '0.5' } }, select: { tags: true, dec: true } } });
        expect([updated.status, decodeData(updated.body)?.tags, String(decodeData(updated.body)?.dec)]).toEqual([200, ['z'], '2.75']);
    });

    it('a BigInt autoincrement id travels as a tagged decimal string and names its record as a string', async () => {
        if (!s) return;
        const created = await call('POST', '/counter/create', { body: { data: { name: 'a' } } });
        expect([created.status, created.body.data, created.body.meta?.serialization?.values]).toEqual([201, { id: '1', name: 'a' }, { id: ['bigint'] }]);
        const found = await call('GET', '/counter/findUnique', { q: { where: { id: '1' }, select: { name: true } } });
        expect([found.status, found.body.data]).toEqual([200, { name: 'a' }]);
    });

    it('a value a column cannot take is a 400 naming its type, alone or in a sequential transaction, nothing written', async () => {
        if (!s) return;
        const before = await s.prisma.native.count();
        for (const [data, message] of [
            [{ inet: 'not-an-address' }, /^the database cannot take a value of the request \(invalid input syntax for type inet, SQLSTATE 22P02\)$/],
            [{ xml: '<a>' }, /\(invalid XML content, SQLSTATE 2200N\)$/],
            [{ flags: '101' }, /\(bit string length 3 does not match type bit\(4\), SQLSTATE 22026\)$/],
            [{ bits: '101010101' }, /: bit string too long for type bit varying\(8\)$/],
            [{ small: 40000 }, /out of range for type smallint/],
        ] as const) {
            const alone = await call('POST', '/native/create', { body: { data: { id: 9, ...data } } });
            expect([data, alone.status, alone.body.error?.message]).toEqual([data, 400, expect.stringMatching(message)]);
            const tx = await call('POST', '/$transaction/sequential', {
                body: [
                    { model: 'Native', op: 'create', args: { data: { id: 10 } } },
                    { model: 'Native', op: 'update', args: { where: { id: 10 }, data } },
                ],
            });
            expect([data, tx.status, tx.body.error?.failedOperation, tx.body.error?.message]).toEqual([data, 400, 1, expect.stringMatching(message)]);
            expect(JSON.stringify([alone.body, tx.body])).not.toMatch(/not-an-address|<a>/);
        }
        expect(await s.prisma.native.count()).toBe(before);
    });

    it('a comparison a column type has no operator for is a 400 that names it (it named _min/_max of a uuid or boolean)', async () => {
        if (!s) return;
        const equal = await call('GET', '/native/findMany', { q: { where: { xml: '<a>1</a>' } } });
        expect([equal.status, equal.body.error?.message]).toEqual([400, expect.stringMatching(/: operator does not exist: xml = \w+ \(SQLSTATE 42883\)$/)]);
        const ordered = await call('GET', '/native/findMany', { q: { orderBy: { doc: 'asc' } } });
        expect([ordered.status, ordered.body.error?.message]).toEqual([400, expect.stringMatching(/: could not identify an ordering operator for type json \(SQLSTATE 42883\)$/)]);
        const tx = await call('POST', '/$transaction/sequential', {
            body: [
                { model: 'Native', op: 'create', args: { data: { id: 11 } } },
                { model: 'Native', op: 'findMany', args: { orderBy: { xml: 'desc' } } },
            ],
        });
        expect([tx.status, tx.body.error?.message]).toEqual([400, expect.stringMatching(/ordering operator for type xml/)]);
        expect(await s.prisma.native.count({ where: { id: 11 } })).toBe(0);
    });

    it('a relation set naming a current @db.Char(n) member unpadded keeps it, without asking its update rule', async () => {
        if (!s) return;
        await s.prisma.box.create({ data: { code: 'b1', tags: { create: [{ code: 't1' }, { code: 't2' }] } } });
        // the members are stored (and answered) padded: 't1  '; a tag may not be updated, so detaching t1 and linking it again is refused
        const kept = await call('PUT', '/box/update', { body: { where: { code: 'b1' }, data: { tags: { set: [{ code: 't1' }, { code: 't2' }] } }, include: { tags: true } } });
        expect([kept.status, kept.body.data?.tags]).toEqual([200, [{ code: 't1  ' }, { code: 't2  ' }]]);
    });
});
