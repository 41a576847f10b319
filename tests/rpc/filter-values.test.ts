import { RPCApiHandler } from '../../src/api/rpc';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';

/**
 * Prisma's query compiler builds a plan holding every value and condition of a call's filters, and keeps the plans of
 * the last 100 queries in its debug log: a 1 MiB `notIn` list of 116,000 values made the server hold 160 MB and keep
 * 143 MB after the answer (which was a 400 from the database's parameter limit, after all that). `maxFilterValues`
 * (default 10,000) bounds the items of the `in`, `notIn`, `hasSome`, `hasEvery`, `AND`, `OR` and `NOT` lists of one
 * call or one transaction, before anything else works on them.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; body: any };

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const MESSAGE = (n: number, max: number, what = 'one call') =>
    `too many values in the filters of ${what}: ${n} (at most ${max} items in all the in, notIn, hasSome, hasEvery, AND, OR and NOT lists; see the "maxFilterValues" option)`;

function suite(provider: Provider): void {
    let s: TestSchema;
    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(undefined, { provider });
        await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ id: 1, title: 'p1', published: true }] } } });
        await s.prisma.allTypes.create({ data: { id: 'a1', string: 's1' } });
    });
    afterAll(() => s?.cleanup());

    const call = (handler: ReturnType<typeof RPCApiHandler>, method: string, path: string, body?: unknown, q?: unknown): Promise<Answer> =>
        handler({
            method,
            path,
            query: q === undefined ? {} : { q: JSON.stringify(q) },
            requestBody: body,
            prisma: s.enhance({ id: 1 }),
            modelMeta: s.modelMeta,
            logger: null,
        }) as Promise<Answer>;
    const read = (handler: ReturnType<typeof RPCApiHandler>, model: string, args: unknown) => call(handler, 'POST', '/$transaction/sequential', [{ model, op: 'findMany', args }]);

    describe('by default', () => {
        const handler = RPCApiHandler();

        it('10,000 values are read; 10,001 are a 400 before the client sees them', async () => {
            if (!s) return; // PostgreSQL missing outside CI (reported by describePg)
            const at = await read(handler, 'allTypes', { where: { string: { in: range(10_000, (i) => `s${i}`) } }, select: { id: true } });
            expect(at).toEqual({ status: 200, body: { data: [[{ id: 'a1' }]] } });
            const over = await read(handler, 'allTypes', { where: { string: { notIn: range(10_001, (i) => `s${i}`) } } });
            expect(over).toEqual({ status: 400, body: { error: { message: `operation #0: ${MESSAGE(10_001, 10_000)}` } } });
        });

        it('the lists of a call count together, at any depth: filters, conditions, nested reads and nested writes', async () => {
            if (!s) return; // PostgreSQL missing outside CI (reported by describePg)
            const where = {
                OR: [{ id: { in: range(3000, (i) => i) } }, { title: { notIn: range(3000, (i) => `t${i}`) } }],
                NOT: range(2000, (i) => ({ id: -i })),
            };
            // 3,000 + 3,000 + 2,000 + the 2 conditions of OR, and 2,000 more in a nested read
            const nested = { ...where, comments: { some: { id: { in: range(1999, (i) => i) } } } };
            const res = await call(handler, 'GET', '/user/findMany', undefined, { include: { posts: { where: nested } } });
            expect(res).toEqual({ status: 400, body: { error: { message: MESSAGE(10_001, 10_000) } } });
            const write = await call(handler, 'PUT', '/user/update', { where: { id: 1 }, data: { posts: { deleteMany: where, updateMany: { where: { id: { in: range(1999, (i) => i) } }, data: { title: 'x' } } } } });
            expect(write).toEqual({ status: 400, body: { error: { message: MESSAGE(10_001, 10_000) } } });
            expect(await s.prisma.post.findMany({ select: { id: true, title: true } })).toEqual([{ id: 1, title: 'p1' }]);
        });

        it('the operations of a $transaction/sequential count together; nothing is written', async () => {
            if (!s) return; // PostgreSQL missing outside CI (reported by describePg)
            const update = (n: number) => ({ model: 'allTypes', op: 'updateMany', args: { where: { string: { in: range(n, (i) => `s${i}`) } }, data: { int: 7 } } });
            const res = await call(handler, 'POST', '/$transaction/sequential', [update(6000), update(4001)]);
            expect(res).toEqual({ status: 400, body: { error: { message: MESSAGE(10_001, 10_000, 'one transaction') } } });
            expect(await s.prisma.allTypes.findUnique({ where: { id: 'a1' }, select: { int: true } })).toEqual({ int: 0 });
        });

        it('lists restored by referentialEqualities count in every place', async () => {
            if (!s) return; // PostgreSQL missing outside CI (reported by describePg)
            const list = range(4000, (i) => `s${i}`);
            const body = {
                where: { OR: [{ string: { in: list } }, { string: { in: null } }, { string: { in: null } }] },
                data: { int: 8 },
                meta: { serialization: { referentialEqualities: { 'where.OR.0.string.in': ['where.OR.1.string.in', 'where.OR.2.string.in'] } } },
            };
            const res = await call(handler, 'PATCH', '/allTypes/updateMany', body);
            expect(res).toEqual({ status: 400, body: { error: { message: MESSAGE(12_003, 10_000) } } });
            expect(await s.prisma.allTypes.findUnique({ where: { id: 'a1' }, select: { int: true } })).toEqual({ int: 0 });
        });
    });

    describe('the maxFilterValues option', () => {
        it('bounds calls, GET ones too, at the number given', async () => {
            if (!s) return; // PostgreSQL missing outside CI (reported by describePg)
            const handler = RPCApiHandler({ maxFilterValues: 3 });
            const over = await call(handler, 'GET', '/post/findMany', undefined, { where: { id: { in: [1, 2, 3, 4] } } });
            expect(over).toEqual({ status: 400, body: { error: { message: MESSAGE(4, 3) } } });
            const at = await call(handler, 'GET', '/post/findMany', undefined, { where: { id: { in: [1, 2] }, NOT: [{ id: 9 }] }, select: { id: true } });
            expect(at).toEqual({ status: 200, body: { data: [{ id: 1 }] } });
        });

        it('Infinity turns it off (2.x had no bound)', async () => {
            if (!s) return; // PostgreSQL missing outside CI (reported by describePg)
            const res = await read(RPCApiHandler({ maxFilterValues: Infinity }), 'allTypes', { where: { string: { in: range(10_001, (i) => `s${i}`) } }, select: { id: true } });
            expect(res).toEqual({ status: 200, body: { data: [[{ id: 'a1' }]] } });
        });

        it('anything but a positive integer or Infinity is refused when the handler is created', () => {
            for (const bad of [0, -1, 1.5, NaN, '10']) {
                expect(() => RPCApiHandler({ maxFilterValues: bad as number })).toThrow(`RPCApiHandler: "maxFilterValues" must be a positive integer or Infinity, got ${String(bad)}`);
            }
        });
    });
}

describe('filter values [sqlite]', () => suite('sqlite'));
describePg('filter values', () => suite('postgresql'));
