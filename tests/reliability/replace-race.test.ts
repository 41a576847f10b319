import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Two requests replacing the same to-many relationship at once, with different lists. Each computes what
 * to detach from the members it reads; at Read Committed (PostgreSQL's default) both succeeded and left
 * the union of the two lists, which neither asked for (a REST upsert answers 201 where the others answer 200). Now the result is exactly one of the lists: a
 * request that loses the race is run again, and answers 503 (try again) without writing anything only if it keeps losing.
 */

const ROWS = ['a1', 'a2', 'a3'];

describePg('concurrent replacements of a to-many relationship (PostgreSQL)', () => {
    let s: TestSchema;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        await s.prisma.user.create({ data: { id: 1, email: 'a@x' } });
        for (const id of ROWS) await s.prisma.allTypes.create({ data: { id } });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    const members = async () =>
        (await s.prisma.allTypes.findMany({ where: { ownerId: 1 }, orderBy: { id: 'asc' } })).map((r: { id: string }) => r.id).join(',');
    const reset = async () => {
        await s.prisma.allTypes.updateMany({ data: { ownerId: null } });
        await s.prisma.allTypes.update({ where: { id: 'a3' }, data: { ownerId: 1 } });
    };
    const ctx = { query: {}, modelMeta: undefined as unknown, logger: null };

    const viaRest = (list: string) =>
        RestApiHandler({ endpoint: 'http://localhost/api' })({
            ...ctx,
            method: 'PATCH',
            path: '/user/1/relationships/allTypes',
            requestBody: { data: [{ type: 'allTypes', id: list }] },
            prisma: s.enhance({ id: 1 }),
            modelMeta: s.modelMeta,
        });
    const viaRpc = (list: string) =>
        RPCApiHandler()({
            ...ctx,
            method: 'PUT',
            path: '/user/update',
            requestBody: { where: { id: 1 }, data: { allTypes: { set: [{ id: list }] } } },
            prisma: s.enhance({ id: 1 }),
            modelMeta: s.modelMeta,
        });

    const viaUpsert = (list: string) =>
        RestApiHandler({ endpoint: 'http://localhost/api' })({
            ...ctx,
            method: 'POST',
            path: '/user',
            requestBody: {
                data: { type: 'user', attributes: { email: 'a@x' }, relationships: { allTypes: { data: [{ type: 'allTypes', id: list }] } } },
                meta: { operation: 'upsert', matchFields: ['email'] },
            },
            prisma: s.enhance({ id: 1 }),
            modelMeta: s.modelMeta,
        }).then((res) => ({ ...res, status: res.status === 201 ? 200 : res.status }));
    const viaSequential = (list: string) =>
        RPCApiHandler()({
            ...ctx,
            method: 'POST',
            path: '/$transaction/sequential',
            requestBody: [{ model: 'user', op: 'update', args: { where: { id: 1 }, data: { allTypes: { set: [{ id: list }] } } } }],
            prisma: s.enhance({ id: 1 }),
            modelMeta: s.modelMeta,
        });

    it.each([
        ['REST relationship PATCH', viaRest],
        ['RPC relation set', viaRpc],
        ['REST upsert replacing the relationship', viaUpsert],
        ['RPC relation set in $transaction/sequential', viaSequential],
    ])('%s: the result is one of the requested lists, never their union', async (_name, replace) => {
        if (!(await requirePg())) return;
        for (let round = 0; round < 10; round++) {
            await reset();
            const [first, second] = await Promise.all([replace('a1'), replace('a2')]);
            const statuses = [first.status, second.status];
            for (const status of statuses) expect([200, 503]).toContain(status);
            const result = await members();
            const granted = [first.status === 200 ? 'a1' : undefined, second.status === 200 ? 'a2' : undefined].filter(Boolean);
            expect({ round, result, ofGranted: granted.includes(result) }).toEqual({ round, result: expect.stringMatching(/^a[12]$/), ofGranted: true });
        }
    });
});
