import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A relation `set` naming a current member by an id PostgreSQL compares without case, in another letter case, keeps
 * that member, as the same `set` in the stored case does: a native uuid (`@db.Uuid`, answered in lower case) or
 * case-insensitive text (`@db.Citext`, answered as stored). The handler compared the listed ids with the members' as
 * text, so it detached the member and linked it again, which needs the member's update rule (a 403 for a member the
 * user may only read).
 */

interface IdKind {
    name: string;
    column: string;
    extensions: string[];
    alice: string;
    bob: string;
    label: string;
    /** Other spellings of `alice` that name the same record. */
    spellings: string[];
}

const KINDS: IdKind[] = [
    {
        name: 'native uuid ids (@db.Uuid)',
        column: '@db.Uuid',
        extensions: [],
        alice: 'aaaaaaaa-0000-4000-8000-000000000001',
        bob: 'bbbbbbbb-0000-4000-8000-000000000001',
        label: 'eeeeeeee-0000-4000-8000-000000000001',
        spellings: ['AAAAAAAA-0000-4000-8000-000000000001'],
    },
    {
        name: 'case-insensitive text ids (@db.Citext)',
        column: '@db.Citext',
        extensions: ['citext'],
        alice: 'Alice-Card',
        bob: 'Bob-Card',
        label: 'Red',
        spellings: ['alice-card', 'ALICE-CARD'],
    },
];

const schemaFor = (column: string): string => `
model User {
  id    Int    @id
  cards Card[]
  @@allow('all', true)
}

model Card {
  id      String  @id ${column}
  owner   User    @relation(fields: [ownerId], references: [id])
  ownerId Int
  labels  Label[]
  @@allow('read', true)
  @@allow('update', auth() == owner)
  @@allow('create', true)
}

model Label {
  id    String @id ${column}
  cards Card[]
  @@allow('all', true)
}
`;

const BOB = { id: 2 };

describe.each(KINDS)('RPC relation set with $name', (kind) => {
    describePg(kind.name, () => {
        let s: TestSchema | undefined;
        beforeEach(async () => {
            if (!(await requirePg())) return;
            s = await loadSchema(schemaFor(kind.column), { provider: 'postgresql', pgExtensions: kind.extensions });
            await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
            await s.prisma.card.createMany({ data: [{ id: kind.alice, ownerId: 1 }, { id: kind.bob, ownerId: 2 }] });
            await s.prisma.label.create({ data: { id: kind.label, cards: { connect: [{ id: kind.alice }, { id: kind.bob }] } } });
        });
        afterEach(async () => {
            await s?.cleanup();
            s = undefined;
        });

        const members = async (): Promise<string[]> =>
            (await s!.prisma.card.findMany({ where: { labels: { some: { id: kind.label } } }, select: { id: true }, orderBy: { id: 'asc' } })).map(
                (c: { id: string }) => c.id,
            );

        it('keeps a member listed in another letter case and detaches only the one left out, as in its own case', async () => {
            if (!s) return;
            for (const listed of [...kind.spellings, kind.alice]) {
                const res = await rpcAs(s, BOB, 'PUT', '/label/update', { where: { id: kind.label }, data: { cards: { set: [{ id: listed }] } } });
                expect([listed, res.status]).toEqual([listed, 200]);
                expect(await members()).toEqual([kind.alice]);
                await s.prisma.label.update({ where: { id: kind.label }, data: { cards: { connect: { id: kind.bob } } } });
            }
        });

        it('a set that lists the current members in another letter case leaves them as they are', async () => {
            if (!s) return;
            const set = [{ id: kind.alice.toUpperCase() }, { id: kind.bob.toUpperCase() }];
            const res = await rpcAs(s, BOB, 'PUT', '/label/update', { where: { id: kind.label.toUpperCase() }, data: { cards: { set } } });
            expect(res.status).toBe(200);
            expect(await members()).toEqual([kind.alice, kind.bob]);
        });
    });
});
