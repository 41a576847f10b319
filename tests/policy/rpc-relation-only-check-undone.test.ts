import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A relation-only update of a record the user may update but not read is checked first by writing the record's key
 * back unchanged (relation-only-update.ts). That write ran apart from the update, so when the update then failed the
 * record kept a new `@updatedAt`: a refused request left a trace (found by a review on 2026-12-01; 2.22.3 leaves it).
 * The check now runs in the update's transaction.
 */

const SCHEMA = `
model User {
  id Int @id
  @@allow('all', true)
}
model Doc {
  id        Int      @id
  secret    Boolean
  updatedAt DateTime @updatedAt
  notes     Note[]
  @@allow('read', !secret)
  @@allow('create,update', true)
}
model Note {
  id    Int    @id
  body  String
  doc   Doc?   @relation(fields: [docId], references: [id])
  docId Int?
  @@allow('read,update', true)
  @@allow('create', body != 'no')
}
`;

const EARLIER = new Date('2020-01-01T00:00:00.000Z');

function cases(provider: Provider): void {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider });
        await s.prisma.user.create({ data: { id: 1 } });
        await s.prisma.doc.createMany({ data: [{ id: 1, secret: true, updatedAt: EARLIER }, { id: 2, secret: true, updatedAt: EARLIER }] });
    });
    afterAll(async () => {
        await s?.cleanup();
    });
    const updatedAt = async (id: number) => ((await s!.prisma.doc.findUnique({ where: { id } })) as { updatedAt: Date }).updatedAt.toISOString();

    it('a refused relation-only update leaves the hidden record as it was', async () => {
        if (!s) return;
        const res = await rpcAs(s, { id: 1 }, 'PUT', '/doc/update', { where: { id: 1 }, data: { notes: { create: { id: 1, body: 'no' } } } });
        expect([res.status, res.body.error.message]).toEqual([404, 'entity not found for model doc']);
        expect([await updatedAt(1), await s.prisma.note.count()]).toEqual([EARLIER.toISOString(), 0]);
    });

    it('an allowed one is written, and answered as a result the user may not read', async () => {
        if (!s) return;
        const res = await rpcAs(s, { id: 1 }, 'PUT', '/doc/update', { where: { id: 2 }, data: { notes: { create: { id: 2, body: 'yes' } } } });
        expect([res.status, res.body.error.reason]).toEqual([403, 'RESULT_NOT_READABLE']);
        expect(await s.prisma.note.findUnique({ where: { id: 2 } })).toMatchObject({ docId: 2 });
        expect(await updatedAt(2)).not.toBe(EARLIER.toISOString());
    });
}

describe('RPC: the check of a relation-only update of a hidden record goes with a failing update (SQLite)', () => cases('sqlite'));
describePg('RPC: the check of a relation-only update of a hidden record goes with a failing update', () => cases('postgresql'));
