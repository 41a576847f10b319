import { describePg, requirePg } from '../support/postgres';
import { NATIVE_TYPES_OPTIONS, NATIVE_TYPES_SCHEMA } from '../support/pg-native-types';
import { docOf, firstError, openApi, type Api } from './write/harness';

/**
 * JSON:API on PostgreSQL native column types (`@db.*`): values are answered as the database stores them and
 * filter and sort as it compares them; a value the column cannot take is a 400 naming its type, nothing written.
 */

describePg('REST on PostgreSQL native column types', () => {
    let api: Api | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        const { provider, ...options } = NATIVE_TYPES_OPTIONS;
        api = await openApi(NATIVE_TYPES_SCHEMA, provider, options);
    });
    afterAll(async () => {
        await api?.cleanup();
    });

    const call = (method: string, path: string, body?: unknown, query: Record<string, string> = {}) => api!.call(undefined, method, path, body, { query });
    async function ids(query: Record<string, string>): Promise<unknown[]> {
        const res = await call('GET', '/native', undefined, query);
        if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
        return docOf(res).data.map((r: { id: unknown }) => r.id);
    }

    it('answers values as the columns store them, tagged as the docs say, and filters and sorts by them', async () => {
        if (!api) return;
        const attributes = {
            small: 7, real: 1.5, dec: '1.005', money: '12.34', code: 'ab', name: 'abc', ci: 'Hello', inet: '10.0.0.1', xml: '<a>1</a>', flags: '1010',
            bits: '101', time: '1970-01-01T12:34:56.789Z', day: '2024-02-03T10:00:00Z', at: '2024-02-03T10:00:00.567Z', doc: { b: 1, a: 2 },
            tags: ['x', 'y'], colors: ['RED'], dates: ['2024-01-01T00:00:00Z'],
        };
        const created = await call('POST', '/native', { data: { type: 'native', id: '1', attributes } });
        expect(created.status).toBe(201);
        const stored = {
            ...attributes,
            dec: '1.01', // rounded to the column's scale
            code: 'ab  ', // padded to the column's length
            day: '2024-02-03T00:00:00.000Z',
            at: '2024-02-03T10:00:01.000Z', // rounded to whole seconds
            oid: null,
            dates: ['2024-01-01T00:00:00.000Z'],
        };
        const read = await call('GET', '/native/1');
        for (const res of [created, read]) {
            expect(docOf(res).data.attributes).toEqual(stored);
            expect(docOf(res).meta.serialization.values).toEqual({
                'data.attributes.dec': [['custom', 'Decimal']],
                'data.attributes.money': [['custom', 'Decimal']],
                'data.attributes.time': ['Date'],
                'data.attributes.day': ['Date'],
                'data.attributes.at': ['Date'],
                'data.attributes.dates.0': ['Date'],
            });
        }
        const second = { money: '100', code: 'zz', inet: '192.168.0.1', ci: 'world', tags: [], colors: ['GREEN'] };
        expect((await call('POST', '/native', { data: { type: 'native', id: '2', attributes: second } })).status).toBe(201);
        expect(await ids({ 'filter[ci]': 'HELLO' })).toEqual([1]);
        expect(await ids({ 'filter[code]': 'ab' })).toEqual([1]);
        expect(await ids({ 'filter[money$gt]': '50' })).toEqual([2]);
        expect(await ids({ 'filter[dec$lte]': '1.01' })).toEqual([1]);
        expect(await ids({ 'filter[inet]': '192.168.0.1' })).toEqual([2]);
        expect(await ids({ 'filter[day]': '2024-02-03' })).toEqual([1]);
        expect(await ids({ 'filter[time$gt]': '1970-01-01T12:00:00Z' })).toEqual([1]);
        expect(await ids({ 'filter[colors$has]': 'GREEN' })).toEqual([2]);
        expect(await ids({ 'filter[dates$has]': '2024-01-01T00:00:00Z' })).toEqual([1]);
        expect(await ids({ 'filter[tags$isEmpty]': 'true' })).toEqual([2]);
        expect(await ids({ sort: '-money' })).toEqual([2, 1]);
        expect(await ids({ sort: '-inet' })).toEqual([2, 1]);
        await api.s.prisma.native.deleteMany();
    });

    it('an Int @db.Oid takes values up to 4294967295 in attributes, filters and ids, as it answers them', async () => {
        if (!api) return;
        const created = await call('POST', '/native', { data: { type: 'native', id: '3', attributes: { oid: 4000000000 } } });
        expect([created.status, docOf(created).data?.attributes?.oid]).toEqual([201, 4000000000]);
        expect(await ids({ 'filter[oid]': '4000000000' })).toEqual([3]);
        const patched = await call('PATCH', '/native/3', { data: { type: 'native', id: '3', attributes: { oid: 4294967295 } } });
        expect([patched.status, docOf(patched).data?.attributes?.oid]).toEqual([200, 4294967295]);
        const beyond = await call('PATCH', '/native/3', { data: { type: 'native', id: '3', attributes: { oid: 4294967296 } } });
        expect([beyond.status, firstError(beyond).source?.pointer, firstError(beyond).detail]).toEqual([400, '/data/attributes/oid', expect.stringMatching(/0 to 4294967295/)]);
        expect((await call('GET', '/native', undefined, { 'filter[oid]': '4294967296' })).status).toBe(400);
        expect((await api.s.prisma.native.findUnique({ where: { id: 3 } })).oid).toBe(4294967295);
        const object = await call('POST', '/largeObject', { data: { type: 'largeObject', id: '4000000000', attributes: { name: 'a' } } });
        expect([object.status, docOf(object).data?.id]).toEqual([201, 4000000000]);
        const fetched = await call('GET', '/largeObject/4000000000');
        expect([fetched.status, docOf(fetched).data?.attributes]).toEqual([200, { name: 'a' }]);
        await api.s.prisma.native.deleteMany();
    });

    it('a @db.Char(n) id names its record padded (as answered) or not: against the URL, among relationship members', async () => {
        if (!api) return;
        await api.s.prisma.box.create({ data: { code: 'ab' } });
        await api.s.prisma.item.createMany({ data: [{ code: 'i1', boxCode: 'ab' }, { code: 'i2' }] });
        // the id answered for the box is padded; a client sends it back against the URL it knows
        const patched = await call('PATCH', '/box/ab', { data: { type: 'box', id: 'ab  ' } });
        expect([patched.status, docOf(patched).data?.id]).toEqual([200, 'ab  ']);
        // one record listed twice, padded and not: one member (it was a 404 naming a record that exists)
        const replaced = await call('PATCH', '/box/ab%20%20/relationships/items', { data: [{ type: 'item', id: 'i2' }, { type: 'item', id: 'i2  ' }] });
        expect([replaced.status, docOf(replaced).data]).toEqual([200, [{ type: 'item', id: 'i2  ' }]]);
        const removed = await call('DELETE', '/box/ab/relationships/items', { data: [{ type: 'item', id: 'i2' }] });
        expect([removed.status, docOf(removed).data]).toEqual([200, []]);
        expect(await api.s.prisma.item.findMany({ orderBy: { code: 'asc' } })).toEqual([
            { code: 'i1  ', boxCode: null },
            { code: 'i2  ', boxCode: null },
        ]);
    });

    it('a value a column cannot take is a 400 naming the type, in writes and filters, and nothing is written', async () => {
        if (!api) return;
        for (const [attributes, detail] of [
            [{ inet: 'not-an-address' }, /cannot take a value of the request \(invalid input syntax for type inet, SQLSTATE 22P02\)$/],
            [{ xml: '<a>' }, /\(invalid XML content, SQLSTATE 2200N\)$/],
            [{ flags: '10' }, /\(bit string length 2 does not match type bit\(4\), SQLSTATE 22026\)$/],
            [{ bits: '101010101' }, /too long for its column in the database: bit string too long for type bit varying\(8\)$/],
            [{ code: 'abcde' }, /too long for its column in the database: value too long for type character\(4\)$/],
            [{ small: 40000 }, /out of range for type smallint/],
            [{ dec: '1000' }, /numeric field overflow/],
            [{ real: 1e40 }, /out of range for type real/],
        ] as const) {
            const res = await call('POST', '/native', { data: { type: 'native', id: '9', attributes } });
            expect([attributes, res.status, firstError(res).code, firstError(res).detail]).toEqual([attributes, 400, 'orm-error', expect.stringMatching(detail)]);
            expect(JSON.stringify(res.body)).not.toMatch(/not-an-address|<a>/);
        }
        expect(await api.s.prisma.native.count()).toBe(0);
        const inet = await call('GET', '/native', undefined, { 'filter[inet]': 'nope' });
        expect([inet.status, firstError(inet).detail]).toEqual([400, expect.stringMatching(/invalid input syntax for type inet, SQLSTATE 22P02/)]);
        // xml has neither equality nor order in PostgreSQL: the answer says so (it named _min/_max of a uuid or boolean)
        const equal = await call('GET', '/native', undefined, { 'filter[xml]': '<a>1</a>' });
        expect([equal.status, firstError(equal).detail]).toEqual([400, expect.stringMatching(/no function or operator for a type in the request: operator does not exist: xml = \w+ \(SQLSTATE 42883\)$/)]);
        const sorted = await call('GET', '/native', undefined, { sort: 'xml' });
        expect([sorted.status, firstError(sorted).detail]).toEqual([400, expect.stringMatching(/: could not identify an ordering operator for type xml \(SQLSTATE 42883\)$/)]);
    });
});
