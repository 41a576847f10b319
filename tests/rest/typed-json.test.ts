import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { HandleRequestFn } from '../../src/types';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';

/**
 * Strongly typed JSON fields (`address Address? @json` of a ZenStack `type`) are attributes like any
 * Json field: read with the `DateTime`s inside tagged for superjson, written with ZenStack's zod
 * validation of their shape (pointers into the value), cleared with `null`.
 */

const SCHEMA = `
type Address {
  city  String
  zip   String?
  since DateTime?
}

type Tag {
  label String
}

model Person {
  id      Int      @id @default(autoincrement())
  name    String
  address Address? @json
  tags    Tag[]    @json
  @@allow('all', true)
}
`;

const SINCE = '2024-01-01T00:00:00.000Z';
type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestSchema;
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
const rpc = RPCApiHandler();

async function call(handler: HandleRequestFn, method: string, path: string, query: Record<string, string> = {}, body?: unknown): Promise<{ status: number; body: Body }> {
    const res = await handler({ method, path, query, requestBody: body, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)) };
}

function defineTypedJsonTests(provider: Provider): void {
    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return; // skipped, reported by describePg
        s = await loadSchema(SCHEMA, { provider });
        await s.prisma.person.create({ data: { id: 100, name: 'Ada', address: { city: 'Oslo', since: SINCE }, tags: [{ label: 'x' }] } });
    });

    afterAll(() => s?.cleanup());

    describe('REST: typed JSON fields', () => {
        it('are attributes, with the DateTime inside tagged', async () => {
            if (!s) return;
            const res = await call(rest, 'GET', '/person');
            expect(res.status).toBe(200);
            expect(res.body.data[0].attributes).toEqual({ name: 'Ada', address: { city: 'Oslo', since: SINCE }, tags: [{ label: 'x' }] });
            expect(res.body.meta.serialization).toEqual({ values: { 'data.0.attributes.address.since': ['Date'] } });
            const one = await call(rest, 'GET', '/person/100', { 'fields[person]': 'address' });
            expect(one.body.data.attributes).toEqual({ address: { city: 'Oslo', since: SINCE } });
            expect(one.body.meta.serialization).toEqual({ values: { 'data.attributes.address.since': ['Date'] } });
        });

        it('are written, validated against their type, and cleared with null', async () => {
            if (!s) return;
            const created = await call(rest, 'POST', '/person', {}, { data: { type: 'person', attributes: { name: 'Bo', address: { city: 'Lima', zip: '15001' }, tags: [] } } });
            expect(created.status).toBe(201);
            expect(created.body.data.attributes).toEqual({ name: 'Bo', address: { city: 'Lima', zip: '15001' }, tags: [] });
            const id = String(created.body.data.id);

            const wrong = await call(rest, 'PATCH', `/person/${id}`, {}, { data: { type: 'person', id, attributes: { address: { town: 'Lima' }, tags: {} } } });
            expect(wrong.status).toBe(422);
            expect(wrong.body.errors.map((e: Body) => e.source.pointer).sort()).toEqual(['/data/attributes/address/city', '/data/attributes/address/town', '/data/attributes/tags']);
            expect(await s.prisma.person.findUnique({ where: { id: Number(id) } })).toMatchObject({ address: { city: 'Lima', zip: '15001' } });

            const cleared = await call(rest, 'PATCH', `/person/${id}`, {}, { data: { type: 'person', id, attributes: { address: null } } });
            expect(cleared.status).toBe(200);
            expect(cleared.body.data.attributes.address).toBeNull();
            expect((await s.prisma.person.findUnique({ where: { id: Number(id) } })).address).toBeNull();
            const required = await call(rest, 'PATCH', `/person/${id}`, {}, { data: { type: 'person', id, attributes: { tags: null } } });
            expect(required.status).toBe(422);
        });

        it('are created null (ZenStack checks a null marker against the type in a create), with and without zod', async () => {
            if (!s) return;
            for (const zodSchemas of [s.zodSchemas, undefined]) {
                const res = await rest({
                    method: 'POST',
                    path: '/person',
                    query: {},
                    requestBody: { data: { type: 'person', attributes: { name: 'Nil', address: null, tags: [] } } },
                    prisma: s.enhance({ id: 1 }),
                    modelMeta: s.modelMeta,
                    zodSchemas,
                    logger: null,
                });
                const body = JSON.parse(JSON.stringify(res.body));
                expect([res.status, body.data?.attributes.address]).toEqual([201, null]);
                expect((await s.prisma.person.findUnique({ where: { id: Number(body.data.id) } })).address).toBeNull();
            }
        });

        it('are compared by equality with a JSON value (as 2.x), and cannot be sorted, like other Json fields', async () => {
            if (!s) return;
            const ids = async (value: string) => (await call(rest, 'GET', '/person', { 'filter[address]': value })).body.data.map((r: Body) => r.id);
            expect(await ids(`{"city":"Oslo","since":"${SINCE}"}`)).toEqual([100]);
            expect(await ids('{"city":"Oslo"}')).toEqual([]);
            const operator = await call(rest, 'GET', '/person', { 'filter[address$contains]': 'Oslo' });
            expect([operator.status, operator.body.errors[0].code]).toEqual([400, 'invalid-filter']);
            const sorted = await call(rest, 'GET', '/person', { sort: 'address' });
            expect(sorted.status).toBe(400);
            expect(sorted.body.errors[0].code).toBe('invalid-sort');
        });
    });

    describe('RPC: typed JSON fields', () => {
        it('are read with the DateTime inside tagged and written as given', async () => {
            if (!s) return;
            const read = await call(rpc, 'GET', '/person/findUnique', { q: JSON.stringify({ where: { id: 100 } }) });
            expect(read.body).toEqual({ data: { id: 100, name: 'Ada', address: { city: 'Oslo', since: SINCE }, tags: [{ label: 'x' }] }, meta: { serialization: { values: { 'address.since': ['Date'] } } } });
            const created = await call(rpc, 'POST', '/person/create', {}, { data: { name: 'Cy', address: { city: 'Rome' }, tags: [{ label: 'y' }] } });
            expect(created.status).toBe(201);
            expect(created.body.data).toMatchObject({ name: 'Cy', address: { city: 'Rome' }, tags: [{ label: 'y' }] });
        });
    });
}

describe('typed JSON fields [sqlite]', () => defineTypedJsonTests('sqlite'));
describePg('typed JSON fields', () => defineTypedJsonTests('postgresql'));
