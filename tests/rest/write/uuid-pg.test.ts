import { describePg, requirePg } from '../../support/postgres';
import { docOf, firstError, openApi } from './harness';

/**
 * Native uuid ids (`@db.Uuid`, PostgreSQL): the database compares them case-insensitively and answers
 * them lower-case, so an id in upper case names the same record everywhere, as it does with 2.x: in the
 * URL against `data.id`, and among the members of a relationship.
 */

const UUID_SCHEMA = `
model Owner {
  id    String @id @db.Uuid
  items Item[]
  @@allow('all', true)
}

model Item {
  id      String @id @db.Uuid
  owner   Owner? @relation(fields: [ownerId], references: [id])
  ownerId String? @db.Uuid
  @@allow('all', true)
}
`;

const OWNER = 'aaaaaaaa-1111-4111-8111-111111111111';
const ITEM = 'cccccccc-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OTHER = 'dddddddd-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

describePg('REST resources with native uuid ids', () => {
    it('an id in upper case names the same record: data.id against the URL, relationship members', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(UUID_SCHEMA, 'postgresql');
        try {
            await api.s.prisma.owner.create({ data: { id: OWNER } });
            await api.s.prisma.item.createMany({ data: [{ id: ITEM, ownerId: OWNER }, { id: OTHER }] });
            const patched = await api.call(undefined, 'PATCH', `/owner/${OWNER}`, { data: { type: 'owner', id: OWNER.toUpperCase() } });
            expect([patched.status, docOf(patched).data.id]).toEqual([200, OWNER]);
            const conflict = await api.call(undefined, 'PATCH', `/owner/${OWNER}`, { data: { type: 'owner', id: OTHER } });
            expect([conflict.status, firstError(conflict).code]).toEqual([409, 'id-conflict']);
            // removal by an upper-case id detaches the member (it was kept, answered 200)
            const removed = await api.call(undefined, 'DELETE', `/owner/${OWNER}/relationships/items`, { data: [{ type: 'item', id: ITEM.toUpperCase() }] });
            expect([removed.status, docOf(removed).data]).toEqual([200, []]);
            expect((await api.s.prisma.item.findUnique({ where: { id: ITEM } })).ownerId).toBeNull();
            // the same record twice, in two cases: one member
            const replaced = await api.call(undefined, 'PATCH', `/owner/${OWNER.toUpperCase()}/relationships/items`, {
                data: [{ type: 'item', id: OTHER.toUpperCase() }, { type: 'item', id: OTHER }],
            });
            expect([replaced.status, docOf(replaced).data]).toEqual([200, [{ type: 'item', id: OTHER }]]);
        } finally {
            await api.cleanup();
        }
    });

    it('a text operator on a uuid column is a 400 invalid-filter naming the parameter; whole-value comparisons work', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(UUID_SCHEMA, 'postgresql');
        try {
            await api.s.prisma.owner.create({ data: { id: OWNER } });
            await api.s.prisma.item.createMany({ data: [{ id: ITEM, ownerId: OWNER }, { id: OTHER }] });
            for (const op of ['contains', 'icontains', 'startsWith', 'endsWith']) {
                const parameter = `filter[ownerId$${op}]`;
                const res = await api.call(undefined, 'GET', '/item', undefined, { query: { [parameter]: 'aaaa' } });
                expect([op, res.status, firstError(res).code, (firstError(res) as { source?: unknown }).source]).toEqual([op, 400, 'invalid-filter', { parameter }]);
            }
            const equal = await api.call(undefined, 'GET', '/item', undefined, { query: { 'filter[ownerId]': OWNER.toUpperCase() } });
            expect(docOf(equal).data.map((r: { id: string }) => r.id)).toEqual([ITEM]);
            const after = await api.call(undefined, 'GET', '/item', undefined, { query: { 'filter[id$gt]': ITEM } });
            expect(docOf(after).data.map((r: { id: string }) => r.id)).toEqual([OTHER]);
        } finally {
            await api.cleanup();
        }
    });
});
