/**
 * A TypeScript application file using the package through its published module paths: the handlers, the types
 * and every adapter, as its documentation shows them. Written to the consumer application and type-checked there.
 * Only named imports and namespace imports: a default import of a CommonJS module means its `module.exports` to
 * Node's ESM loader but its `default` export to a bundler, so it is written differently in each.
 */

/** Whether to include the NestJS adapter (see `TYPE_CHECK_MODES`: its ESM-only packages and `node16`). */
export function consumerSource(options: { nestjs: boolean }): string {
    const lines = [
        `import { withTransactionCleanup, RPCApiHandler as RootRpc } from 'zenstack-api';`,
        `import { RPCApiHandler, RestApiHandler, type RPCApiHandlerOptions } from 'zenstack-api/api';`,
        `import * as rest from 'zenstack-api/api/rest';`,
        `import * as rpc from 'zenstack-api/api/rpc';`,
        `import type { HandleRequestFn, RequestContext, Response as ApiResponse } from 'zenstack-api/types';`,
        `import { createFetchHandler } from 'zenstack-api/fetch';`,
        `import { createNodeHandler } from 'zenstack-api/node';`,
        `import { ZenStackMiddleware } from 'zenstack-api/express';`,
        `import { ZenStackFastifyPlugin } from 'zenstack-api/fastify';`,
        `import { NextRequestHandler } from 'zenstack-api/next';`,
        `import * as appRoute from 'zenstack-api/next/app-route-handler';`,
        `import * as pagesRoute from 'zenstack-api/next/pages-route-handler';`,
        `import { SvelteKitHandler, SvelteKitRouteHandler } from 'zenstack-api/sveltekit';`,
        `import { createEventHandler } from 'zenstack-api/nuxt';`,
        `import { createHonoHandler } from 'zenstack-api/hono';`,
        `import { createElysiaHandler } from 'zenstack-api/elysia';`,
        `import { TanStackStartHandler } from 'zenstack-api/tanstack-start';`,
        ...(options.nestjs ? [`import { ApiHandlerService, ENHANCED_PRISMA, ZenStackModule } from 'zenstack-api/nestjs';`] : []),
        ``,
        `const rpcOptions: RPCApiHandlerOptions = { maxTransactionOperations: 10 };`,
        `const handler: HandleRequestFn = RPCApiHandler(rpcOptions);`,
        `const restHandler: HandleRequestFn = RestApiHandler({ endpoint: 'http://localhost/api' });`,
        `export const handlers: HandleRequestFn[] = [handler, restHandler, RootRpc(), rest.RestApiHandler({ endpoint: '/' }), rpc.RPCApiHandler()];`,
        `export async function serve(ctx: RequestContext): Promise<ApiResponse> {`,
        `    const answer = await handler(ctx);`,
        `    return { status: answer.status, body: answer.body, headers: answer.headers };`,
        `}`,
        `export const cleanup = withTransactionCleanup({ provider: 'sqlite', adapterName: 'x', connect: async () => ({}) });`,
        `const getPrisma = () => ({});`,
        `export const adapters: unknown[] = [`,
        `    createFetchHandler({ getPrisma, prefix: '/api' }),`,
        `    createNodeHandler({ getPrisma, handler }),`,
        `    ZenStackMiddleware({ getPrisma: (req) => ({ user: req.headers['x-user'] }), handler: restHandler }),`,
        `    ZenStackFastifyPlugin,`,
        `    NextRequestHandler({ getPrisma: (req) => ({ url: req.nextUrl }), useAppDir: true }),`,
        `    NextRequestHandler({ getPrisma: (req, res) => ({ url: req.url, sent: res.headersSent }) }),`,
        `    appRoute, pagesRoute,`,
        `    SvelteKitHandler({ prefix: '/api/model', getPrisma: (event) => ({ locals: event.locals }) }),`,
        `    SvelteKitRouteHandler({ getPrisma }),`,
        `    createEventHandler({ getPrisma: (event) => ({ path: event.path }) }),`,
        `    createHonoHandler({ getPrisma: (ctx) => ({ path: ctx.req.path }) }),`,
        `    createElysiaHandler({ getPrisma, basePath: '/api' }),`,
        `    TanStackStartHandler({ getPrisma: (request) => ({ url: request.url }) }),`,
        `];`,
    ];
    if (options.nestjs) {
        lines.push(
            `export const nest = [ApiHandlerService, ENHANCED_PRISMA,`,
            `    ZenStackModule.registerAsync({ global: true, useFactory: () => ({ getEnhancedPrisma: () => ({}) }) })];`,
        );
    }
    return `${lines.join('\n')}\n`;
}

/** The module specifiers `consumerSource` imports. */
export const importedSpecifiers = (source: string): string[] => [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
