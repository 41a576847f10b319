import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { HandleRequestFn } from '../../src/types';
import { delegateSchema } from '../support/delegate-schema';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Bad input on polymorphic (`@@delegate`) models with typed JSON fields, with and without zod schemas:
 * every answer is a success or a 4xx (never a 5xx), and none reveals a concrete field that only the
 * record's owner may read.
 */

const SCHEMA = delegateSchema(`
type Meta {
  at DateTime?
  n  Int
}

model Video extends Asset {
  duration Int
  meta     Meta?  @json
  secret   String @default('') @allow('read', auth() == owner)
}

model Image extends Asset {
  format String
  meta   Meta?  @json
}
`);

const SECRET = 'OWNER-ONLY-VALUE';
const VALUES = ['', 'x', '-1', 'null', '{}', '{"n":1}', '1e999', '%00', '9999999999999999999'];
const REST_KEYS = ['filter[meta]', 'filter[meta][n]', 'filter[assetType]', 'filter[duration]', 'filter[secret]', 'filter[owner][name]', 'sort', 'fields[asset]', 'fields[video]', 'include', 'page[limit]'];
const REST_PATHS = ['/asset', '/video', '/image', '/asset/1', '/user/1/assets', '/note'];
const RPC_ARGS: unknown[] = [
    { where: { meta: { equals: { n: 1 } } } },
    { where: { meta: { path: ['n'], equals: 1 } } },
    { where: { meta: null } },
    { select: { meta: true } },
    { orderBy: { meta: 'asc' } },
    { where: { secret: { startsWith: 'O' } } },
    { orderBy: { secret: 'asc' } },
    { distinct: ['secret'] },
    { include: { _count: true } },
];

let s: TestSchema;
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
const rpc = RPCApiHandler();

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.create({ data: { id: 1 } });
    await s.prisma.user.create({ data: { id: 2 } });
    const owner = s.enhance({ id: 1 }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    await owner.video.create({ data: { id: 1, published: true, owner: { connect: { id: 1 } }, duration: 5, meta: { n: 1, at: new Date() }, secret: SECRET } });
    await owner.image.create({ data: { id: 2, published: true, owner: { connect: { id: 1 } }, format: 'png', meta: { n: 2 } } });
});

afterAll(() => s?.cleanup());

/** The user-2 request's status; fails the test on a 5xx or on the owner-only value in the answer. */
async function send(handler: HandleRequestFn, method: string, path: string, query: Record<string, string>, body: unknown, zod: boolean): Promise<number> {
    const res = await handler({ method, path, query, requestBody: body, prisma: s.enhance({ id: 2 }), modelMeta: s.modelMeta, zodSchemas: zod ? s.zodSchemas : undefined, logger: null });
    const text = JSON.stringify(res.body ?? null);
    if (res.status >= 500 || text.includes(SECRET)) {
        throw new Error(`${method} ${path} ${JSON.stringify(query)} ${JSON.stringify(body ?? null)} (zod: ${zod}) → ${res.status} ${text.slice(0, 300)}`);
    }
    return res.status;
}

describe.each([true, false])('delegate models under bad input (zod schemas: %s)', (zod) => {
    it('REST reads and writes answer 2xx or 4xx and reveal no owner-only field', async () => {
        const seen = new Set<number>();
        for (const value of VALUES) {
            for (const key of REST_KEYS) {
                for (const path of REST_PATHS) seen.add(await send(rest, 'GET', path, { [key]: value }, undefined, zod));
            }
            for (const type of ['video', 'image', 'asset']) {
                const attributes = { duration: value, meta: value, format: value, assetType: value };
                const owner = { data: { type: 'user', id: '2' } };
                seen.add(await send(rest, 'POST', `/${type}`, {}, { data: { type, attributes, relationships: { owner } } }, zod));
                seen.add(await send(rest, 'PATCH', `/${type}/1`, {}, { data: { type, id: '1', attributes: { meta: { n: value, at: value } } } }, zod));
            }
        }
        // the plausible requests among them succeed, the rest are refused
        expect(seen.has(200)).toBe(true);
        expect([...seen].some((status) => status >= 400)).toBe(true);
    });

    it('RPC calls answer 2xx or 4xx and reveal no owner-only field', async () => {
        const seen = new Set<number>();
        for (const args of RPC_ARGS) {
            for (const model of ['asset', 'video', 'image']) {
                for (const op of ['findMany', 'findFirst', 'count']) seen.add(await send(rpc, 'GET', `/${model}/${op}`, { q: JSON.stringify(args) }, undefined, zod));
            }
        }
        for (const model of ['asset', 'video', 'image']) {
            seen.add(await send(rpc, 'GET', `/${model}/groupBy`, { q: JSON.stringify({ by: ['meta'] }) }, undefined, zod));
            seen.add(await send(rpc, 'PUT', `/${model}/update`, {}, { where: { id: 1 }, data: { meta: { n: 'x' } } }, zod));
            seen.add(await send(rpc, 'POST', `/${model}/create`, {}, { data: { id: 9, ownerId: 2, duration: 1, format: 'x', meta: { n: 1.5 } } }, zod));
        }
        expect(seen.has(200)).toBe(true);
        expect([...seen].some((status) => status >= 400)).toBe(true);
    });
});
