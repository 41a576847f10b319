import { appView, onBoth } from './support/compare';
import { clientServers, PLAIN_PATH, type ClientServer } from './support/servers';
import { tanstackClient, type TanstackClient } from './support/tanstack';
import { ALICE, AT, outcome, seedBlog } from './support/seed';
import { BLOG_SCHEMA } from '../support/schema';

/**
 * What the TanStack Query hooks' runtime does beyond one request, against our server and 2.22.3's: infinite
 * queries (each page's args in `q`), optimistic updates (the runtime merges the mutation into cached answers
 * using the model metadata) and invalidation after a mutation, and the `check` hook (permission checker).
 */

const servers = clientServers(seedBlog);

const hooks = (server: ClientServer, user?: number) => tanstackClient(`${server.origin}${PLAIN_PATH}`, server.s.modelMeta, user);

const plain = (value: unknown) => appView({ data: value });

describe('TanStack Query hooks (v5 runtime): cache behaviour against both servers', () => {
    it('an infinite query pages through posts with a cursor, page by page as with 2.22.3', async () => {
        const { ours, upstream } = await onBoth(servers, async (server) => {
            const q = await hooks(server, ALICE).infinite('Post', 'findMany', { take: 2, orderBy: { id: 'asc' }, select: { id: true, createdAt: true } }, (last) => {
                const page = last as { id: number }[];
                return page.length < 2 ? undefined : { take: 2, skip: 1, cursor: { id: page[page.length - 1].id }, orderBy: { id: 'asc' }, select: { id: true, createdAt: true } };
            });
            await q.next();
            return q.pages();
        });
        expect(appView(ours)).toEqual(appView(upstream));
        expect(appView(ours)).toEqual({ data: [[{ id: 1, createdAt: AT }, { id: 2, createdAt: AT }], []] });
    });

    it('an optimistic create shows in the cached list at once, then the list is invalidated and refetched alike', async () => {
        const run = async (server: ClientServer) => {
            const client: TanstackClient = hooks(server, ALICE);
            const args = { where: { authorId: ALICE }, orderBy: { id: 'asc' }, select: { id: true, title: true, createdAt: true } };
            await client.query('Post', 'findMany', args);
            const key = client.queryKey('Post', 'findMany', args);
            let optimistic: unknown;
            const created = await client.mutate('Post', 'create', { data: { title: 'Optimistic', createdAt: AT, authorId: ALICE }, select: { id: true } }, {
                optimisticUpdate: true,
                onMutate: () => {
                    optimistic = client.queryClient.getQueryData(key);
                },
            });
            const invalidated = client.cached(key)?.state.isInvalidated;
            const refetched = await client.query('Post', 'findMany', args);
            return { optimistic, created, invalidated, refetched };
        };
        const { ours, upstream } = await onBoth(servers, run);
        expect(appView(ours)).toEqual(appView(upstream));
        const view = (ours as { data: { optimistic: { title: string; $optimistic?: boolean }[]; invalidated: boolean; refetched: unknown[] } }).data;
        // the runtime puts the new record first
        expect(view.optimistic.map((p) => [p.title, p.$optimistic ?? false])).toEqual([
            ['Optimistic', true],
            ['Published', false],
            ['Draft', false],
        ]);
        expect(view.invalidated).toBe(true);
        expect(view.refetched).toHaveLength(3);
    });

    it('an optimistic update changes the cached record at once; a rejected mutation leaves it to be refetched', async () => {
        const run = async (server: ClientServer) => {
            const client = hooks(server, ALICE);
            const args = { where: { id: 1 }, select: { id: true, title: true, viewCount: true } };
            await client.query('Post', 'findUnique', args);
            const key = client.queryKey('Post', 'findUnique', args);
            let optimistic: unknown;
            const onMutate = () => {
                optimistic = client.queryClient.getQueryData(key);
            };
            await client.mutate('Post', 'update', { where: { id: 1 }, data: { title: 'Retitled' } }, { optimisticUpdate: true, onMutate });
            const first = optimistic;
            // too long for @length(1, 200): refused, the cache holds the optimistic value until refetched
            const failed = await outcome(() => client.mutate('Post', 'update', { where: { id: 1 }, data: { title: 'x'.repeat(201) } }, { optimisticUpdate: true, onMutate }));
            const refetched = await client.query('Post', 'findUnique', args);
            return { first, failed: appView(failed), second: optimistic, refetched };
        };
        const { ours, upstream } = await onBoth(servers, run);
        expect(appView(ours)).toEqual(appView(upstream));
        expect(plain((ours as { data: unknown }).data)).toMatchObject({
            data: { first: { id: 1, title: 'Retitled', $optimistic: true }, failed: { status: 422 }, refetched: { id: 1, title: 'Retitled', viewCount: 5 } },
        });
    });
});

describe('the check hook (ZenStack permission checker), schema generated with permission checkers', () => {
    // the same text as tests/rpc/operations.test.ts, so that the generated schema is shared
    const text = `${BLOG_SCHEMA}\nplugin enhancer /* kept by the test helper */ {\n  provider = '@core/enhancer'\n  generatePermissionChecker = true\n}\n`;
    const checkServers = clientServers(seedBlog, text);

    it.each([
        ['a signed-in user may create posts', { operation: 'create' }, ALICE],
        ['an anonymous user may not', { operation: 'create' }, undefined],
        ['anyone may read published posts', { operation: 'read', where: { published: true } }, undefined],
        ['an anonymous user may not update', { operation: 'update' }, undefined],
    ] as const)('%s', async (...[, args, user]) => {
        const { ours, upstream } = await onBoth(checkServers, (server) => hooks(server, user).query('Post', 'check', args));
        expect(appView(ours)).toEqual(appView(upstream));
        expect(Object.keys(ours)).toEqual(['data']);
    });
});
