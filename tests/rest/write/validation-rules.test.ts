import { errorsOf, openApi, type Api } from './harness';

/**
 * The schema's validation rules (`@length`, `@email`, model-level `@@validate`) as 422 answers: the same
 * shape, one error object per problem, whether the handler checked the attributes with the zod schemas
 * before writing or the enhanced client found the problem itself (no `zodSchemas`, or a rule that only
 * the updated record can break).
 */

const SCHEMA = `
model Range {
  id    Int     @id
  label String  @length(1, 10)
  email String? @email
  low   Int     @default(0)
  high  Int     @default(10)
  @@validate(low <= high, 'low must not exceed high')
  @@allow('all', true)
}
`;

let api: Api;

beforeAll(async () => {
    api = await openApi(SCHEMA);
});

afterAll(async () => {
    await api.cleanup();
});

beforeEach(async () => {
    await api.s.prisma.range.deleteMany();
    await api.s.prisma.range.create({ data: { id: 1, label: 'one' } });
});

const patch = (attributes: Record<string, unknown>, zod = false) =>
    api.call({ id: 1 }, 'PATCH', '/range/1', { data: { type: 'range', id: '1', attributes } }, { zod });

describe.each([
    ['with zodSchemas', true],
    ['without zodSchemas', false],
])('%s', (_name, zod) => {
    it('a field rule: one error per problem, pointing at the attribute', async () => {
        const res = await patch({ label: '', email: 'not an email' }, zod);
        expect(res.status).toBe(422);
        const errors = errorsOf(res);
        expect(errors.map((e) => [e.code, e.reason, e.source?.pointer]).sort()).toEqual([
            ['validation-error', 'DATA_VALIDATION_VIOLATION', '/data/attributes/email'],
            ['validation-error', 'DATA_VALIDATION_VIOLATION', '/data/attributes/label'],
        ]);
        expect(errors.map((e) => e.detail).sort()).toEqual(['Invalid email', 'String must contain at least 1 character(s)']);
        // the raw zod issues of them all, once, where 2.x clients read them (its 422 had one error object)
        expect(errors[0].zodErrors?.issues.map((i) => i.path).sort()).toEqual([['email'], ['label']]);
        expect(errors.slice(1).map((e) => e.zodErrors)).toEqual([undefined]);
        expect(await api.s.prisma.range.findUnique({ where: { id: 1 } })).toMatchObject({ label: 'one', email: null });
    });

    it('a model-level rule broken by the update: its message, without ZenStack’s wording', async () => {
        const res = await patch({ low: 20 }, zod);
        expect(res.status).toBe(422);
        const [error, ...more] = errorsOf(res);
        expect(more).toEqual([]);
        expect(error).toMatchObject({ code: 'validation-error', detail: 'low must not exceed high', reason: 'DATA_VALIDATION_VIOLATION' });
        expect(error).not.toHaveProperty('meta');
        expect(error.zodErrors).toEqual({ issues: [expect.objectContaining({ code: 'custom', message: 'low must not exceed high' })], name: 'ZodError' });
        expect(await api.s.prisma.range.findUnique({ where: { id: 1 } })).toMatchObject({ low: 0 });
    });
});

it('a model-level rule the created record breaks names no attribute without zodSchemas, and all of them with', async () => {
    const body = { data: { type: 'range', id: '2', attributes: { label: 'two', low: 5, high: 1 } } };
    const plain = await api.call({ id: 1 }, 'POST', '/range', body);
    expect(plain.status).toBe(422);
    expect(errorsOf(plain)).toEqual([expect.objectContaining({ detail: 'low must not exceed high' })]);
    expect(errorsOf(plain)[0].source).toBeUndefined();
    const checked = await api.call({ id: 1 }, 'POST', '/range', body, { zod: true });
    expect(errorsOf(checked)).toEqual([expect.objectContaining({ detail: 'low must not exceed high', source: { pointer: '/data/attributes' } })]);
    expect(await api.s.prisma.range.count()).toBe(1);
});

describe('a refined schema (@@validate) and a foreign key set through a relationship', () => {
    const ITEMS = `
model Owner {
  id    Int    @id
  items Item[]
  @@allow('all', true)
}

model Item {
  id      Int    @id
  label   String @length(1, 10)
  owner   Owner  @relation(fields: [ownerId], references: [id])
  ownerId Int
  @@validate(label != 'forbidden', 'label must not be forbidden')
  @@allow('all', true)
}
`;
    let items: Api;
    beforeAll(async () => {
        items = await openApi(ITEMS);
        await items.s.prisma.owner.create({ data: { id: 1 } });
    });
    afterAll(() => items.cleanup());

    it('reports only the problems of what the client sent, in the errors and in zodErrors (not the foreign key the relationship sets)', async () => {
        const body = { data: { type: 'item', id: '1', attributes: { label: '' }, relationships: { owner: { data: { type: 'owner', id: '1' } } } } };
        const res = await items.call({ id: 1 }, 'POST', '/item', body, { zod: true });
        expect(res.status).toBe(422);
        const errors = errorsOf(res);
        expect(errors.map((e) => e.source?.pointer)).toEqual(['/data/attributes/label']);
        expect(errors[0].zodErrors?.issues.map((i) => i.path)).toEqual([['label']]);
        expect(await items.s.prisma.item.count()).toBe(0);
    });
});
