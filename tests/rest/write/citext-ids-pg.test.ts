import { describePg, requirePg } from '../../support/postgres';
import { docOf, firstError, openApi } from './harness';

/**
 * Case-insensitive text ids (`@db.Citext`, PostgreSQL): the database compares them case-insensitively and
 * answers them as stored, so `abc` names the record stored as `ABC`: in the URL against `data.id`, and among
 * the members of a relationship (a removal detaches the member, an addition or replacement keeps it as it is).
 */

const CITEXT_SCHEMA = `
model Owner {
  code  String @id @db.Citext
  items Item[]
  badge Badge?
  @@allow('all', true)
}

model Badge {
  code      String  @id @db.Citext
  locked    Boolean @default(false)
  owner     Owner?  @relation(fields: [ownerCode], references: [code])
  ownerCode String? @unique @db.Citext
  @@allow('read,create', true)
  @@allow('update', !locked)
}

model Item {
  code      String  @id @db.Citext
  locked    Boolean @default(false)
  owner     Owner?  @relation(fields: [ownerCode], references: [code])
  ownerCode String? @db.Citext
  @@allow('read,create', true)
  @@allow('update', !locked)
}
`;

describePg('REST resources with case-insensitive text ids (@db.Citext)', () => {
    it('an id in another letter case names the same record: data.id against the URL, relationship members', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(CITEXT_SCHEMA, 'postgresql', { pgExtensions: ['citext'] });
        try {
            await api.s.prisma.owner.create({ data: { code: 'ABC' } });
            await api.s.prisma.item.createMany({ data: [{ code: 'IT-1', ownerCode: 'ABC' }, { code: 'IT-2', ownerCode: 'ABC', locked: true }] });

            // the id the record answers, sent back to the URL in another case
            const patched = await api.call(undefined, 'PATCH', '/owner/abc', { data: { type: 'owner', id: 'ABC' } });
            expect([patched.status, docOf(patched).data?.id]).toEqual([200, 'ABC']);
            const conflict = await api.call(undefined, 'PATCH', '/owner/abc', { data: { type: 'owner', id: 'XYZ' } });
            expect([conflict.status, firstError(conflict).code]).toEqual([409, 'id-conflict']);

            // removal in another case detaches the member (it was kept, answered 200)
            const removed = await api.call(undefined, 'DELETE', '/owner/ABC/relationships/items', { data: [{ type: 'item', id: 'it-1' }] });
            expect([removed.status, docOf(removed).data]).toEqual([200, [{ type: 'item', id: 'IT-2' }]]);
            expect((await api.s.prisma.item.findUnique({ where: { code: 'IT-1' } })).ownerCode).toBeNull();

            // adding, or keeping in a replacement, a member already there changes nothing: its update rule is not
            // asked (the locked member was detached and linked again, a 403)
            const added = await api.call(undefined, 'POST', '/owner/ABC/relationships/items', { data: [{ type: 'item', id: 'it-2' }] });
            expect([added.status, docOf(added).data]).toEqual([200, [{ type: 'item', id: 'IT-2' }]]);
            const replaced = await api.call(undefined, 'PATCH', '/owner/abc/relationships/items', { data: [{ type: 'item', id: 'it-2' }] });
            expect([replaced.status, docOf(replaced).data]).toEqual([200, [{ type: 'item', id: 'IT-2' }]]);
            expect((await api.s.prisma.item.findUnique({ where: { code: 'IT-2' } })).ownerCode).toBe('ABC');

            // the same record listed twice, in two cases: one member (it was a 404 naming a record that exists)
            const twice = await api.call(undefined, 'POST', '/owner/ABC/relationships/items', { data: [{ type: 'item', id: 'it-1' }, { type: 'item', id: 'IT-1' }] });
            expect([twice.status, docOf(twice).data]).toEqual([200, [{ type: 'item', id: 'IT-1' }, { type: 'item', id: 'IT-2' }]]);
        } finally {
            await api.cleanup();
        }
    });

    it('members added or kept through a URL naming the record in another letter case hold its key as stored', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(CITEXT_SCHEMA, 'postgresql', { pgExtensions: ['citext'] });
        try {
            await api.s.prisma.owner.create({ data: { code: 'ABC' } });
            await api.s.prisma.item.createMany({ data: [{ code: 'I1' }, { code: 'I2' }, { code: 'I3', ownerCode: 'ABC' }] });
            const added = await api.call(undefined, 'POST', '/owner/abc/relationships/items', { data: [{ type: 'item', id: 'I1' }] });
            expect([added.status, docOf(added).data]).toEqual([200, [{ type: 'item', id: 'I1' }, { type: 'item', id: 'I3' }]]);
            const replaced = await api.call(undefined, 'PATCH', '/owner/aBc/relationships/items', { data: [{ type: 'item', id: 'I1' }, { type: 'item', id: 'I2' }, { type: 'item', id: 'I3' }] });
            expect(replaced.status).toBe(200);
            expect(await api.s.prisma.item.findMany({ orderBy: { code: 'asc' }, select: { code: true, ownerCode: true } })).toEqual(
                ['I1', 'I2', 'I3'].map((code) => ({ code, ownerCode: 'ABC' })),
            );
            // which every read of the relationship then finds (the ORM joins in memory, comparing exactly)
            const read = await api.call(undefined, 'GET', '/owner/ABC/relationships/items');
            expect(docOf(read).data).toEqual(['I1', 'I2', 'I3'].map((id) => ({ type: 'item', id })));
        } finally {
            await api.cleanup();
        }
    });

    it('linking the current one-to-one partner again by its id in another letter case changes nothing', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(CITEXT_SCHEMA, 'postgresql', { pgExtensions: ['citext'] });
        try {
            await api.s.prisma.owner.create({ data: { code: 'ABC' } });
            await api.s.prisma.badge.create({ data: { code: 'B1', locked: true, ownerCode: 'ABC' } });
            // from the side without the key: the locked partner was detached first (a 403), as for another badge
            for (const id of ['B1', 'b1']) {
                const res = await api.call(undefined, 'PATCH', '/owner/abc/relationships/badge', { data: { type: 'badge', id } });
                expect([id, res.status, docOf(res).data]).toEqual([id, 200, { type: 'badge', id: 'B1' }]);
            }
            expect((await api.s.prisma.badge.findUnique({ where: { code: 'B1' } })).ownerCode).toBe('ABC');
        } finally {
            await api.cleanup();
        }
    });
});
