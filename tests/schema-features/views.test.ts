import { RestApiHandler } from '../../src/api/rest';
import type { Response } from '../../src/types';
import { encodeQuery, rpcCaller, type RpcCaller } from '../rpc/support';
import { loadSchema, type TestSchema } from '../support/schema';
import { createViews, VIEWS_SCHEMA } from './views-schema';

/**
 * Database views (`view` in ZModel, Prisma's `views` preview feature) through both handlers, on SQLite: a view with a
 * unique field is read like a model; none can be written, and a write the policy allows is a 400 saying the view is
 * read-only (not the data layer's bare refusal). A view without a unique field is no JSON:API resource type (a 404
 * saying why; relationships to it are left out) and, in RPC, can be read with the operations on many records only.
 */

const ENDPOINT = 'http://localhost/api';
type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Res = Response & { body: Body };

let s: TestSchema;
let rpc: RpcCaller;
const rest = RestApiHandler({ endpoint: ENDPOINT });
const call = (method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Res> =>
    rest({ method, path, query, requestBody: body, prisma: s.enhance(), modelMeta: s.modelMeta, logger: null }) as Promise<Res>;

beforeAll(async () => {
    s = await loadSchema(VIEWS_SCHEMA, { previewFeatures: ['views'], zod: false });
    rpc = rpcCaller(s);
    await createViews(s);
});

afterAll(async () => {
    await s?.cleanup();
});

/** What the database holds, read through the raw client: a refused write changes none of it. */
const tables = async () => [await s.prisma.author.findMany({ orderBy: { id: 'asc' } }), await s.prisma.book.findMany({ orderBy: { id: 'asc' } })];

describe('a view with a unique field', () => {
    it('JSON:API reads it as a resource type, its unique field the id, related both ways', async () => {
        const list = await call('GET', '/authorInfo', undefined, { include: 'author', sort: '-bookCount' });
        expect(list.status).toBe(200);
        expect(list.body.data.map((r: Body) => [r.type, r.id, r.attributes, r.relationships.author.data, r.links.self])).toEqual([
            ['authorInfo', 1, { name: 'Ann', bookCount: 2 }, { type: 'author', id: 1 }, `${ENDPOINT}/authorInfo/1`],
            ['authorInfo', 2, { name: 'Bob', bookCount: 0 }, { type: 'author', id: 2 }, `${ENDPOINT}/authorInfo/2`],
        ]);
        expect(list.body.included.map((r: Body) => [r.type, r.id])).toEqual([
            ['author', 1],
            ['author', 2],
        ]);
        expect((await call('GET', '/authorInfo', undefined, { 'filter[name]': 'Bob' })).body.data.map((r: Body) => r.id)).toEqual([2]);
        const author = await call('GET', '/author/1/info');
        expect([author.status, author.body.data?.type, author.body.data?.id]).toEqual([200, 'authorInfo', 1]);
        const included = await call('GET', '/author/1', undefined, { include: 'info' });
        expect([included.body.data.relationships.info.data, included.body.included?.[0]?.attributes]).toEqual([{ type: 'authorInfo', id: 1 }, { name: 'Ann', bookCount: 2 }]);
    });

    it('RPC reads it with every read operation', async () => {
        const one = await rpc('GET', '/authorInfo/findUnique', encodeQuery({ where: { authorId: 1 }, include: { author: true } }));
        expect([one.status, one.body.data]).toEqual([200, { authorId: 1, name: 'Ann', bookCount: 2, author: { id: 1, name: 'Ann', legacyId: null } }]);
        const many = await rpc('GET', '/author/findMany', encodeQuery({ where: { info: { bookCount: { gt: 0 } } }, select: { id: true, info: true } }));
        expect(many.body.data).toEqual([{ id: 1, info: { authorId: 1, name: 'Ann', bookCount: 2 } }]);
        expect((await rpc('GET', '/authorInfo/count')).body.data).toBe(2);
    });

    it('a write its policy denies is a 403, as for a table', async () => {
        const before = await tables();
        const patched = await call('PATCH', '/authorInfo/1', { data: { type: 'authorInfo', id: '1', attributes: { name: 'x' } } });
        expect([patched.status, patched.body.errors[0].code]).toEqual([403, 'forbidden']);
        expect((await rpc('PUT', '/authorInfo/update', { body: { where: { authorId: 1 }, data: { name: 'x' } } })).status).toBe(403);
        expect(await tables()).toEqual(before);
    });

    it('a write its policy allows is a 400 saying that the view is read-only, in both protocols', async () => {
        const before = await tables();
        const readOnly = expect.stringMatching(/^the data layer does not support \w+ on model OpenInfo \(a database view is read-only/);
        const patched = await call('PATCH', '/openInfo/k1', { data: { type: 'openInfo', id: 'k1', attributes: { name: 'x' } } });
        expect([patched.status, patched.body.errors[0].detail]).toEqual([400, readOnly]);
        const created = await call('POST', '/openInfo', { data: { type: 'openInfo', id: 'k9', attributes: { name: 'x' } } });
        expect([created.status, created.body.errors[0].detail]).toEqual([400, readOnly]);
        expect((await call('DELETE', '/openInfo/k1')).body.errors[0].detail).toEqual(readOnly);
        for (const [method, op, input] of [
            ['POST', 'create', { body: { data: { key: 'k9', name: 'x' } } }],
            ['PUT', 'update', { body: { where: { key: 'k1' }, data: { name: 'x' } } }],
            ['PUT', 'updateMany', { body: { data: { name: 'x' } } }],
            ['POST', 'upsert', { body: { where: { key: 'k1' }, create: { key: 'k1', name: 'x' }, update: { name: 'x' } } }],
            ['DELETE', 'delete', encodeQuery({ where: { key: 'k1' } })],
            ['DELETE', 'deleteMany', {}],
        ] as const) {
            const res = await rpc(method, `/openInfo/${op}`, input);
            expect([op, res.status, res.body.error?.message]).toEqual([op, 400, readOnly]);
        }
        expect((await rpc('GET', '/openInfo/findMany', encodeQuery({ orderBy: { key: 'asc' } }))).body.data).toEqual([
            { key: 'k1', name: 'Ann' },
            { key: 'k2', name: 'Bob' },
        ]);
        expect(await tables()).toEqual(before);
    });
});

describe('a view without a unique field', () => {
    const unidentified = (type: string) => `model "${type}" has no @id or @unique field that every record has, so its records cannot be JSON:API resources (read it through the RPC handler)`;

    it('is no JSON:API resource type: every request naming it is a 404 saying why, nothing runs', async () => {
        // its records have no id: it was listed with "id": "" (with a sort; without one the ORM refused the page), and a create was a 500
        const requests: [string, string, unknown?][] = [
            ['GET', '/titleCount'],
            ['GET', '/titleCount/Same'],
            ['POST', '/titleCount', { data: { type: 'titleCount', attributes: { title: 'x', n: 1 } } }],
            ['PATCH', '/titleCount/Same', { data: { type: 'titleCount', id: 'Same', attributes: { n: 1 } } }],
            ['DELETE', '/titleCount/Same'],
            ['GET', '/authorStat'],
        ];
        for (const [method, path, body] of requests) {
            const res = await call(method, path, body, method === 'GET' && path === '/titleCount' ? { sort: 'title' } : {});
            const type = path.split('/')[1];
            expect([method, path, res.status, res.body.errors?.[0]?.code, res.body.errors?.[0]?.detail]).toEqual([method, path, 404, 'unsupported-model', unidentified(type)]);
        }
    });

    it('relationships to it are left out of the types that have one', async () => {
        const author = await call('GET', '/author/1');
        expect(author.status).toBe(200);
        expect(Object.keys(author.body.data.relationships)).toEqual(['books', 'info']);
        const list = await call('GET', '/author', undefined, { include: 'books' });
        expect([list.status, list.body.data.map((a: Body) => Object.keys(a.relationships))]).toEqual([
            200,
            [
                ['books', 'info'],
                ['books', 'info'],
            ],
        ]);
        for (const path of ['/author/1/stats', '/author/1/relationships/stats']) {
            expect([path, (await call('GET', path)).status]).toEqual([path, 404]);
        }
        expect((await call('GET', '/author/1', undefined, { include: 'stats' })).body.errors[0].code).toBe('invalid-include');
        expect((await call('GET', '/author', undefined, { 'fields[author]': 'stats' })).status).toBe(400);
    });

    it('RPC reads it with findMany, findFirst, count, aggregate and groupBy, through relations too', async () => {
        expect((await rpc('GET', '/titleCount/findMany')).body.data).toEqual([{ title: 'Same', n: 2 }]);
        expect((await rpc('GET', '/titleCount/findFirst', encodeQuery({ where: { n: { gt: 1 } } }))).body.data).toEqual({ title: 'Same', n: 2 });
        expect((await rpc('GET', '/titleCount/count')).body.data).toBe(1);
        expect((await rpc('GET', '/titleCount/aggregate', encodeQuery({ _sum: { n: true } }))).body.data).toEqual({ _sum: { n: 2 } });
        expect((await rpc('GET', '/titleCount/groupBy', encodeQuery({ by: ['title'], _sum: { n: true } }))).body.data).toEqual([{ title: 'Same', _sum: { n: 2 } }]);
        const authors = await rpc('GET', '/author/findMany', encodeQuery({ where: { stats: { some: { books: { gt: 1 } } } }, select: { name: true, stats: true } }));
        expect(authors.body.data).toEqual([{ name: 'Ann', stats: [{ authorId: 1, books: 2 }] }]);
        expect((await rpc('GET', '/authorStat/findMany', encodeQuery({ include: { author: { select: { name: true } } } }))).body.data).toEqual([{ authorId: 1, books: 2, author: { name: 'Ann' } }]);
    });

    it('RPC: any other operation is a 400 saying so, before anything runs, in a transaction too', async () => {
        const before = await tables();
        // findUnique was the data layer's bare refusal, and a create or updateMany the policy allows a 500 (ZenStack's
        // policy layer needs ids to check a write)
        const expected = (op: string) =>
            `operation ${op} is not available on titleCount: it has no @id or @unique field that every record has (a database view without one), so it can only be read with findMany, findFirst, count, aggregate, groupBy`;
        for (const [method, op, input] of [
            ['GET', 'findUnique', encodeQuery({ where: { title: 'Same' } })],
            ['POST', 'create', { body: { data: { title: 'x', n: 1 } } }],
            ['POST', 'createMany', { body: { data: [{ title: 'x', n: 1 }] } }],
            ['PUT', 'update', { body: { where: { title: 'Same' }, data: { n: 1 } } }],
            ['PUT', 'updateMany', { body: { data: { n: 1 } } }],
            ['POST', 'upsert', { body: { where: { title: 'x' }, create: { title: 'x', n: 1 }, update: {} } }],
            ['DELETE', 'deleteMany', {}],
        ] as const) {
            const res = await rpc(method, `/titleCount/${op}`, input);
            expect([op, res.status, res.body.error?.message]).toEqual([op, 400, expected(op)]);
        }
        const batch = await rpc('POST', '/$transaction/sequential', {
            body: [
                { model: 'author', op: 'create', args: { data: { name: 'Cy' } } },
                { model: 'titleCount', op: 'create', args: { data: { title: 'x', n: 1 } } },
            ],
        });
        expect([batch.status, batch.body.error?.message]).toEqual([400, `operation #1: ${expected('create')}`]);
        // a nested write into it: the data layer's refusal, saying the view is read-only
        const nested = await rpc('PUT', '/author/update', { body: { where: { id: 1 }, data: { stats: { create: { books: 1 } } } } });
        expect([nested.status, nested.body.error?.message]).toEqual([400, expect.stringMatching(/^the data layer does not support createOne on model AuthorStat \(a database view is read-only/)]);
        expect(await tables()).toEqual(before);
    });
});

describe('a first unique field that is optional', () => {
    it('JSON:API: a view whose only unique field is optional is no resource type; RPC reads it with the many-record operations', async () => {
        // its records were listed with "id": "null"
        const res = await call('GET', '/nameCount');
        expect([res.status, res.body.errors?.[0]?.code]).toEqual([404, 'unsupported-model']);
        expect((await rpc('GET', '/nameCount/findMany', encodeQuery({ orderBy: { name: 'asc' } }))).body.data).toEqual([
            { name: 'Ann', n: 1 },
            { name: 'Bob', n: 1 },
        ]);
        const one = await rpc('GET', '/nameCount/findUnique', encodeQuery({ where: { name: 'Ann' } }));
        expect([one.status, one.body.error?.message]).toEqual([400, expect.stringMatching(/^operation findUnique is not available on nameCount: it has no @id or @unique field that every record has/)]);
    });

    it('JSON:API: a model whose first unique field is optional is identified by its first required one', async () => {
        await s.prisma.member.create({ data: { handle: 'h1' } });
        await s.prisma.member.create({ data: { handle: 'h2', nickname: 'null' } });
        // ZenStack's id is the nickname: the first member was "null", and its self link led to the second
        const list = await call('GET', '/member', undefined, { sort: 'handle' });
        expect(list.body.data.map((m: Body) => [m.id, m.attributes, m.links.self])).toEqual([
            ['h1', { nickname: null }, `${ENDPOINT}/member/h1`],
            ['h2', { nickname: 'null' }, `${ENDPOINT}/member/h2`],
        ]);
        for (const m of list.body.data) {
            const again = await call('GET', new URL(m.links.self).pathname.slice('/api'.length));
            expect([again.status, again.body.data]).toEqual([200, m]);
        }
        expect((await call('GET', '/member', undefined, { 'filter[nickname]': 'null' })).body.data.map((m: Body) => m.id)).toEqual(['h2']);
        expect((await rpc('GET', '/member/findUnique', encodeQuery({ where: { handle: 'h1' } }))).body.data).toEqual({ nickname: null, handle: 'h1' });
    });
});
