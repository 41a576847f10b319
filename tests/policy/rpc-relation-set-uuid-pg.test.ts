import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A relation `set` naming a current member by its native uuid (`@db.Uuid`) in upper case keeps that member, as
 * the same `set` in lower case does: PostgreSQL compares uuids without case and answers them in lower case, and
 * the handler compared the listed ids with the members' as text, so it detached the member and linked it again,
 * which needs the member's update rule (a 403 for a member the user may only read).
 */

const SCHEMA = `
model User {
  id    Int    @id
  cards Card[]
  @@allow('all', true)
}

model Card {
  id      String  @id @db.Uuid
  owner   User    @relation(fields: [ownerId], references: [id])
  ownerId Int
  labels  Label[]
  @@allow('read', true)
  @@allow('update', auth() == owner)
  @@allow('create', true)
}

model Label {
  id    String @id @db.Uuid
  cards Card[]
  @@allow('all', true)
}
`;

const ALICE_CARD = 'aaaaaaaa-0000-4000-8000-000000000001';
const BOB_CARD = 'bbbbbbbb-0000-4000-8000-000000000001';
const LABEL = 'eeeeeeee-0000-4000-8000-000000000001';
const BOB = { id: 2 };

describePg('RPC relation set with native uuid ids', () => {
    let s: TestSchema | undefined;
    beforeEach(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql' });
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        await s.prisma.card.createMany({ data: [{ id: ALICE_CARD, ownerId: 1 }, { id: BOB_CARD, ownerId: 2 }] });
        await s.prisma.label.create({ data: { id: LABEL, cards: { connect: [{ id: ALICE_CARD }, { id: BOB_CARD }] } } });
    });
    afterEach(async () => {
        await s?.cleanup();
        s = undefined;
    });

    const members = async (): Promise<string[]> =>
        (await s!.prisma.card.findMany({ where: { labels: { some: { id: LABEL } } }, select: { id: true }, orderBy: { id: 'asc' } })).map(
            (c: { id: string }) => c.id,
        );

    it('keeps a member listed in upper case and detaches only the one left out, as in lower case', async () => {
        if (!s) return;
        for (const listed of [ALICE_CARD.toUpperCase(), ALICE_CARD]) {
            const res = await rpcAs(s, BOB, 'PUT', '/label/update', { where: { id: LABEL }, data: { cards: { set: [{ id: listed }] } } });
            expect([listed, res.status]).toEqual([listed, 200]);
            expect(await members()).toEqual([ALICE_CARD]);
            await s.prisma.label.update({ where: { id: LABEL }, data: { cards: { connect: { id: BOB_CARD } } } });
        }
    });

    it('a set that lists the current members in upper case leaves them as they are', async () => {
        if (!s) return;
        const set = [{ id: ALICE_CARD.toUpperCase() }, { id: BOB_CARD.toUpperCase() }];
        const res = await rpcAs(s, BOB, 'PUT', '/label/update', { where: { id: LABEL.toUpperCase() }, data: { cards: { set } } });
        expect(res.status).toBe(200);
        expect(await members()).toEqual([ALICE_CARD, BOB_CARD]);
    });
});
