import Decimal from 'decimal.js';
import { Hono } from 'hono';
import { createApp, createRouter, defineEventHandler, readBody, toWebHandler, type H3Event } from 'h3';
import { Elysia } from 'elysia';
import path from 'node:path';
import { createFetchHandler } from '../../src/adapters/fetch';
import { RestApiHandler, RPCApiHandler } from '../../src/api';
import { LIBRARY_SCHEMA } from '../rest/write/fixtures';
import { decodeData, encodeBody, encodeQuery } from '../rpc/support';
import { generateSchema } from '../support/generate';
import { BLOG_SCHEMA, loadSchema, type TestSchema } from '../support/schema';
import { loadOnEdge } from './support/edge-sandbox';

/**
 * The Fetch-based adapters and both handlers as an edge runtime runs them: bundled for the web platform and
 * evaluated without Node's globals (no Buffer, process, require …; see support/edge-sandbox). Every request is also
 * sent to the same app built from the sources on Node, over its own database holding the same rows: the answers
 * must be the same, byte for byte. Prisma and ZenStack's enhancer run on Node (outside the sandbox).
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyFn = (...args: any[]) => any;
interface Edge {
    createFetchHandler: typeof createFetchHandler;
    RPCApiHandler: typeof RPCApiHandler;
    RestApiHandler: typeof RestApiHandler;
    NextRequestHandler: AnyFn;
    SvelteKitRouteHandler: AnyFn;
    createHonoHandler: AnyFn;
    createEventHandler: AnyFn;
    createElysiaHandler: AnyFn;
    TanStackStartHandler: AnyFn;
    encodeBytes: (bytes: Uint8Array) => string;
    decodeBytes: (text: unknown) => Uint8Array;
    nodeGlobals: () => string[];
}

const ENTRY = `
export { createFetchHandler } from './src/adapters/fetch';
export { RPCApiHandler, RestApiHandler } from './src';
export { NextRequestHandler } from './src/adapters/next';
export { SvelteKitRouteHandler } from './src/adapters/sveltekit';
export { createHonoHandler } from './src/adapters/hono';
export { createEventHandler } from './src/adapters/nuxt';
export { createElysiaHandler } from './src/adapters/elysia';
export { TanStackStartHandler } from './src/adapters/tanstack-start';
export { encodeBytes, decodeBytes } from './src/api/common/codec';
// (\`require\` in a bundle is the bundler's stand-in, which throws for any module it did not bundle)
export const nodeGlobals = () => [typeof Buffer, typeof process, typeof module, typeof __dirname, typeof setImmediate, typeof globalThis.Buffer, typeof self.process];
`;

const ENDPOINT = 'http://localhost/api/rest';
const WHEN = new Date('2024-02-29T12:34:56.789Z');
const BIG = 9007199254740993n;

type Send = (method: string, url: string, body?: unknown) => Promise<{ status: number; type: string | null; text: string }>;

/** One deployment: RPC at /api/rpc, REST at /api/rest, through createFetchHandler, for a signed-in user. */
function fetchApp(api: Pick<Edge, 'createFetchHandler' | 'RPCApiHandler' | 'RestApiHandler'>, s: TestSchema): Send {
    const common = { modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null, getPrisma: () => s.enhance({ id: 1 }) };
    const rpc = api.createFetchHandler({ ...common, prefix: '/api/rpc', handler: api.RPCApiHandler() });
    const rest = api.createFetchHandler({ ...common, prefix: '/api/rest', handler: api.RestApiHandler({ endpoint: ENDPOINT }) });
    return async (method, url, body) => {
        const request = new Request(`http://localhost${url}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
        const res = await (url.startsWith('/api/rest') ? rest : rpc)(request);
        return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };
}

const q = (args: unknown) => {
    const { q: json, meta } = encodeQuery(args);
    return `q=${encodeURIComponent(JSON.stringify(json))}${meta ? `&meta=${encodeURIComponent(JSON.stringify(meta))}` : ''}`;
};

let edge: Edge;
/** [edge, node] pairs of databases with the same schema. */
let blog: TestSchema[];
let library: TestSchema[];

beforeAll(async () => {
    // the Prisma namespace of the generated client, which an edge app's bundler resolves `@prisma/client` to
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Prisma } = require(path.join(generateSchema(BLOG_SCHEMA, 'sqlite').dir, 'prisma-client'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const host = { 'next/server': require('next/server'), h3: require('h3'), '@prisma/client': { Prisma } };
    blog = await Promise.all([loadSchema(), loadSchema()]);
    library = await Promise.all([loadSchema(LIBRARY_SCHEMA), loadSchema(LIBRARY_SCHEMA)]);
    edge = await loadOnEdge<Edge>(ENTRY, host);
});

afterAll(async () => {
    await Promise.all([...(blog ?? []), ...(library ?? [])].map((s) => s.cleanup()));
});

/** Sends each request to the edge app and to the Node one; the answers must be identical. Returns the edge answers. */
async function both(edgeSend: Send, nodeSend: Send, requests: [string, string, unknown?][]) {
    const answers = [];
    for (const [method, url, body] of requests) {
        const [onEdge, onNode] = [await edgeSend(method, url, body), await nodeSend(method, url, body)];
        expect({ request: `${method} ${url}`, ...onEdge }).toEqual({ request: `${method} ${url}`, ...onNode });
        answers.push({ ...onEdge, body: onEdge.text ? JSON.parse(onEdge.text) : undefined });
    }
    return answers;
}

describe('on an edge runtime (no Buffer, process or require)', () => {
    it('the bundle sees none of Node\'s globals', () => {
        expect(edge.nodeGlobals()).toEqual(Array(7).fill('undefined'));
    });

    it('an unexpected error in getPrisma is a logged 500 in the protocol format', async () => {
        const logged: string[] = [];
        for (const [prefix, handler] of [['/api/rpc', edge.RPCApiHandler()], ['/api/rest', edge.RestApiHandler({ endpoint: ENDPOINT })]] as const) {
            const api = edge.createFetchHandler({ prefix, handler, logger: { error: (m: string) => logged.push(m) }, getPrisma: () => { throw new Error('session store down'); } });
            const res = await api(new Request(`http://localhost${prefix}/allTypes`));
            expect(res.status).toBe(500);
            expect(JSON.stringify(await res.json())).not.toMatch(/session store/);
        }
        expect(logged).toEqual([expect.stringMatching(/session store down/), expect.stringMatching(/session store down/)]);
    });

    it('Base64 of Bytes is what Node writes and reads, for every length and both alphabets', () => {
        for (let length = 0; length < 70; length++) {
            const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + length * 31) % 256);
            const standard = Buffer.from(bytes).toString('base64');
            expect(edge.encodeBytes(bytes)).toBe(standard);
            expect(Array.from(edge.decodeBytes(standard))).toEqual(Array.from(bytes));
            const url = Buffer.from(bytes).toString('base64url');
            expect(Array.from(edge.decodeBytes(url))).toEqual(Array.from(bytes));
        }
        expect(() => edge.decodeBytes('AAE$')).toThrow(/Base64/);
    });

    it('RPC: typed values (Bytes, BigInt, Decimal, DateTime, Json nulls) in superjson form, both ways', async () => {
        const [onEdge, onNode] = blog.map((s, i) => fetchApp(i === 0 ? edge : { createFetchHandler, RPCApiHandler, RestApiHandler }, s));
        const row = { id: 'r1', string: 'first', bigInt: BIG, decimal: new Decimal('1234.5678'), dateTime: WHEN, bytes: Buffer.from([0, 1, 2, 253, 254, 255]), json: { a: [1, 'x'] } };
        const answers = await both(onEdge, onNode, [
            ['POST', '/api/rpc/allTypes/create', encodeBody({ data: row })],
            ['POST', '/api/rpc/allTypes/create', { data: { id: 'r2', dateTime: WHEN.toISOString(), json: null }, meta: { serialization: { values: { 'data.dateTime': ['Date'], 'data.json': [['custom', 'DbNull']] } } } }],
            ['GET', `/api/rpc/allTypes/findMany?${q({ where: { bytes: { equals: Buffer.from([0, 1, 2, 253, 254, 255]) }, bigInt: { gte: BIG } } })}`],
            // URL-safe Base64 in, standard out
            ['PUT', '/api/rpc/allTypes/update', { where: { id: 'r2' }, data: { bytes: '-_-_' }, meta: { serialization: { values: { 'data.bytes': [['custom', 'Bytes']] } } } }],
            ['GET', `/api/rpc/allTypes/findMany?q=${encodeURIComponent(JSON.stringify({ where: { json: { equals: null } } }))}&meta=${encodeURIComponent(JSON.stringify({ serialization: { values: { 'where.json.equals': [['custom', 'DbNull']] } } }))}`],
            ['POST', '/api/rpc/allTypes/create', { data: { id: 'bad', bytes: 'AAE$' }, meta: { serialization: { values: { 'data.bytes': [['custom', 'Bytes']] } } } }],
        ]);
        expect(answers.map((a) => a.status)).toEqual([201, 201, 200, 200, 200, 400]);
        expect(decodeData(answers[2].body)).toEqual([expect.objectContaining({ ...row, bytes: Buffer.from(row.bytes), json: row.json })]);
        expect(answers[3].body.data.bytes).toBe('+/+/');
        expect(answers[4].body.data.map((r: { id: string }) => r.id)).toEqual(['r2']);

        // a body handed to the handler as bytes (UTF-8) rather than parsed
        const requestBody = new TextEncoder().encode(JSON.stringify({ data: { id: 'r3', string: 'bytes in ✓' } }));
        const res = await edge.RPCApiHandler()({ method: 'POST', path: '/allTypes/create', query: {}, requestBody, prisma: blog[0].enhance({ id: 1 }), modelMeta: blog[0].modelMeta, logger: null });
        expect({ status: res.status, body: res.body }).toMatchObject({ status: 201, body: { data: { id: 'r3', string: 'bytes in ✓' } } });
    });

    it('REST: typed attributes, filters, a Json null, and compound ids with the divider in a value', async () => {
        const [onEdge, onNode] = blog.map((s, i) => fetchApp(i === 0 ? edge : { createFetchHandler, RPCApiHandler, RestApiHandler }, s));
        const tags = { 'data.attributes.dateTime': ['Date'], 'data.attributes.bigInt': ['bigint'], 'data.attributes.decimal': [['custom', 'Decimal']], 'data.attributes.bytes': [['custom', 'Bytes']] };
        const attributes = { string: 'rest', bigInt: BIG.toString(), decimal: '0.25', dateTime: WHEN.toISOString(), bytes: 'AQL/' };
        const typed = await both(onEdge, onNode, [
            ['POST', '/api/rest/allTypes', { data: { type: 'allTypes', id: 'x1', attributes }, meta: { serialization: { values: tags } } }],
            ['POST', '/api/rest/allTypes', { data: { type: 'allTypes', id: 'x2', attributes: { dateTime: WHEN.toISOString(), json: null } }, meta: { serialization: { values: { 'data.attributes.json': [['custom', 'JsonNull']] } } } }],
            ['GET', '/api/rest/allTypes/x1'],
            ['PATCH', '/api/rest/allTypes/x1', { data: { type: 'allTypes', id: 'x1', attributes: { bytes: 'AAEC', bigInt: '-5' } } }],
            ['GET', `/api/rest/allTypes?filter[bytes]=${encodeURIComponent('AAEC')}&filter[bigInt]=-5`],
        ]);
        expect(typed.map((a) => a.status)).toEqual([201, 201, 200, 200, 200]);
        expect(typed[0].type).toBe('application/vnd.api+json');
        expect(typed[2].body.data.attributes).toMatchObject(attributes);
        expect(typed[4].body.data.map((r: { id: string }) => r.id)).toEqual(['x1']);

        const [libEdge, libNode] = library.map((s, i) => fetchApp(i === 0 ? edge : { createFetchHandler, RPCApiHandler, RestApiHandler }, s));
        const compound = await both(libEdge, libNode, [
            ['POST', '/api/rest/tag', { data: { type: 'tag', attributes: { key: 'sci_fi', lang: 'en', label: 'SF' } } }],
            ['GET', `/api/rest/tag/${encodeURIComponent('sci%5Ffi_en')}`],
            ['PATCH', `/api/rest/tag/${encodeURIComponent('sci%5Ffi_en')}`, { data: { type: 'tag', id: 'sci%5Ffi_en', attributes: { label: 'Science fiction' } } }],
            ['GET', `/api/rpc/tag/findUnique?${q({ where: { key_lang: { key: 'sci_fi', lang: 'en' } } })}`],
        ]);
        expect(compound.map((a) => a.status)).toEqual([201, 200, 200, 200]);
        expect(compound[0].body.data.id).toBe('sci%5Ffi_en');
        expect(compound[3].body.data).toMatchObject({ key: 'sci_fi', lang: 'en', label: 'Science fiction' });
    });

    it("Nuxt/h3 under toWebHandler: h3's readBody(event) gets the body before the adapter (in getPrisma) and after it", async () => {
        const seen: unknown[] = [];
        const echo = async (ctx: { requestBody: unknown }) => ({ status: 201, body: ctx.requestBody });
        const api = edge.createEventHandler({ modelMeta: {}, logger: null, handler: echo, getPrisma: async (event: H3Event) => {
                seen.push(['getPrisma', await readBody(event)]);
                return {};
            },
        });
        const app = createApp().use('/api', defineEventHandler(async (event) => {
            const answer = await api(event);
            seen.push(['after', await readBody(event)]);
            return answer;
        }));
        const res = await toWebHandler(app)(new Request('http://localhost/api/post/create', { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } }));
        expect({ status: res.status, body: await res.json() }).toEqual({ status: 201, body: { a: 1 } });
        expect(seen).toEqual([['getPrisma', { a: 1 }], ['after', { a: 1 }]]);
    });

    it('the framework adapters (Next app router, SvelteKit, Hono, Nuxt/h3, Elysia, TanStack Start) serve both protocols', async () => {
        const s = blog[0];
        await s.prisma.allTypes.upsert({ where: { id: 'fw' }, create: { id: 'fw', bytes: Buffer.from([7, 8, 9]) }, update: {} });
        const common = { modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null };
        const client = () => s.enhance({ id: 1 });
        const rpc = edge.RPCApiHandler();
        const rest = edge.RestApiHandler({ endpoint: ENDPOINT });
        const splat = (request: Request, prefix: string) => decodeURIComponent(new URL(request.url).pathname.slice(prefix.length + 1));
        const routed = (make: (handler: unknown) => (request: Request, prefix: string) => Promise<Response>) => {
            const [r, j] = [make(rpc), make(rest)];
            return (request: Request) => (new URL(request.url).pathname.startsWith('/api/rest/') ? j(request, '/api/rest') : r(request, '/api/rpc'));
        };

        const hono = new Hono();
        hono.use('/api/rpc/*', edge.createHonoHandler({ ...common, handler: rpc, getPrisma: client }));
        hono.use('/api/rest/*', edge.createHonoHandler({ ...common, handler: rest, getPrisma: client }));
        const h3 = createApp();
        h3.use('/api/rpc', edge.createEventHandler({ ...common, handler: rpc, getPrisma: client }));
        h3.use(createRouter().use('/api/rest/**', edge.createEventHandler({ ...common, handler: rest, getPrisma: client })));
        const elysia = new Elysia()
            .group('/api/rpc', (app) => app.use(edge.createElysiaHandler({ ...common, handler: rpc, getPrisma: client, basePath: '/api/rpc' })))
            .group('/api/rest', (app) => app.use(edge.createElysiaHandler({ ...common, handler: rest, getPrisma: client })));

        const apps: Record<string, (request: Request) => Promise<Response>> = {
            next: routed((handler) => {
                const route = edge.NextRequestHandler({ ...common, handler, useAppDir: true, getPrisma: client });
                return (request, prefix) => route(request, { params: Promise.resolve({ path: splat(request, prefix).split('/') }) });
            }),
            sveltekit: routed((handler) => {
                const route = edge.SvelteKitRouteHandler({ ...common, handler, getPrisma: client });
                return (request, prefix) => route({ request, url: new URL(request.url), params: { path: splat(request, prefix) }, locals: {} });
            }),
            hono: async (request) => hono.fetch(request),
            nuxt: toWebHandler(h3),
            elysia: (request) => elysia.handle(request),
            'tanstack-start': routed((handler) => {
                const route = edge.TanStackStartHandler({ ...common, handler, getPrisma: client });
                return (request, prefix) => route({ request, params: { _splat: splat(request, prefix) } });
            }),
        };
        for (const [name, app] of Object.entries(apps)) {
            const rpcRes = await app(new Request(`http://localhost/api/rpc/allTypes/findUnique?${q({ where: { id: 'fw' }, select: { bytes: true } })}`));
            expect({ name, status: rpcRes.status, body: await rpcRes.json() }).toEqual({
                name,
                status: 200,
                body: { data: { bytes: 'BwgJ' }, meta: { serialization: { values: { bytes: [['custom', 'Bytes']] } } } },
            });
            const restRes = await app(new Request('http://localhost/api/rest/allTypes/fw', { method: 'PATCH', body: JSON.stringify({ data: { type: 'allTypes', id: 'fw', attributes: { bytes: 'CgsM' } } }) }));
            expect({ name, status: restRes.status, bytes: (await restRes.json()).data?.attributes?.bytes }).toEqual({ name, status: 200, bytes: 'CgsM' });
            await s.prisma.allTypes.update({ where: { id: 'fw' }, data: { bytes: Buffer.from([7, 8, 9]) } });
        }
    });
});
