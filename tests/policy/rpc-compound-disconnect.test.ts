import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * Nested `disconnect` (and `set`) of to-many members named by a compound key: ZenStack 2.x refuses them
 * with the ORM's "needs at least one of `row_num`" (a 400, as with `@zenstackhq/server` 2.x); the RPC
 * handler detaches such members itself, under their update rule, with the ORM's semantics for simple keys.
 */

const SCHEMA = `
model Hall {
  id     Int     @id
  name   String  @default('')
  frozen Boolean @default(false)
  seats  Seat[]
  boxes  Box[]
  wings  Wing[]
  @@allow('create,update,delete', true)
  @@deny('update', frozen)
  @@allow('read', id != 2)
}
model Wing {
  id     Int    @id
  hall   Hall   @relation(fields: [hallId], references: [id])
  hallId Int
  seats  Seat[]
  @@allow('all', true)
}
model Seat {
  row    Int
  num    Int
  locked Boolean @default(false)
  hidden Boolean @default(false)
  hall   Hall?   @relation(fields: [hallId], references: [id])
  hallId Int?
  wing   Wing?   @relation(fields: [wingId], references: [id])
  wingId Int?
  @@id([row, num])
  @@allow('read', !hidden)
  @@allow('create', true)
  @@allow('update', !locked)
}
model Box {
  code   String
  part   Int
  hall   Hall   @relation(fields: [hallId], references: [id])
  hallId Int
  @@id([code, part])
  @@allow('all', true)
}
`;

