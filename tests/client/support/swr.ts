import { Provider, useModelMutation, useModelQuery } from '@zenstackhq/swr/runtime';
import type { ModelMeta } from '@zenstackhq/runtime';
import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { SWRConfig, type Middleware } from 'swr';
import { MUTATIONS } from './mutations';
import { userFetch } from './servers';

/**
 * The runtime of ZenStack's generated SWR hooks (`@zenstackhq/swr` 2.22.1, the last 2.x release of it), called
 * as the generated hooks call it: `useFindManyPost(args)` is `useModelQuery('Post', 'findMany', args, options)`
 * and `useCreatePost()` is `useModelMutation('Post', 'POST', 'create', metadata, options, true)`, whose
 * `trigger(args)` the app calls (verbs and read-back flags as its generator writes them). The hooks run in a
 * component rendered on the server side with the hooks' provider (endpoint, the app's `fetch`); a query is
 * then fetched with the fetcher the hook gave SWR (taken through an SWR middleware, SWR's own extension point),
 * a mutation is the hook's `trigger`.
 */

export interface SwrClient {
    query: (model: string, operation: string, args?: unknown) => Promise<unknown>;
    mutate: (model: string, operation: string, args: unknown) => Promise<unknown>;
}

export function swrClient(endpoint: string, modelMeta: ModelMeta, user?: number): SwrClient {
    const fetch = userFetch(user);
    const cache = new Map();

    function render(probe: () => void): void {
        const Probe = (): ReactNode => {
            probe();
            return null;
        };
        renderToString(
            createElement(SWRConfig, { value: { provider: () => cache } }, createElement(Provider, { value: { endpoint, fetch } }, createElement(Probe))),
        );
    }

    return {
        query: async (model, operation, args) => {
            let fetcher: (() => Promise<unknown>) | undefined;
            const capture: Middleware = (useSWRNext) => (key, f, config) => {
                fetcher = f as never;
                return useSWRNext(key, f, config);
            };
            render(() => {
                useModelQuery(model, operation, args, { use: [capture] });
            });
            if (!fetcher) throw new Error('the hook gave SWR no fetcher');
            return fetcher();
        },
        mutate: async (model, operation, args) => {
            const { method, checkReadBack } = MUTATIONS[operation];
            let trigger: ((args: unknown, options?: unknown) => Promise<unknown>) | undefined;
            render(() => {
                trigger = useModelMutation(model, method, operation, modelMeta, undefined, checkReadBack).trigger as never;
            });
            return (trigger as (args: unknown, options?: unknown) => Promise<unknown>)(args, undefined);
        },
    };
}
