import { RPCApiHandler } from '../../src/api/rpc';
import { MAX_HIDDEN_ORDER_CHECKS } from '../../src/api/common/hidden-order';
import type { TestSchema } from '../support/schema';
import { countingClient, type CountingClient } from '../support/statement-count';
import { ADMIN, loadHiddenOrderSchema } from './hidden-order-fixture';

/**
 * An RPC order through to-one relations is checked with a read per relation on the way to a model not everyone
 * may read all of (`common/hidden-order.ts`). Through a cycle of to-one relations (a user's profile, its user, …)
 * one `orderBy` named as many as the argument nesting allows, ~100 reads before the query that @zenstackhq/server
 * sends alone, each read's filter as deep as its relation. At most MAX_HIDDEN_ORDER_CHECKS such relations are
 * checked in one call; an order through more is a 400, before anything is read. Statements are counted at the
 * driver adapter.
 */

let s: TestSchema;
let counting: CountingClient;
const handler = RPCApiHandler();

beforeAll(async () => {
    s = await loadHiddenOrderSchema();
    counting = countingClient(s);
});

afterAll(async () => {
    await counting?.client.$disconnect();
    await s?.cleanup();
});

async function findMany(args: unknown) {
    counting.reset();
    const res = await handler({
        method: 'GET',
        path: '/post/findMany',
        query: { q: JSON.stringify(args) },
        prisma: s.enhanceClient(counting.client, ADMIN),
        modelMeta: s.modelMeta,
        logger: null,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: res.body as any, statements: counting.count() };
}

/** `{ author: { profile: { user: { profile: … { gender: 'asc' } } } } }`: `hops` relations, each to a model with read rules. */
function cycle(hops: number): Record<string, unknown> {
    const names = ['author', ...Array.from({ length: hops - 1 }, (_, i) => (i % 2 === 0 ? 'profile' : 'user'))];
    let order: Record<string, unknown> = names[names.length - 1] === 'profile' ? { gender: 'asc' } : { name: 'asc' };
    for (let i = names.length - 1; i >= 0; i--) order = { [names[i]]: order };
    return order;
}

describe('orders through relations to models with read rules are checked within a bound', () => {
    it('checks an order through up to the bound, a read each', async () => {
        const res = await findMany({ orderBy: cycle(MAX_HIDDEN_ORDER_CHECKS), select: { id: true } });
        expect(res.status).toBe(200);
        expect(res.body.data).toHaveLength(5);
        expect(res.statements).toBe(MAX_HIDDEN_ORDER_CHECKS + 1);
    });

    it('refuses an order through more, before reading anything', async () => {
        const res = await findMany({ orderBy: cycle(MAX_HIDDEN_ORDER_CHECKS + 1), select: { id: true } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/at most 16 relations/);
        expect(res.statements).toBe(0);
    });

    it('counts every ordering of the call: a list of orders and those of nested reads', async () => {
        const half = Math.ceil((MAX_HIDDEN_ORDER_CHECKS + 1) / 2);
        const list = await findMany({ orderBy: [cycle(half), { blog: { name: 'asc' } }, cycle(half)], select: { id: true } });
        // the same relations twice are checked once
        expect(list.status).toBe(200);
        expect(list.statements).toBe(half + 2);
        const nested = await findMany({ orderBy: cycle(half), select: { id: true, topic: { select: { posts: { orderBy: cycle(half) } } } } });
        expect(nested.status).toBe(400);
        expect(nested.statements).toBe(0);
    });
});
