import { RPCApiHandler } from '../../src/api/rpc';
import { BLOG_SCHEMA, loadSchema, type TestSchema } from '../support/schema';

/**
 * `relationLoadStrategy` is an argument of `create`, `update` and `upsert` as of the reads, in Prisma (with its
 * `relationJoins` preview feature) and through ZenStack 2.x, which answers them with it: it is passed on, not
 * refused as unknown (400).
 */

const handler = RPCApiHandler();

describe.each([
    ['without the relationJoins preview feature', [] as string[]],
    ['with the relationJoins preview feature', ['relationJoins']],
])('%s', (_name, previewFeatures) => {
    let s: TestSchema;

    beforeAll(async () => {
        s = await loadSchema(BLOG_SCHEMA, { previewFeatures });
        await s.prisma.user.create({ data: { id: 1, email: 'alice@x', name: 'Alice' } });
        await s.prisma.post.create({ data: { id: 1, title: 'First', authorId: 1 } });
    });

    afterAll(async () => {
        await s.cleanup();
    });

    async function call(method: string, path: string, args: unknown) {
        const res = await handler({
            method,
            path,
            query: {},
            requestBody: args,
            prisma: s.enhance({ id: 1 }),
            modelMeta: s.modelMeta,
            logger: null,
        });
        return res as { status: number; body: { data?: Record<string, unknown> } };
    }

    const include = { author: { select: { name: true } } };

    it.each([
        ['create', 'POST', '/post/create', { data: { id: 2, title: 'Second', authorId: 1 }, include, relationLoadStrategy: 'query' }, 201],
        ['update', 'PATCH', '/post/update', { where: { id: 2 }, data: { title: 'Edited' }, include, relationLoadStrategy: 'query' }, 200],
        ['update with a relation set (run in a transaction of the handler)', 'PATCH', '/post/update', { where: { id: 2 }, data: { comments: { set: [] } }, include, relationLoadStrategy: 'query' }, 200],
        ['upsert', 'POST', '/post/upsert', { where: { id: 2 }, create: { title: 'x', authorId: 1 }, update: { viewCount: 2 }, include, relationLoadStrategy: 'query' }, 200],
    ])('%s takes it', async (_op, method, path, args, status) => {
        const res = await call(method, path, args);
        expect(res.status).toBe(status);
        expect(res.body.data).toMatchObject({ id: 2, author: { name: 'Alice' } });
    });
});
