import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A relation `set` naming a current member by a case-insensitive text id (`@db.Citext`) in another letter case
 * keeps that member, as PostgreSQL compares it: the handler compared the listed ids with the members' as they
 * are written, so it detached the member and linked it again, which needs the member's update rule (a 403 for a
 * member the user may only read).
 */

const SCHEMA = `
model User {
  id    Int    @id
  cards Card[]
  @@allow('all', true)
}

model Card {
  code    String  @id @db.Citext
  owner   User    @relation(fields: [ownerId], references: [id])
  ownerId Int
  labels  Label[]
  @@allow('read', true)
  @@allow('update', auth() == owner)
  @@allow('create', true)
}

model Label {
  code  String @id @db.Citext
  cards Card[]
  @@allow('all', true)
}
`;

const BOB = { id: 2 };

describePg('RPC relation set with case-insensitive text ids (@db.Citext)', () => {
    let s: TestSchema | undefined;
    beforeEach(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql', pgExtensions: ['citext'] });
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        await s.prisma.card.createMany({ data: [{ code: 'Alice-Card', ownerId: 1 }, { code: 'Bob-Card', ownerId: 2 }] });
        await s.prisma.label.create({ data: { code: 'Red', cards: { connect: [{ code: 'Alice-Card' }, { code: 'Bob-Card' }] } } });
    });
    afterEach(async () => {
        await s?.cleanup();
        s = undefined;
    });

    const members = async (): Promise<string[]> =>
        (await s!.prisma.card.findMany({ where: { labels: { some: { code: 'Red' } } }, select: { code: true }, orderBy: { code: 'asc' } })).map(
            (c: { code: string }) => c.code,
        );

    it('keeps a member listed in another letter case and detaches only the one left out', async () => {
        if (!s) return;
        for (const listed of ['alice-card', 'ALICE-CARD', 'Alice-Card']) {
            const res = await rpcAs(s, BOB, 'PUT', '/label/update', { where: { code: 'red' }, data: { cards: { set: [{ code: listed }] } } });
            expect([listed, res.status]).toEqual([listed, 200]);
            expect(await members()).toEqual(['Alice-Card']);
            await s.prisma.label.update({ where: { code: 'Red' }, data: { cards: { connect: { code: 'Bob-Card' } } } });
        }
    });
});
