import { QueryClient, QueryClientProvider, type Query } from '@tanstack/react-query';
import { getHooksContext, Provider, useInfiniteModelQuery, useModelMutation, useModelQuery } from '@zenstackhq/tanstack-query/runtime-v5/react';
import type { ModelMeta } from '@zenstackhq/runtime';
import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MUTATIONS } from './mutations';
import { userFetch } from './servers';

/**
 * The runtime of ZenStack's generated TanStack Query (v5, React) hooks, called as the generated hooks call it:
 * `useFindManyPost(args)` is `useModelQuery('Post', `${endpoint}/post/findMany`, args, options, fetch)` with
 * `endpoint` and `fetch` from `getHooksContext()`, and `useCreatePost()` is `useModelMutation('Post', 'POST',
 * `${endpoint}/post/create`, metadata, options, fetch, true)` (the HTTP verb and read-back flag per operation
 * below, as `@zenstackhq/tanstack-query` 2.22.3's generator writes them).
 *
 * The hooks run in a component rendered on the server side (`renderToString`: the provider, the context and
 * the query client are React's and TanStack's own); the query or mutation they set up is then run through
 * TanStack's own objects: the query the hook put in the client's cache is fetched with its own `queryFn`,
 * and the mutation is the hook's `mutateAsync`, with the invalidation and optimistic-update callbacks the
 * runtime attached to it.
 */

const lowerCaseFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The error the runtime throws for an error answer. */
export interface HookError extends Error {
    status?: number;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    info?: any;
}

export type MutationHookOptions = { optimisticUpdate?: boolean; invalidateQueries?: boolean; onMutate?: (variables: unknown) => unknown };

export interface TanstackClient {
    queryClient: QueryClient;
    /** `use<Op><Model>(args)` and its fetch; resolves to what the hook's `data` becomes. */
    query: (model: string, operation: string, args?: unknown, options?: { optimisticUpdate?: boolean }) => Promise<unknown>;
    /** The query key the hook used (for looking at the cache). */
    queryKey: (model: string, operation: string, args?: unknown) => readonly unknown[];
    /** `use<Op><Model>(options).mutateAsync(args)`; `options` are the hook's (`optimisticUpdate`, `onMutate` …). */
    mutate: (model: string, operation: string, args: unknown, options?: MutationHookOptions) => Promise<unknown>;
    /** `useInfinite<Op><Model>(args, options)`: its first page, then one more per call of the returned `next`. */
    infinite: (model: string, operation: string, args: unknown, getNextPageParam: (last: unknown) => unknown) => Promise<{ pages: () => unknown[]; next: () => Promise<void> }>;
    /** The cached query of this key. */
    cached: (key: readonly unknown[]) => Query | undefined;
}

/**
 * A client app: one query client, the hooks' provider configured with `endpoint` (absolute: there is no page
 * origin in Node) and the app's `fetch` sending the session of `user`.
 */
export function tanstackClient(endpoint: string, modelMeta: ModelMeta, user?: number): TanstackClient {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } } });
    const fetch = userFetch(user);

    function render(probe: () => void): void {
        const Probe = (): ReactNode => {
            probe();
            return null;
        };
        renderToString(
            createElement(QueryClientProvider, { client: queryClient }, createElement(Provider, { value: { endpoint, fetch } }, createElement(Probe))),
        );
    }

    const queryKey = (model: string, operation: string, args?: unknown) => {
        let key: readonly unknown[] = [];
        render(() => {
            const ctx = getHooksContext();
            key = useModelQuery(model, `${ctx.endpoint}/${lowerCaseFirst(model)}/${operation}`, args, undefined, ctx.fetch).queryKey;
        });
        return key;
    };

    return {
        queryClient,
        queryKey,
        cached: (key) => queryClient.getQueryCache().find({ queryKey: key, exact: true }),
        query: async (model, operation, args, options) => {
            let key: readonly unknown[] = [];
            render(() => {
                const ctx = getHooksContext();
                key = useModelQuery(model, `${ctx.endpoint}/${lowerCaseFirst(model)}/${operation}`, args, options, ctx.fetch).queryKey;
            });
            const query = queryClient.getQueryCache().find({ queryKey: key, exact: true });
            if (!query) throw new Error('the hook put no query in the cache');
            // the query's own queryFn (the runtime's fetcher on the runtime's URL), as a mounted component fetches it
            return query.fetch();
        },
        infinite: async (model, operation, args, getNextPageParam) => {
            let key: readonly unknown[] = [];
            render(() => {
                const ctx = getHooksContext();
                const url = `${ctx.endpoint}/${lowerCaseFirst(model)}/${operation}`;
                key = useInfiniteModelQuery(model, url, args, { getNextPageParam } as never, ctx.fetch).queryKey;
            });
            const query = queryClient.getQueryCache().find({ queryKey: key, exact: true });
            if (!query) throw new Error('the hook put no query in the cache');
            await query.fetch();
            return {
                pages: () => (query.state.data as { pages: unknown[] }).pages,
                // what InfiniteQueryObserver.fetchNextPage asks of the query
                next: async () => {
                    await query.fetch(undefined, { meta: { fetchMore: { direction: 'forward' } } } as never);
                },
            };
        },
        mutate: async (model, operation, args, options) => {
            const { method, checkReadBack } = MUTATIONS[operation];
            let mutateAsync: ((variables: unknown) => Promise<unknown>) | undefined;
            render(() => {
                const ctx = getHooksContext();
                const url = `${ctx.endpoint}/${lowerCaseFirst(model)}/${operation}`;
                mutateAsync = useModelMutation(model, method, url, modelMeta, options, ctx.fetch, checkReadBack).mutateAsync as never;
            });
            return (mutateAsync as (variables: unknown) => Promise<unknown>)(args);
        },
    };
}
