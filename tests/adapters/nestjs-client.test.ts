import { createEnhancedPrismaProxy } from '../../src/adapters/nestjs/enhanced-prisma';
import { createFixture, type AdapterFixture } from './support/fixture';

/**
 * The client ZenStackModule exports, handed to the handlers as `ApiHandlerService` does: with a
 * `getEnhancedPrisma(model)` that chooses the client by model (a pattern 2.x documents and tests), every
 * query must run on the client chosen for its model, REST collection reads included.
 */
describe('nestjs: a client chosen per model by getEnhancedPrisma(model)', () => {
    let f: AdapterFixture;
    beforeAll(async () => {
        f = await createFixture();
        const alice = await f.schema.prisma.user.create({ data: { email: 'alice@x.io' } });
        for (let i = 0; i < 25; i++) {
            await f.schema.prisma.post.create({ data: { title: `post ${i}`, published: i === 0, authorId: alice.id } });
        }
    });
    afterAll(() => f.schema.cleanup());

    // posts on the raw client (the app's choice, e.g. a back-office route), everything else as the anonymous user
    const asked: unknown[] = [];
    const perModel = () =>
        createEnhancedPrismaProxy((model) => {
            asked.push(model);
            return model === 'post' ? f.schema.prisma : f.getPrisma(undefined);
        });
    const restGet = (path: string, query: Record<string, string> = {}) =>
        f.rest({ method: 'GET', path, query, requestBody: undefined, prisma: perModel() as never, modelMeta: f.schema.modelMeta });

    it('a REST page and its total come from the client chosen for the model', async () => {
        asked.length = 0;
        const full = await restGet('/post', { 'page[limit]': '10' });
        expect(full.status).toBe(200);
        const body = full.body as { data: unknown[]; meta: { total: number } };
        expect({ rows: body.data.length, total: body.meta.total }).toEqual({ rows: 10, total: 25 });
        expect(asked).not.toContain('$transaction');

        const last = await restGet('/post', { 'page[offset]': '20', 'page[limit]': '10' });
        expect((last.body as { meta: { total: number } }).meta.total).toBe(25);
    });

    it('a client that ignores the model reads the page and total as one consistent read', async () => {
        const seen: unknown[] = [];
        // declares no parameter (so it does not choose by model); `arguments` still shows what was accessed
        const prisma = createEnhancedPrismaProxy(function () {
            // eslint-disable-next-line prefer-rest-params
            seen.push(arguments[0]);
            return f.getPrisma(undefined);
        });
        const res = await f.rest({ method: 'GET', path: '/post', query: { 'page[limit]': '10' }, requestBody: undefined, prisma: prisma as never, modelMeta: f.schema.modelMeta });
        // the anonymous user reads the one published post
        expect((res.body as { meta: { total: number } }).meta.total).toBe(1);
        // the consistent read (not the per-model path, which reads each model on its own client): on SQLite
        // behind withTransactionCleanup between two snapshot probes, looked up on the client's adapter factory
        expect(seen).toContain('_engineConfig');
    });
});
