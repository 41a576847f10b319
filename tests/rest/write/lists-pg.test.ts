import { describePg, requirePg } from '../../support/postgres';
import { LIST_SCHEMA } from './fixtures';
import { docOf, firstError, openApi } from './harness';

// Scalar lists exist on PostgreSQL only.

describePg('REST writes, scalar lists', () => {
    it('writes lists item by item, rejecting a bad item with its pointer', async () => {
        if (!(await requirePg())) return;
        const api = await openApi(LIST_SCHEMA, 'postgresql');
        try {
            const created = await api.call(undefined, 'POST', '/shelf', { data: { type: 'shelf', attributes: { names: ['a', 'b'], sizes: [1, 2] } } });
            expect(created.status).toBe(201);
            expect(docOf(created).data.attributes).toEqual({ names: ['a', 'b'], sizes: [1, 2] });
            const id = docOf(created).data.id;
            const updated = await api.call(undefined, 'PATCH', `/shelf/${id}`, { data: { type: 'shelf', attributes: { sizes: [] } } });
            expect(docOf(updated).data.attributes).toEqual({ names: ['a', 'b'], sizes: [] });
            const bad = await api.call(undefined, 'PATCH', `/shelf/${id}`, { data: { type: 'shelf', attributes: { sizes: [3, 'four'] } } });
            expect([bad.status, firstError(bad).source?.pointer]).toEqual([400, '/data/attributes/sizes/1']);
            const notList = await api.call(undefined, 'PATCH', `/shelf/${id}`, { data: { type: 'shelf', attributes: { names: 'a' } } });
            expect([notList.status, firstError(notList).source?.pointer]).toEqual([400, '/data/attributes/names']);
            expect((await api.s.prisma.shelf.findUnique({ where: { id } })).sizes).toEqual([]);
        } finally {
            await api.cleanup();
        }
    });
});
