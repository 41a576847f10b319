import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * An `update` whose data writes relations only (`notes: { create }`, `{ connect }`) of a record the user cannot
 * read answers 404 and writes nothing, as for an id that does not exist. ZenStack checks such an update against the
 * related records' rules only and finds the record without its read rule: it wrote into the hidden record and
 * answered 403 RESULT_NOT_READABLE, which told that the guessed id exists.
 */

const SCHEMA = `
model User {
  id    Int    @id
  items Item[]
  @@allow('all', true)
}

model Item {
  id        String  @id @db.Uuid
  published Boolean @default(false)
  owner     User    @relation(fields: [ownerId], references: [id])
  ownerId   Int
  notes     Note[]
  @@allow('read', published || auth() == owner)
  @@allow('create,update', auth() == owner)
}

model Note {
  id     Int     @id
  text   String
  item   Item?   @relation(fields: [itemId], references: [id])
  itemId String? @db.Uuid
  @@allow('all', true)
}

model Drop {
  id    Int    @id
  slips Slip[]
  @@allow('update', true)
}

model Slip {
  id     Int   @id
  drop   Drop? @relation(fields: [dropId], references: [id])
  dropId Int?
  @@allow('all', true)
}
`;

const PUBLISHED = 'aaaaaaaa-0000-4000-8000-000000000001';
const DRAFT = 'aaaaaaaa-0000-4000-8000-000000000002';
const MISSING = 'cccccccc-0000-4000-8000-000000000009';
const BOB = { id: 2 };

describePg('RPC relation-only updates of a record the user cannot read', () => {
    let s: TestSchema | undefined;
    beforeEach(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql' });
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        await s.prisma.item.createMany({ data: [{ id: PUBLISHED, published: true, ownerId: 1 }, { id: DRAFT, ownerId: 1 }] });
        await s.prisma.note.create({ data: { id: 1, text: 'loose' } });
        await s.prisma.drop.create({ data: { id: 1 } });
    });
    afterEach(async () => {
        await s?.cleanup();
        s = undefined;
    });

    const notesOf = async (itemId: string) => (await s!.prisma.note.findMany({ where: { itemId }, select: { id: true } })).map((n: { id: number }) => n.id);

    it('a nested create or connect into a hidden record is a 404, as into a missing one, and writes nothing', async () => {
        if (!s) return;
        for (const data of [{ notes: { create: { id: 7, text: 'x' } } }, { notes: { connect: { id: 1 } } }]) {
            const hidden = await rpcAs(s, BOB, 'PUT', '/item/update', { where: { id: DRAFT }, data });
            const missing = await rpcAs(s, BOB, 'PUT', '/item/update', { where: { id: MISSING }, data });
            expect([hidden.status, hidden.body]).toEqual([missing.status, missing.body]);
            expect(hidden.status).toBe(404);
        }
        expect(await notesOf(DRAFT)).toEqual([]);
        expect(await s.prisma.note.count()).toBe(1);
    });

    it('a readable record, and one the user may update but not read, are written as before', async () => {
        if (!s) return;
        const readable = await rpcAs(s, BOB, 'PUT', '/item/update', { where: { id: PUBLISHED }, data: { notes: { create: { id: 8, text: 'x' } } } });
        expect(readable.status).toBe(200);
        expect(await notesOf(PUBLISHED)).toEqual([8]);
        const unreadable = await rpcAs(s, BOB, 'PUT', '/drop/update', { where: { id: 1 }, data: { slips: { create: { id: 9 } } } });
        expect([unreadable.status, unreadable.body.error.reason]).toEqual([403, 'RESULT_NOT_READABLE']);
        expect(await s.prisma.slip.findMany()).toEqual([{ id: 9, dropId: 1 }]);
    });
});
