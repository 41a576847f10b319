import { loadSchema, type TestSchema } from '../../support/schema';
import { makeApi, type Api } from './support';

/** `filter[id]` names the resource id when the id field has another name (as 2.x reads it), directly and through a relationship. */

const SCHEMA = `
model Item {
  key   String @id
  label String
  parts Part[]
  @@allow('all', true)
}

model Part {
  code    String @id
  item    Item   @relation(fields: [itemKey], references: [key])
  itemKey String
  @@allow('all', true)
}
`;

let s: TestSchema;
let api: Api;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.item.create({ data: { key: 'a', label: 'A', parts: { create: [{ code: 'p1' }] } } });
    await s.prisma.item.create({ data: { key: 'b', label: 'B', parts: { create: [{ code: 'p2' }] } } });
    api = makeApi(s);
});

afterAll(async () => {
    await s.cleanup();
});

const ids = async (path: string, query: Record<string, string>) => {
    const res = await api.get(path, query);
    expect(res.status).toBe(200);
    return api.body(res).data.map((r: { id: string }) => r.id);
};

it('filters by the id field through the name "id"', async () => {
    expect(await ids('/item', { 'filter[id]': 'a' })).toEqual(['a']);
    expect(await ids('/item', { 'filter[id]': 'a,b' })).toEqual(['a', 'b']);
    expect(await ids('/part', { 'filter[item][id]': 'b' })).toEqual(['p2']);
    // the field's own name works as well
    expect(await ids('/item', { 'filter[key]': 'b' })).toEqual(['b']);
});
