import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { encodeBody, encodeQuery, rpcCaller } from './support';

/**
 * A BigInt beyond 2^53 sent as a plain JSON number has lost digits before the handler sees it
 * (`9007199254740993` parses as 2^53): as a key it names, updates or deletes the neighbouring record, as
 * data it stores another value. Refused with a 400 naming the place; as a string or a superjson bigint
 * (what ZenStack's clients send) it is exact.
 */

const SCHEMA = `
model Account {
  id      BigInt  @id
  balance BigInt?
  @@allow('all', true)
}
`;

const BIG = 9007199254740993n; // 2^53 + 1
const ROUNDED = BIG - 1n; // what JSON.parse makes of it

describePg('RPC BigInt values beyond 2^53 as JSON numbers', () => {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql' });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    const ids = async () => (await s!.prisma.account.findMany({ orderBy: { id: 'asc' }, select: { id: true, balance: true } })) as { id: bigint; balance: bigint | null }[];

    it('as a key or a value: a 400 naming the place, no record touched', async () => {
        if (!s) return;
        await s.prisma.account.createMany({ data: [{ id: ROUNDED }, { id: BIG }] });
        const call = rpcCaller(s);
        const before = await ids();
        for (const [method, path, input, place] of [
            ['DELETE', '/account/delete', { q: `{"where":{"id":${BIG}}}` }, 'where.id'],
            ['GET', '/account/findMany', { q: `{"where":{"id":{"in":[1,${BIG}]}}}` }, 'where.id.in.1'],
            ['PUT', '/account/update', { body: JSON.parse(`{"where":{"id":1},"data":{"balance":{"increment":${BIG}}}}`) }, 'data.balance.increment'],
            ['POST', '/account/create', { body: JSON.parse(`{"data":{"id":${BIG + 10n}}}`) }, 'data.id'],
        ] as const) {
            const res = await call(method, path, input);
            expect([path, res.status, res.body.error?.message]).toEqual([path, 400, expect.stringContaining(`"${place}"`)]);
        }
        expect(await ids()).toEqual(before);
    });

    it('as a superjson bigint or a string, and as a safe JSON number: exact', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        await s.prisma.account.deleteMany();
        await s.prisma.account.createMany({ data: [{ id: ROUNDED }, { id: BIG }, { id: 5n }] });
        const typed = await call('PUT', '/account/update', { body: encodeBody({ where: { id: BIG }, data: { balance: BIG } }) });
        expect(typed.status).toBe(200);
        const text = await call('GET', '/account/findUnique', { q: { where: { id: String(BIG) }, select: { balance: true } } });
        expect([text.status, text.body.data]).toEqual([200, { balance: String(BIG) }]);
        const safe = await call('GET', '/account/count', { q: { where: { id: { in: [5, 2 ** 53 - 1] } } } });
        expect([safe.status, safe.body.data]).toEqual([200, 1]);
        const filtered = await call('GET', '/account/count', encodeQuery({ where: { id: { gte: ROUNDED } } }));
        expect([filtered.status, filtered.body.data]).toEqual([200, 2]);
        expect((await ids()).map((a) => [String(a.id), a.balance === null ? null : String(a.balance)])).toEqual([
            ['5', null],
            [String(ROUNDED), null],
            [String(BIG), String(BIG)],
        ]);
    });
});