describe('RPC disconnect of members with a compound key', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
    });
    afterAll(() => s.cleanup());

    beforeEach(async () => {
        await s.prisma.seat.deleteMany();
        await s.prisma.box.deleteMany();
        await s.prisma.wing.deleteMany();
        await s.prisma.hall.deleteMany();
        await s.prisma.hall.createMany({ data: [{ id: 1 }, { id: 2 }] });
        await s.prisma.wing.create({ data: { id: 1, hallId: 1 } });
        await s.prisma.seat.createMany({
            data: [
                { row: 1, num: 1, hallId: 1, wingId: 1 },
                { row: 1, num: 2, hallId: 1, wingId: 1 },
                { row: 2, num: 1, hallId: 2 },
                { row: 9, num: 9, hallId: 1, locked: true },
                { row: 8, num: 8, hallId: 1, hidden: true },
            ],
        });
        await s.prisma.box.create({ data: { code: 'a', part: 1, hallId: 1 } });
    });

    const key = (row: number, num: number) => ({ row_num: { row, num } });
    const halls = async () =>
        Object.fromEntries(
            (await s.prisma.seat.findMany({ orderBy: [{ row: 'asc' }, { num: 'asc' }] })).map((r: { row: number; num: number; hallId: number | null }) => [
                `${r.row}_${r.num}`,
                r.hallId,
            ]),
        );
    const update = (data: unknown, extra: Record<string, unknown> = {}) => rpcAs(s, undefined, 'PUT', '/hall/update', { where: { id: 1 }, data, ...extra });

    it('detaches the named members, skips records that are not members, and answers with the result', async () => {
        const res = await update(
            { seats: { disconnect: [key(1, 1), key(2, 1), key(7, 7)] } },
            { include: { seats: { select: { row: true, num: true }, orderBy: [{ row: 'asc' }, { num: 'asc' }] } } },
        );
        expect(res.status).toBe(200);
        expect(res.body.data.seats).toEqual([
            { row: 1, num: 2 },
            { row: 9, num: 9 },
        ]);
        expect(await halls()).toEqual({ '1_1': null, '1_2': 1, '2_1': 2, '8_8': 1, '9_9': 1 });
    });

    it('takes one item as well as a list, and keeps other filter fields of an item', async () => {
        expect((await update({ seats: { disconnect: key(1, 2) } })).status).toBe(200);
        // the item also says locked: true, which seat 1_1 is not: not a member matching it, nothing detached
        expect((await update({ seats: { disconnect: [{ ...key(1, 1), locked: true }] } })).status).toBe(200);
        expect(await halls()).toEqual({ '1_1': 1, '1_2': null, '2_1': 2, '8_8': 1, '9_9': 1 });
    });

    it('checks the member\'s update rule: a locked member is a 403 and nothing is written', async () => {
        const res = await update({ seats: { disconnect: [key(1, 1), key(9, 9)] } });
        expect(res.status).toBe(403);
        expect(res.body.error.reason).toBe('ACCESS_POLICY_VIOLATION');
        expect(await halls()).toEqual({ '1_1': 1, '1_2': 1, '2_1': 2, '8_8': 1, '9_9': 1 });
    });

    it('leaves members the user cannot read attached', async () => {
        expect((await update({ seats: { disconnect: [key(8, 8)] } })).status).toBe(200);
        expect((await halls())['8_8']).toBe(1);
    });

    it('a member whose link is required is a 400 P2014, as for a simple key', async () => {
        const res = await update({ boxes: { disconnect: [{ code_part: { code: 'a', part: 1 } }] } });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'P2014', orm: true, prisma: true });
        expect(await s.prisma.box.count({ where: { hallId: 1 } })).toBe(1);
    });

    it('a write its rules deny is a 403 before a required link is refused, for a compound key as for a simple one', async () => {
        await s.prisma.hall.update({ where: { id: 1 }, data: { frozen: true } });
        const compound = await update({ name: 'x', boxes: { disconnect: [{ code_part: { code: 'a', part: 1 } }] } });
        const simple = await update({ name: 'x', wings: { disconnect: [{ id: 1 }] } });
        expect([compound.status, compound.body.error.reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
        expect([simple.status, simple.body.error.reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
        expect(await s.prisma.hall.findUnique({ where: { id: 1 } })).toMatchObject({ name: '' });
        expect(await s.prisma.box.count({ where: { hallId: 1 } })).toBe(1);
        // allowed, the same write is the 400 of the required link, and nothing is written
        await s.prisma.hall.update({ where: { id: 1 }, data: { frozen: false } });
        const allowed = await update({ name: 'x', boxes: { disconnect: [{ code_part: { code: 'a', part: 1 } }] } });
        expect([allowed.status, allowed.body.error.code]).toEqual([400, 'P2014']);
        expect(await s.prisma.hall.findUnique({ where: { id: 1 } })).toMatchObject({ name: '' });
    });

    it('replaces members with set (a disconnect of those left out)', async () => {
        const res = await update({ seats: { set: [key(1, 2), key(2, 1)] } });
        expect(res.status).toBe(403); // 9_9 is locked: it cannot be left out
        await s.prisma.seat.update({ where: key(9, 9), data: { locked: false } });
        expect((await update({ seats: { set: [key(1, 2), key(2, 1)] } })).status).toBe(200);
        // 8_8 is not readable: it stays, as with simple keys
        expect(await halls()).toEqual({ '1_1': null, '1_2': 1, '2_1': 1, '8_8': 1, '9_9': null });
    });

    it('works in nested updates and in the update branch of an upsert, and beside other changes', async () => {
        const nested = await update({ wings: { update: { where: { id: 1 }, data: { seats: { disconnect: [key(1, 1)] } } } } });
        expect(nested.status).toBe(200);
        expect(await s.prisma.seat.findUnique({ where: key(1, 1) })).toMatchObject({ hallId: 1, wingId: null });
        const upsert = await rpcAs(s, undefined, 'POST', '/hall/upsert', {
            where: { id: 1 },
            create: { id: 1 },
            update: { seats: { disconnect: [key(1, 2)], connect: [key(2, 1)] } },
        });
        expect(upsert.status).toBe(200);
        expect(await halls()).toEqual({ '1_1': 1, '1_2': null, '2_1': 1, '8_8': 1, '9_9': 1 });
        // the create branch of an upsert has nothing to disconnect
        const created = await rpcAs(s, undefined, 'POST', '/hall/upsert', { where: { id: 3 }, create: { id: 3 }, update: { seats: { disconnect: [key(1, 1)] } } });
        expect(created.status).toBe(200);
        expect((await halls())['1_1']).toBe(1);
    });

    it('on a record the user cannot read answers as on a missing one (nothing is written either way)', async () => {
        const hidden = await rpcAs(s, undefined, 'PUT', '/hall/update', { where: { id: 2 }, data: { seats: { disconnect: [key(2, 1)] } } });
        const missing = await rpcAs(s, undefined, 'PUT', '/hall/update', { where: { id: 99 }, data: { seats: { disconnect: [key(2, 1)] } } });
        expect(missing.status).toBe(404);
        expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
        expect((await halls())['2_1']).toBe(2);
    });

    it('runs in a $transaction/sequential too, and a later failure undoes the detach', async () => {
        const res = await rpcAs(s, undefined, 'POST', '/$transaction/sequential', [
            { model: 'Hall', op: 'update', args: { where: { id: 1 }, data: { seats: { disconnect: [key(1, 1)] } } } },
            { model: 'Hall', op: 'update', args: { where: { id: 1 }, data: { seats: { disconnect: [key(9, 9)] } } } },
        ]);
        expect(res.status).toBe(403);
        expect((await halls())['1_1']).toBe(1);
    });
});
