import { firstError, openApi, type Api } from './harness';

/**
 * `meta.serialization` tags in superjson's tree form of a node (`["bigint", {}]`), which superjson converts as the leaf
 * form `["bigint"]`: the checks that the value is in the form superjson writes looked at the leaf form only, so `"0x10"`
 * was stored as 16n, `true` as 1n, a tagged null as 1970-01-01 and a date-time without its offset in the server's time
 * zone (found by a review on 2026-12-01; 2.22.3 stores them all). Each is a 400 pointing at the attribute.
 */

describe('REST: serialization tags in the tree form', () => {
    let api: Api;
    beforeAll(async () => {
        api = await openApi();
        await api.s.prisma.user.create({ data: { id: 1, email: 'a@x' } });
    });
    afterAll(() => api.cleanup());

    const create = (id: string, attributes: Record<string, unknown>, values: Record<string, unknown>) =>
        api.call({ id: 1 }, 'POST', '/allTypes', { data: { type: 'allTypes', id, attributes }, meta: { serialization: { values } } });

    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
        ['bigint "0x10"', { bigInt: '0x10' }, { 'data.attributes.bigInt': ['bigint', {}] }],
        ['bigint true', { bigInt: true }, { 'data.attributes.bigInt': ['bigint', {}] }],
        ['Date null', { dateTime: null }, { 'data.attributes.dateTime': ['Date', {}] }],
        ['Date without its offset', { dateTime: '2024-06-01T12:00' }, { 'data.attributes.dateTime': ['Date', {}] }],
        ['number "0x7"', { int: '0x7' }, { 'data.attributes.int': ['number', {}] }],
        ['a Date inside Json without its offset', { json: { d: '2024-06-01T12:00' } }, { 'data.attributes.json.d': ['Date', {}] }],
    ])('%s is a 400, nothing written', async (name, attributes, values) => {
        const res = await create(`t-${name.length}`, attributes, values);
        expect([name, res.status, firstError(res).code]).toEqual([name, 400, 'invalid-payload']);
        expect(await api.s.prisma.allTypes.count()).toBe(0);
    });

    it('the values superjson writes pass in either form', async () => {
        const res = await create('ok', { bigInt: '16', dateTime: '2024-06-01T12:00:00.000Z' }, { 'data.attributes.bigInt': ['bigint', {}], 'data.attributes.dateTime': ['Date'] });
        expect(res.status).toBe(201);
        const row = await api.s.prisma.allTypes.findUnique({ where: { id: 'ok' } });
        expect([row.bigInt, row.dateTime.toISOString()]).toEqual([16n, '2024-06-01T12:00:00.000Z']);
    });
});
