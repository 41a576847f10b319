/**
 * Type-level check (run by `tsc --noEmit`, not by jest): every option that `@zenstackhq/server`
 * 2.22.3 accepts is accepted by ours under the same name with a compatible type, so code written
 * for it compiles after changing only the import path. A missing or narrower option fails the
 * type check with the name of the option.
 */
import type * as UpRest from '@zenstackhq/server/api/rest';
import type * as UpElysia from '@zenstackhq/server/elysia';
import type * as UpExpress from '@zenstackhq/server/express';
import type * as UpFastify from '@zenstackhq/server/fastify';
import type * as UpHono from '@zenstackhq/server/hono';
import type { ApiHandlerOptions as UpNestOptions, ZenStackModuleAsyncOptions as UpNestModuleOptions } from '@zenstackhq/server/nestjs/interfaces';
import type * as UpNext from '@zenstackhq/server/next';
import type * as UpNuxt from '@zenstackhq/server/nuxt';
import type * as UpSvelte from '@zenstackhq/server/sveltekit';
import type * as UpTanstack from '@zenstackhq/server/tanstack-start';
import type * as UpTypes from '@zenstackhq/server/types';
import type * as Rest from '../../src/api/rest';
import type * as Elysia from '../../src/adapters/elysia';
import type * as Express from '../../src/adapters/express';
import type * as Fastify from '../../src/adapters/fastify';
import type * as Hono from '../../src/adapters/hono';
import type * as Nest from '../../src/adapters/nestjs';
import type * as Next from '../../src/adapters/next';
import type * as Nuxt from '../../src/adapters/nuxt';
import type * as Svelte from '../../src/adapters/sveltekit';
import type * as Tanstack from '../../src/adapters/tanstack-start';
import type * as Types from '../../src/types';

/**
 * `true` when every key of `Theirs` exists in `Ours` and its value type is accepted there; otherwise
 * the names of the keys that are missing or narrower. `handler` is compared separately (below).
 */
type Compatible<Ours, Theirs> = {
    [K in Exclude<keyof Theirs, 'handler'>]-?: K extends keyof Ours ? ([Theirs[K]] extends [Ours[K]] ? never : K) : K;
}[Exclude<keyof Theirs, 'handler'>] extends infer Bad
    ? [Bad] extends [never]
        ? true
        : Bad
    : never;

type Expect<T extends true> = T;

export type OptionChecks = [
    Expect<Compatible<Rest.RestApiHandlerOptions, Parameters<typeof UpRest.RestApiHandler>[0]>>,
    // the type name 2.x exports for them, so `import type { Options }` keeps compiling
    Expect<Compatible<Rest.Options, UpRest.Options>>,
    Expect<Compatible<Types.AdapterBaseOptions, UpTypes.AdapterBaseOptions>>,
    Expect<Compatible<Types.LoggerConfig, UpTypes.LoggerConfig>>,
    Expect<Compatible<Express.MiddlewareOptions, UpExpress.MiddlewareOptions>>,
    Expect<Compatible<Fastify.PluginOptions, UpFastify.PluginOptions>>,
    Expect<Compatible<Next.PagesRouteRequestHandlerOptions, UpNext.PagesRouteRequestHandlerOptions>>,
    Expect<Compatible<Next.AppRouteRequestHandlerOptions, UpNext.AppRouteRequestHandlerOptions>>,
    Expect<Compatible<Svelte.HandlerOptions, UpSvelte.HandlerOptions>>,
    Expect<Compatible<Nuxt.HandlerOptions, UpNuxt.HandlerOptions>>,
    Expect<Compatible<Hono.HonoOptions, UpHono.HonoOptions>>,
    Expect<Compatible<Elysia.ElysiaOptions, UpElysia.ElysiaOptions>>,
    Expect<Compatible<Tanstack.TanStackStartOptions, UpTanstack.TanStackStartOptions>>,
    Expect<Compatible<Nest.ApiHandlerOptions, UpNestOptions>>,
    Expect<Compatible<Nest.ZenStackModuleAsyncOptions, UpNestModuleOptions>>,
];

/** Handlers made by our factories fit every adapter option `handler` (ours and upstream's request context alike). */
export type HandlerChecks = [
    Expect<ReturnType<typeof Rest.RestApiHandler> extends NonNullable<Types.AdapterBaseOptions['handler']> ? true : false>,
    Expect<Parameters<ReturnType<typeof UpRest.RestApiHandler>>[0] extends Parameters<ReturnType<typeof Rest.RestApiHandler>>[0] ? true : false>,
];
