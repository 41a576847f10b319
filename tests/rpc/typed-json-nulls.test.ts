import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Json null tags (`["custom","DbNull"]`, `["custom","JsonNull"]`) on typed JSON fields. ZenStack 2.22 checks
 * a created typed JSON value against its type, Prisma's null objects included, and its zod schemas of these
 * fields take an object or null: tagged nulls were a 422 ("Required at address.city") in every create, and
 * in updates too when zod schemas were given. They now write what they say (docs/rpc.md).
 */

const SCHEMA = `
type Address {
  city String
}

model Owner {
  id    Int    @id
  homes Home[]
  @@allow('all', true)
}

model Home {
  id      Int      @id
  address Address? @json
  owner   Owner?   @relation(fields: [ownerId], references: [id])
  ownerId Int?
  @@allow('all', true)
}
`;

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('RPC: Json null tags on typed JSON fields', () => {
    let s: TestSchema;
    const rpc = RPCApiHandler();
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
    });
    afterAll(() => s.cleanup());
    beforeEach(async () => {
        await s.prisma.home.deleteMany();
        await s.prisma.owner.deleteMany();
    });

    const tags = (values: Record<string, string>) => ({ serialization: { values: Object.fromEntries(Object.entries(values).map(([p, n]) => [p, [['custom', n]]])) } });
    const call = async (method: string, op: string, body: unknown, zod: boolean): Promise<{ status: number; body: Body }> => {
        const res = await rpc({ method, path: op, query: {}, requestBody: body, prisma: s.enhance(), modelMeta: s.modelMeta, zodSchemas: zod ? s.zodSchemas : undefined, logger: null });
        return { status: res.status, body: res.body };
    };
    /** How each home's address is stored: `sql` for database NULL, `json` for a JSON null, else the value. */
    const stored = async () => {
        const rows: Array<{ id: number; address: string | null }> = await s.prisma.$queryRawUnsafe('SELECT id, CAST(address AS TEXT) AS address FROM Home ORDER BY id');
        return Object.fromEntries(rows.map((r) => [r.id, r.address === null ? 'sql' : r.address === 'null' ? 'json' : JSON.parse(r.address)]));
    };

    for (const zod of [true, false]) {
        describe(zod ? 'with zod schemas' : 'without zod schemas', () => {
            it('creates with a tagged null: DbNull as database NULL, JsonNull as JSON null', async () => {
                const one = await call('POST', '/home/create', { data: { id: 1, address: null }, meta: tags({ 'data.address': 'DbNull' }) }, zod);
                expect([one.status, one.body.error, one.body.data?.address]).toEqual([201, undefined, null]);
                const many = await call(
                    'POST',
                    '/home/createMany',
                    { data: [{ id: 2, address: null }, { id: 3, address: { city: 'Oslo' } }, { id: 4, address: null }], meta: tags({ 'data.0.address': 'JsonNull', 'data.2.address': 'DbNull' }) },
                    zod,
                );
                expect([many.status, many.body.error, many.body.data]).toEqual([201, undefined, { count: 3 }]);
                expect(await stored()).toEqual({ 1: 'sql', 2: 'json', 3: { city: 'Oslo' }, 4: 'sql' });
            });

            it('creates nested records with tagged nulls, and updates with them', async () => {
                const created = await call(
                    'POST',
                    '/owner/create',
                    { data: { id: 1, homes: { create: [{ id: 1, address: { city: 'Rome' } }, { id: 2, address: null }] } }, meta: tags({ 'data.homes.create.1.address': 'DbNull' }) },
                    zod,
                );
                expect([created.status, created.body.error]).toEqual([201, undefined]);
                const updated = await call(
                    'PUT',
                    '/owner/update',
                    {
                        where: { id: 1 },
                        data: { homes: { update: { where: { id: 1 }, data: { address: null } }, create: { id: 3, address: null } } },
                        meta: tags({ 'data.homes.update.data.address': 'DbNull', 'data.homes.create.address': 'JsonNull' }),
                    },
                    zod,
                );
                expect([updated.status, updated.body.error]).toEqual([200, undefined]);
                expect(await stored()).toEqual({ 1: 'sql', 2: 'sql', 3: 'json' });
                const upsert = await call(
                    'POST',
                    '/home/upsert',
                    { where: { id: 2 }, create: { id: 2 }, update: { address: null }, meta: tags({ 'update.address': 'JsonNull' }) },
                    zod,
                );
                expect([upsert.status, upsert.body.error]).toEqual([200, undefined]);
                expect((await stored())[2]).toBe('json');
            });
        });
    }

    it('still refuses a tagged value that is not null, and a typed value of the wrong shape', async () => {
        const tagged = await call('POST', '/home/create', { data: { id: 1, address: { city: 'x' } }, meta: tags({ 'data.address': 'DbNull' }) }, true);
        expect(tagged.status).toBe(400);
        const wrong = await call('POST', '/home/create', { data: { id: 1, address: { town: 'x' } } }, true);
        expect(wrong.status).toBe(422);
        expect(await stored()).toEqual({});
    });
});
