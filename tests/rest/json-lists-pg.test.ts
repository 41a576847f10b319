import { describePg, requirePg } from '../support/postgres';
import { docOf, firstError, openApi, type Api } from './write/harness';

/**
 * Lists of JSON values (`Json[]`, PostgreSQL only). A JSON null is a value like any other there, and the
 * list operators apply to them as to other lists: writing `[{"a":1}, null]` was a 400 ("cannot hold null
 * items") and every filter on such a field a 400 ("cannot be filtered"), where 2.22.3 stores the list and
 * filters it (and the RPC handler does both).
 */

const DOCS = `
model Doc {
  id    Int    @id
  parts Json[]
  @@allow('all', true)
}
`;

describePg('REST, lists of JSON values', () => {
    let api: Api | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        api = await openApi(DOCS, 'postgresql');
    });
    afterAll(async () => {
        await api?.cleanup();
    });

    const create = (id: number, parts: unknown[], zod = false) =>
        api!.call(undefined, 'POST', '/doc', { data: { type: 'doc', id: String(id), attributes: { parts } } }, { zod });

    async function ids(query: Record<string, string>): Promise<number[]> {
        const res = await api!.call(undefined, 'GET', '/doc', undefined, { query });
        if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
        return docOf(res).data.map((r: { id: number }) => r.id);
    }

    it('writes a JSON null item as JSON null, with and without zod schemas', async () => {
        if (!api) return;
        const plain = await create(1, [{ a: 1, b: 2 }, null, 'x']);
        expect([plain.status, docOf(plain).data?.attributes]).toEqual([201, { parts: [{ a: 1, b: 2 }, null, 'x'] }]);
        const validated = await create(2, [1, 2], true);
        expect(validated.status).toBe(201);
        expect((await create(3, [null], true)).status).toBe(201);
        expect((await create(4, [])).status).toBe(201);
        expect((await api.s.prisma.doc.findUnique({ where: { id: 1 } })).parts).toEqual([{ a: 1, b: 2 }, null, 'x']);
        const patched = await api.call(undefined, 'PATCH', '/doc/4', { data: { type: 'doc', id: '4', attributes: { parts: [null, { c: [3] }] } } });
        expect([patched.status, docOf(patched).data?.attributes]).toEqual([200, { parts: [null, { c: [3] }] }]);
        await api.s.prisma.doc.update({ where: { id: 4 }, data: { parts: [] } });
        // a null marker stands for a whole Json field, not an item: a 400 pointing at the item (it reached Prisma, whose
        // refusal had no pointer; a review on 2026-12-01)
        const marked = await api.call(undefined, 'POST', '/doc', {
            data: { type: 'doc', id: '5', attributes: { parts: [null] } },
            meta: { serialization: { values: { 'data.attributes.parts.0': [['custom', 'JsonNull']] } } },
        });
        expect([marked.status, firstError(marked).source?.pointer]).toEqual([400, '/data/attributes/parts/0']);
    });

    it('filters with $has (one JSON value), $hasSome and $hasEvery (comma-separated JSON values), $isEmpty and equality with an array', async () => {
        if (!api) return;
        expect(await ids({ 'filter[parts$has]': '{"a":1,"b":2}' })).toEqual([1]);
        expect(await ids({ 'filter[parts$has]': '1' })).toEqual([2]);
        expect(await ids({ 'filter[parts$has]': 'null' })).toEqual([1, 3]);
        expect(await ids({ 'filter[parts$hasSome]': '2,"x"' })).toEqual([1, 2]);
        expect(await ids({ 'filter[parts$hasSome]': '{"a":1,"b":2},7' })).toEqual([1]);
        expect(await ids({ 'filter[parts$hasEvery]': '1,2' })).toEqual([2]);
        expect(await ids({ 'filter[parts$isEmpty]': 'true' })).toEqual([4]);
        expect(await ids({ 'filter[parts]': '[1,2]' })).toEqual([2]);
    });

    it('refuses values that are not JSON, and operators lists do not have', async () => {
        if (!api) return;
        for (const [query, code] of [
            [{ 'filter[parts$has]': 'x' }, 'invalid-value'],
            [{ 'filter[parts$hasSome]': '1,x' }, 'invalid-value'],
            [{ 'filter[parts]': '1' }, 'invalid-value'],
            [{ 'filter[parts$isEmpty]': 'yes' }, 'invalid-value'],
            [{ 'filter[parts$contains]': '1' }, 'invalid-filter'],
        ] as const) {
            const res = await api.call(undefined, 'GET', '/doc', undefined, { query });
            expect([query, res.status, firstError(res).code]).toEqual([query, 400, code]);
        }
    });
});
