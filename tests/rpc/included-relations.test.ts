import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';
import { includeOf } from './support';

/**
 * Every relation a call reads through `include`/`select` is a query of its own, which ZenStack guards with the
 * target's read rule and Prisma compiles and runs: 558 of them (a 13 KB body) made the server hold 37 MB, and a 1 MiB
 * body naming 44,574 ran it out of heap. `maxIncludedRelations` (default 100) bounds them per call.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; body: any };

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ id: 1, title: 'p1', published: true, comments: { create: [{ content: 'c' }] } }] } } });
});
afterAll(() => s?.cleanup());

function call(handler: ReturnType<typeof RPCApiHandler>, model: string, args: unknown): Promise<Answer> {
    return handler({ method: 'GET', path: `/${model}/findMany`, query: { q: JSON.stringify(args) }, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null }) as Promise<Answer>;
}

const MESSAGE = (max: number) => `too many relations read by one call: more than ${max} through include and select (see the "maxIncludedRelations" option)`;

describe('by default', () => {
    const handler = RPCApiHandler();

    it('100 relations are read; 101 are a 400 before the client sees them', async () => {
        const at = await call(handler, 'user', { include: includeOf('user', 100), take: 1 });
        expect(at.status).toBe(200);
        expect(at.body.data[0].posts[0].author.posts[0].comments[0].post.title).toBe('p1');
        expect(await call(handler, 'user', { include: includeOf('user', 101) })).toEqual({ status: 400, body: { error: { message: MESSAGE(100) } } });
    });

    it('select, nested selects and the relations of _count count too', async () => {
        const select = { id: true, _count: { select: { posts: true } }, posts: { select: { id: true, author: { include: includeOf('user', 98) } } } };
        expect(await call(handler, 'user', { select })).toEqual({ status: 400, body: { error: { message: MESSAGE(100) } } });
        const fewer = { ...select, _count: { select: { posts: false } } };
        expect((await call(handler, 'user', { select: fewer })).status).toBe(200);
    });

    it('each operation of a $transaction/sequential has its own', async () => {
        const read = { model: 'user', op: 'findMany', args: { include: includeOf('user', 100) } };
        const res = (await handler({ method: 'POST', path: '/$transaction/sequential', query: {}, requestBody: [read, read], prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null })) as Answer;
        expect(res.status).toBe(200);
        expect(res.body.data).toHaveLength(2);
    });
});

describe('the maxIncludedRelations option', () => {
    it('bounds calls at the number given', async () => {
        const handler = RPCApiHandler({ maxIncludedRelations: 2 });
        expect(await call(handler, 'post', { include: { author: { include: { profile: true } }, comments: true } })).toEqual({ status: 400, body: { error: { message: MESSAGE(2) } } });
        expect((await call(handler, 'post', { include: { author: true, comments: { include: { post: false } } } })).status).toBe(200);
    });

    it('Infinity turns it off (2.x had no bound)', async () => {
        expect((await call(RPCApiHandler({ maxIncludedRelations: Infinity }), 'user', { include: includeOf('user', 101), take: 1 })).status).toBe(200);
    });

    it('anything but a positive integer or Infinity is refused when the handler is created', () => {
        for (const bad of [0, -1, 1.5, NaN, '10']) {
            expect(() => RPCApiHandler({ maxIncludedRelations: bad as number })).toThrow(`RPCApiHandler: "maxIncludedRelations" must be a positive integer or Infinity, got ${String(bad)}`);
        }
    });
});
