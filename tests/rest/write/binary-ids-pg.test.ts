import { describePg, requirePg } from '../../support/postgres';
import { docOf, firstError, openApi, type Api } from './harness';

/**
 * Ids of types JSON has no exact form for, on PostgreSQL: a Bytes id travels as Base64 (its wire format
 * in attributes) and names the record it came from; a BigInt id beyond 2^53 travels as a string, and a
 * JSON number that cannot hold it exactly is refused instead of naming a neighbouring record.
 */

const SCHEMA = `
model Blob {
  id    Bytes  @id
  name  String
  parts Part[]
  @@allow('all', true)
}

model Part {
  id      BigInt @id
  blob    Blob?  @relation(fields: [blobId], references: [id])
  blobId  Bytes?
  next    Part?  @relation("chain", fields: [nextId], references: [id])
  nextId  BigInt?
  prev    Part[] @relation("chain")
  @@allow('all', true)
}
`;

const BLOB = Buffer.from([1, 2, 255, 254]); // Base64 "AQL//g==": '/' and '=' need escaping in a URL
const BLOB_ID = BLOB.toString('base64');
const BIG = 9007199254740993n; // 2^53 + 1: a JSON number reads it as 2^53

async function withApi(fn: (api: Api) => Promise<void>): Promise<void> {
    if (!(await requirePg())) return;
    const api = await openApi(SCHEMA, 'postgresql');
    try {
        await fn(api);
    } finally {
        await api.cleanup();
    }
}

describePg('REST resources with Bytes and large BigInt ids', () => {
    it('a Bytes id is its Base64 text in data, identifiers and links, and that id fetches the record', async () => {
        await withApi(async (api) => {
            await api.s.prisma.blob.create({ data: { id: BLOB, name: 'b', parts: { create: { id: 1n } } } });
            const list = await api.call(undefined, 'GET', '/blob', undefined, { query: { include: 'parts' } });
            expect(list.status).toBe(200);
            const [blob] = docOf(list).data;
            expect(blob.id).toBe(BLOB_ID);
            expect(blob.links.self).toBe(`http://localhost/api/blob/${encodeURIComponent(BLOB_ID)}`);
            expect(docOf(list).included?.[0].relationships?.blob.data).toEqual({ type: 'blob', id: BLOB_ID });

            const one = await api.call(undefined, 'GET', `/blob/${encodeURIComponent(blob.id)}`);
            expect([one.status, docOf(one).data?.attributes]).toEqual([200, { name: 'b' }]);
            const related = await api.call(undefined, 'GET', '/part/1/blob');
            expect([related.status, docOf(related).data?.id]).toEqual([200, BLOB_ID]);
            const relatedById = await api.call(undefined, 'GET', `/part/1/blob/${encodeURIComponent(BLOB_ID)}`);
            expect([relatedById.status, docOf(relatedById).data?.id]).toEqual([200, BLOB_ID]);

            const made = await api.call(undefined, 'POST', '/blob', { data: { type: 'blob', id: 'AAE=', attributes: { name: 'c' } } });
            expect([made.status, docOf(made).data.id]).toEqual([201, 'AAE=']);
            const linked = await api.call(undefined, 'PATCH', '/part/1/relationships/blob', { data: { type: 'blob', id: 'AAE=' } });
            expect([linked.status, docOf(linked).data]).toEqual([200, { type: 'blob', id: 'AAE=' }]);

            const bad = await api.call(undefined, 'GET', '/blob/1,2,255');
            expect([bad.status, firstError(bad).code]).toEqual([400, 'invalid-id']);
        });
    });

    it('a BigInt id beyond 2^53 given as a JSON number is refused, not rounded to another record', async () => {
        await withApi(async (api) => {
            await api.s.prisma.part.createMany({ data: [{ id: 1n }, { id: BIG - 1n }, { id: BIG }] });
            const rounded = await api.call(undefined, 'PATCH', '/part/1/relationships/next', { data: { type: 'part', id: Number(BIG) } });
            expect([rounded.status, firstError(rounded).code]).toEqual([400, 'invalid-id']);
            expect((await api.s.prisma.part.findUnique({ where: { id: 1n } })).nextId).toBeNull();

            const exact = await api.call(undefined, 'PATCH', '/part/1/relationships/next', { data: { type: 'part', id: String(BIG) } });
            expect([exact.status, docOf(exact).data]).toEqual([200, { type: 'part', id: String(BIG) }]);
            const safe = await api.call(undefined, 'PATCH', '/part/1', { data: { type: 'part', id: 1, relationships: { next: { data: { type: 'part', id: 1 } } } } });
            expect(safe.status).toBe(200);
        });
    });
});
