import { RestApiHandler } from '../../../src/api/rest';
import { loadSchema, type TestSchema } from '../../support/schema';

/**
 * A 422's `source.pointer` names an attribute of the request document, of the resource the request writes. When a
 * record the request links fails its own rules (ZenStack validates it after the write, with its stored values), no
 * attribute of the request holds the value: the error has no pointer. It named `/data/attributes/label` of the team,
 * or of a relationship document that has no attributes.
 */

const SCHEMA = `
model Team {
  id    Int    @id
  label String @default('t') @length(1, 5)
  items Item[]
  @@allow('all', true)
}

model Item {
  id     Int    @id
  label  String @length(1, 5)
  team   Team?  @relation(fields: [teamId], references: [id])
  teamId Int?
  @@allow('all', true)
}
`;

let s: TestSchema;
const handler = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.team.create({ data: { id: 1 } });
    // stored before the rule, or by another program: too long for @length(1, 5)
    await s.prisma.item.create({ data: { id: 1, label: 'toolong' } });
});

afterAll(async () => {
    await s.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function send(method: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
    const res = await handler({ method, path, query: {}, requestBody: body, prisma: s.enhance(), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) };
}

const linked = async () => (await s.prisma.item.findUnique({ where: { id: 1 } })).teamId;

describe('a linked record that fails its own rules', () => {
    it.each([
        ['PATCH /team/1 with attributes and the relationship', 'PATCH', '/team/1', { data: { type: 'team', id: '1', attributes: { label: 'ok' }, relationships: { items: { data: [{ type: 'item', id: '1' }] } } } }],
        ['POST /team/1/relationships/items', 'POST', '/team/1/relationships/items', { data: [{ type: 'item', id: '1' }] }],
        ['PATCH /item/1/relationships/team', 'PATCH', '/item/1/relationships/team', { data: { type: 'team', id: '1' } }],
    ])('%s: 422 without a pointer, nothing written', async (_name, method, path, body) => {
        const res = await send(method, path, body);
        expect(res.status).toBe(422);
        expect(res.body.errors.map((e: { source?: unknown }) => e.source)).toEqual(res.body.errors.map(() => undefined));
        expect(await linked()).toBeNull();
        expect((await s.prisma.team.findUnique({ where: { id: 1 } })).label).toBe('t');
    });

    it('the resource written failing its own rules still points at its attribute (as before)', async () => {
        const res = await send('PATCH', '/item/1', { data: { type: 'item', id: '1', attributes: { label: 'longer' } } });
        expect(res.status).toBe(422);
        expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/label' });
    });
});
