import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * The records nested writes name are looked up together and matched back by their values (named-records.ts).
 * Where the database compares those values otherwise than exactly (here a SQLite column `COLLATE NOCASE`, as a
 * case-insensitive collation or `@db.Citext` elsewhere), a filter names the record the database finds for it,
 * as a lookup of its own would: `{ name: 'alpha' }` connects "Alpha". A hidden record stays missing.
 */

const SCHEMA = `
model Owner {
  id     Int     @id
  labels Label[]
  @@allow('all', true)
}

model Label {
  id      Int     @id
  name    String  @unique
  secret  Boolean @default(false)
  owner   Owner?  @relation(fields: [ownerId], references: [id])
  ownerId Int?
  @@allow('read', !secret)
  @@allow('create,update', true)
}
`;

let s: TestSchema;
const handler = RPCApiHandler();

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    // the same table, its name compared without regard to case
    const [{ sql }] = (await s.prisma.$queryRawUnsafe(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'Label'`)) as Array<{ sql: string }>;
    const nocase = sql.replace(/"name" TEXT NOT NULL/, '"name" TEXT NOT NULL COLLATE NOCASE');
    expect(nocase).not.toBe(sql);
    await s.prisma.$executeRawUnsafe('DROP TABLE "Label"');
    await s.prisma.$executeRawUnsafe(nocase);
    await s.prisma.$executeRawUnsafe('CREATE UNIQUE INDEX "Label_name_key" ON "Label"("name")');
    await s.prisma.owner.create({ data: { id: 1 } });
    await s.prisma.label.createMany({ data: [{ id: 1, name: 'Alpha' }, { id: 2, name: 'Beta' }, { id: 3, name: 'Secret', secret: true }] });
});

afterAll(async () => {
    await s?.cleanup();
});

beforeEach(async () => {
    await s.prisma.label.updateMany({ data: { ownerId: null } });
});

async function connect(names: string[]): Promise<{ status: number; linked: number[] }> {
    const res = await handler({
        method: 'PUT',
        path: '/owner/update',
        query: {},
        requestBody: { where: { id: 1 }, data: { labels: { connect: names.map((name) => ({ name })) } } },
        prisma: s.enhance({ id: 1 }),
        modelMeta: s.modelMeta,
        logger: null,
    });
    const rows = await s.prisma.label.findMany({ where: { ownerId: 1 }, orderBy: { id: 'asc' } });
    return { status: res.status, linked: rows.map((r: { id: number }) => r.id) };
}

describe('records named by values the database compares without regard to case', () => {
    it('the collation finds them, as the database would', async () => {
        expect((await s.prisma.label.findUnique({ where: { name: 'ALPHA' } }))?.id).toBe(1);
    });

    it('are connected, exact and inexact names together', async () => {
        expect(await connect(['alpha', 'BETA'])).toEqual({ status: 200, linked: [1, 2] });
        expect(await connect(['Alpha', 'bEtA'])).toEqual({ status: 200, linked: [1, 2] });
    });

    it('a hidden one named in another case is still missing, and nothing is linked', async () => {
        expect(await connect(['alpha', 'SECRET'])).toEqual({ status: 404, linked: [] });
    });
});
