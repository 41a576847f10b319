import { RestApiHandler } from '../../src/api/rest';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller } from '../rpc/support';

/**
 * Constraints the schema cannot declare but a migration can add to a PostgreSQL database: a CHECK
 * constraint (SQLSTATE 23514) and an exclusion constraint (23P01). The driver adapter passes them on
 * untranslated; the request's data breaks a rule of the database, as with a foreign key: a 400 naming the
 * constraint in both protocols (they were 500 "an unexpected error occurred"; 2.22.3 answers 400), and
 * nothing written.
 */

const GADGETS = `
model Gadget {
  id   Int    @id @default(autoincrement())
  code String
  qty  Int    @default(0)
  @@allow('all', true)
}
`;

const CONSTRAINTS = [
    'ALTER TABLE "Gadget" ADD CONSTRAINT qty_not_negative CHECK (qty >= 0)',
    'ALTER TABLE "Gadget" ADD CONSTRAINT one_per_code EXCLUDE USING btree (code WITH =)',
];

describePg('database constraints a migration added', () => {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(GADGETS, { provider: 'postgresql' });
        for (const sql of CONSTRAINTS) await s.prisma.$executeRawUnsafe(sql);
        await s.prisma.gadget.create({ data: { id: 1, code: 'a', qty: 1 } });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    const rows = async () => s!.prisma.gadget.findMany({ orderBy: { id: 'asc' }, select: { id: true, code: true, qty: true } });

    it('RPC: a CHECK or exclusion violation is a 400 naming the constraint, nothing written', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        for (const [method, path, body, constraint] of [
            ['POST', '/gadget/create', { data: { code: 'b', qty: -1 } }, 'qty_not_negative'],
            ['PUT', '/gadget/updateMany', { where: {}, data: { qty: -5 } }, 'qty_not_negative'],
            ['POST', '/gadget/create', { data: { code: 'a' } }, 'one_per_code'],
            ['POST', '/$transaction/sequential', [{ model: 'gadget', op: 'create', args: { data: { code: 'c' } } }, { model: 'gadget', op: 'create', args: { data: { code: 'd', qty: -1 } } }], 'qty_not_negative'],
        ] as const) {
            const res = await call(method, path, { body });
            expect([path, res.status, res.body.error.message]).toEqual([path, 400, expect.stringContaining(`"${constraint}"`)]);
        }
        expect(await rows()).toEqual([{ id: 1, code: 'a', qty: 1 }]);
    });

    it('REST: a CHECK or exclusion violation is a 400 orm-error naming the constraint, nothing written', async () => {
        if (!s) return;
        const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
        const call = (method: string, path: string, requestBody: unknown) =>
            handle({ method, path, query: {}, requestBody, prisma: s!.enhance(), modelMeta: s!.modelMeta, logger: null });
        for (const [method, path, body, constraint] of [
            ['POST', '/gadget', { data: { type: 'gadget', attributes: { code: 'b', qty: -1 } } }, 'qty_not_negative'],
            ['PATCH', '/gadget/1', { data: { type: 'gadget', id: '1', attributes: { qty: -1 } } }, 'qty_not_negative'],
            ['POST', '/gadget', { data: { type: 'gadget', attributes: { code: 'a' } } }, 'one_per_code'],
        ] as const) {
            const res = await call(method, path, body);
            const error = (res.body as { errors: { status: number; code: string; detail: string }[] }).errors[0];
            expect([method, res.status, error.code, error.detail]).toEqual([method, 400, 'orm-error', expect.stringContaining(`"${constraint}"`)]);
        }
        expect(await rows()).toEqual([{ id: 1, code: 'a', qty: 1 }]);
    });
});
