import { RestApiHandler } from '../../src/api/rest';
import type { Response } from '../../src/types';
import { encodeQuery, rpcCaller, type RpcCaller } from '../rpc/support';
import { loadSchema, type TestSchema } from '../support/schema';
import { createViews, VIEWS_SCHEMA } from './views-schema';

/**
 * `@@ignore`d models and `@ignore`d fields (VIEWS_SCHEMA: `Legacy`, `Author.legacy`, `Book.secret`) through both
 * handlers: the client has none of them, so every request naming one is a 4xx saying it does not exist (never a
 * 500), and the models around them are read and written as usual.
 */

const ENDPOINT = 'http://localhost/api';
type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestSchema;
let rpc: RpcCaller;
const rest = RestApiHandler({ endpoint: ENDPOINT });
const call = (method: string, path: string, body?: unknown, query: Record<string, string> = {}) =>
    rest({ method, path, query, requestBody: body, prisma: s.enhance(), modelMeta: s.modelMeta, logger: null }) as Promise<Response & { body: Body }>;

beforeAll(async () => {
    s = await loadSchema(VIEWS_SCHEMA, { previewFeatures: ['views'], zod: false });
    rpc = rpcCaller(s);
    await createViews(s);
});

afterAll(async () => {
    await s?.cleanup();
});

describe('JSON:API', () => {
    it('an ignored model is no resource type, an ignored relation no relationship', async () => {
        for (const [method, path, body] of [
            ['GET', '/legacy'],
            ['GET', '/legacy/1'],
            ['POST', '/legacy', { data: { type: 'legacy', id: '1', attributes: { name: 'x' } } }],
        ] as [string, string, unknown?][]) {
            const res = await call(method, path, body);
            expect([path, res.status, res.body.errors[0].detail]).toEqual([path, 404, 'model "legacy" does not exist']);
        }
        for (const path of ['/author/1/legacy', '/author/1/relationships/legacy']) {
            expect([path, (await call('GET', path)).status]).toEqual([path, 404]);
        }
        expect((await call('GET', '/author/1', undefined, { include: 'legacy' })).body.errors[0].code).toBe('invalid-include');
        const linked = await call('PATCH', '/author/1', { data: { type: 'author', id: '1', relationships: { legacy: { data: { type: 'legacy', id: '1' } } } } });
        expect([linked.status, linked.body.errors[0].source]).toEqual([400, { pointer: '/data/relationships/legacy' }]);
    });

    it('an ignored field is no attribute: filters, sorts, fieldsets and writes naming it are 400s, nothing written', async () => {
        for (const query of [{ 'filter[secret]': 'x' }, { sort: 'secret' }, { 'fields[book]': 'secret' }, { 'filter[books][secret]': 'x' }] as Record<string, string>[]) {
            const res = await call('GET', Object.keys(query)[0] === 'filter[books][secret]' ? '/author' : '/book', undefined, query);
            expect([query, res.status]).toEqual([query, 400]);
        }
        const before = await s.prisma.book.count();
        const created = await call('POST', '/book', { data: { type: 'book', attributes: { title: 't', secret: 's' }, relationships: { author: { data: { type: 'author', id: '1' } } } } });
        expect([created.status, created.body.errors[0].source]).toEqual([400, { pointer: '/data/attributes/secret' }]);
        expect(await s.prisma.book.count()).toBe(before);
    });

    it('the models around them are read and written as usual', async () => {
        const author = await call('GET', '/author/1', undefined, { include: 'books' });
        expect(author.body.data).toMatchObject({ type: 'author', id: 1, attributes: { name: 'Ann', legacyId: null } });
        expect(author.body.included.map((b: Body) => [b.type, b.attributes])).toEqual([
            ['book', { title: 'Same', authorId: 1 }],
            ['book', { title: 'Same', authorId: 1 }],
        ]);
        const created = await call('POST', '/book', { data: { type: 'book', attributes: { title: 'New' }, relationships: { author: { data: { type: 'author', id: '2' } } } } });
        expect([created.status, created.body.data.attributes]).toEqual([201, { title: 'New', authorId: 2 }]);
        expect((await call('DELETE', `/book/${created.body.data.id}`)).status).toBe(204);
    });
});

describe('RPC', () => {
    it('an ignored model is an unknown model, an ignored field an unknown argument, nothing written', async () => {
        for (const [method, op, input] of [
            ['GET', 'findMany', {}],
            ['POST', 'create', { body: { data: { id: 1, name: 'x' } } }],
        ] as const) {
            const res = await rpc(method, `/legacy/${op}`, input);
            expect([op, res.status, res.body.error.message]).toEqual([op, 400, 'unknown model: legacy']);
        }
        const before = await s.prisma.book.count();
        for (const [method, op, input] of [
            ['GET', 'findMany', encodeQuery({ where: { secret: 'x' } })],
            ['GET', 'findMany', encodeQuery({ select: { secret: true } })],
            ['GET', 'findMany', encodeQuery({ orderBy: { secret: 'asc' } })],
            ['POST', 'create', { body: { data: { title: 't', authorId: 1, secret: 's' } } }],
        ] as const) {
            const res = await rpc(method, `/book/${op}`, input);
            expect([op, res.status, res.body.error.message]).toEqual([op, 400, expect.stringMatching(/secret/)]);
        }
        const nested = await rpc('GET', '/author/findMany', encodeQuery({ include: { legacy: true } }));
        expect([nested.status, nested.body.error.message]).toEqual([400, expect.stringMatching(/legacy/)]);
        expect(await s.prisma.book.count()).toBe(before);
    });

    it('the models around them are read and written as usual', async () => {
        const made = await rpc('POST', '/author/create', { body: { data: { name: 'Cy', books: { create: [{ title: 'C' }] } }, include: { books: { select: { title: true } } } } });
        expect([made.status, made.body.data.name, made.body.data.books]).toEqual([201, 'Cy', [{ title: 'C' }]]);
        const read = await rpc('GET', '/book/findMany', encodeQuery({ where: { author: { name: 'Cy' } }, select: { title: true, author: { select: { legacyId: true } } } }));
        expect(read.body.data).toEqual([{ title: 'C', author: { legacyId: null } }]);
    });
});
