import { makeApi } from '../rest/read/support';
import { seedBlog } from '../client/support/seed';
import { clientJson, rpcCaller } from '../rpc/support';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * A DateTime column holding a text no parser reads (written by another program) comes back from Prisma as an
 * invalid Date. Both handlers wrote it as `null` tagged `Date`, which a superjson client restores as
 * `new Date(null)`: 1970-01-01, a date nobody stored. It is an untagged `null` now, as superjson itself writes an
 * invalid date (2.x's answer).
 */
describe('an unreadable stored DateTime', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema();
        await seedBlog(s);
        await s.prisma.$executeRawUnsafe(`UPDATE AllTypes SET dateTime = 'garbage' WHERE id = 'typed'`);
    });
    afterAll(() => s.cleanup());

    it('is a JSON null with no tag in an RPC answer, which a client reads as null', async () => {
        const res = await rpcCaller(s, { user: { id: 1 } })('GET', '/allTypes/findMany', { q: { where: { id: 'typed' }, select: { id: true, dateTime: true, bigInt: true } } });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([{ id: 'typed', dateTime: null, bigInt: '9007199254740993' }]);
        expect(res.body.meta.serialization.values).toEqual({ '0.bigInt': ['bigint'] });
        const restored = clientJson.deserialize({ json: res.body.data, meta: res.body.meta.serialization }) as Array<Record<string, unknown>>;
        expect(restored[0].dateTime).toBeNull();
    });

    it('is a JSON null with no tag in a JSON:API document', async () => {
        const res = await makeApi(s).get('/allTypes/typed', { 'fields[allTypes]': 'dateTime,bigInt' });
        expect(res.status).toBe(200);
        const doc = res.body as { data: { attributes: Record<string, unknown> }; meta?: { serialization?: { values?: Record<string, unknown> } } };
        expect(doc.data.attributes).toEqual({ dateTime: null, bigInt: '9007199254740993' });
        expect(doc.meta?.serialization?.values).toEqual({ 'data.attributes.bigInt': ['bigint'] });
    });
});
