import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A user who may update a record but not read it: an update whose data writes nothing (a to-many `disconnect`
 * naming only a record the user cannot read, empty lists of nested writes) passes the update rule, changes
 * nothing, and answers as the same update of a record that does not exist (404), not 403 RESULT_NOT_READABLE.
 * (`rpc-hidden-parent-disconnect` shows users who may not update the record, whom the relation-only check stops.)
 */

const SCHEMA = `
model Box {
  id    Int    @id
  items Item[]
  @@allow('update', true)
}

model Item {
  id    Int  @id
  box   Box? @relation(fields: [boxId], references: [id])
  boxId Int?
  @@allow('read', id < 10)
  @@allow('create,update,delete', true)
}
`;

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.box.create({ data: { id: 1, items: { create: [{ id: 1 }, { id: 2 }, { id: 50 }] } } });
});

afterAll(async () => {
    await s.cleanup();
});

it.each<[string, unknown]>([
    ['a disconnect of an item the user cannot read', { items: { disconnect: { id: 50 } } }],
    ['a disconnect of an empty list', { items: { disconnect: [] } }],
    ['empty lists of nested writes', { items: { update: [], delete: [], connect: [] } }],
])('%s answers as on a missing box and changes nothing', async (_name, data) => {
    const before = await s.prisma.item.findMany({ orderBy: { id: 'asc' } });
    const hidden = await rpcAs(s, { id: 1 }, 'PATCH', '/box/update', { where: { id: 1 }, data });
    const missing = await rpcAs(s, { id: 1 }, 'PATCH', '/box/update', { where: { id: 2 }, data });
    expect(missing.status).toBe(404);
    expect([hidden.status, hidden.body]).toEqual([missing.status, missing.body]);
    expect(await s.prisma.item.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
});
