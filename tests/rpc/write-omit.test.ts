import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * `omit` on a write that returns records leaves the omitted fields out of its result, as Prisma does for
 * reads and writes. ZenStack 2.22 reads a write's result back without it (so `title` came back), and its
 * `updateManyAndReturn` adds a `select` beside it, which Prisma refuses (400 "Please either use `omit` or
 * `select`, but not both at the same time").
 */

const handler = RPCApiHandler();
let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'alice@x', name: 'Alice' } });
    await s.prisma.post.create({ data: { id: 1, title: 'First', authorId: 1 } });
});

afterAll(async () => {
    await s.cleanup();
});

async function call(method: string, path: string, args: unknown) {
    const isQuery = method === 'DELETE';
    const res = await handler({
        method,
        path,
        query: isQuery ? { q: JSON.stringify(args) } : {},
        requestBody: isQuery ? undefined : args,
        prisma: s.enhance({ id: 1 }),
        modelMeta: s.modelMeta,
        logger: null,
    });
    return res as { status: number; body: { data?: unknown; error?: unknown } };
}

const records = (data: unknown) => (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];

const WRITES: [string, string, string, unknown][] = [
    ['create', 'POST', '/post/create', { data: { id: 2, title: 'Second', authorId: 1 }, omit: { title: true, viewCount: true } }],
    ['update', 'PATCH', '/post/update', { where: { id: 1 }, data: { published: true }, omit: { title: true, viewCount: true } }],
    ['upsert', 'POST', '/post/upsert', { where: { id: 1 }, create: { title: 'x', authorId: 1 }, update: { viewCount: 3 }, omit: { title: true, viewCount: true } }],
    ['createManyAndReturn', 'POST', '/post/createManyAndReturn', { data: [{ id: 3, title: 'Third', authorId: 1 }], omit: { title: true, viewCount: true } }],
    ['updateManyAndReturn', 'PATCH', '/post/updateManyAndReturn', { where: { id: { in: [1, 3] } }, data: { published: false }, omit: { title: true, viewCount: true } }],
    ['create with an include', 'POST', '/post/create', { data: { id: 4, title: 'Fourth', authorId: 1 }, include: { author: true }, omit: { title: true, viewCount: true } }],
    ['delete', 'DELETE', '/post/delete', { where: { id: 4 }, omit: { title: true, viewCount: true } }],
];

it.each(WRITES)('%s leaves the omitted fields out of its result', async (_name, method, path, args) => {
    const res = await call(method, path, args);
    expect(res.status).toBeLessThan(300);
    const rows = records(res.body.data);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
        expect(row).not.toHaveProperty('title');
        expect(row).not.toHaveProperty('viewCount');
        expect(row).toHaveProperty('published');
    }
});

it('the include of a write with an omit still comes back', async () => {
    const res = await call('POST', '/post/create', { data: { id: 5, title: 'Fifth', authorId: 1 }, include: { author: { select: { name: true } } }, omit: { title: true } });
    expect(res.body.data).toMatchObject({ id: 5, author: { name: 'Alice' } });
    expect(res.body.data).not.toHaveProperty('title');
});
