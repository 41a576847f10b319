import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Elysia } from 'elysia';
import { createElysiaHandler as UpElysia } from '@zenstackhq/server/elysia';
import { ZenStackMiddleware as UpExpress } from '@zenstackhq/server/express';
import { ZenStackFastifyPlugin as UpFastify } from '@zenstackhq/server/fastify';
import { createHonoHandler as UpHono } from '@zenstackhq/server/hono';
import { createApp, createRouter, toWebHandler } from 'h3';
import { NextRequest } from 'next/server';
import { NextRequestHandler as UpNext } from '@zenstackhq/server/next';
import { createEventHandler as UpNuxt } from '@zenstackhq/server/nuxt';
import { SvelteKitHandler as UpSvelteKit } from '@zenstackhq/server/sveltekit';
import { TanStackStartHandler as UpTanstack } from '@zenstackhq/server/tanstack-start';
import { createElysiaHandler } from '../../src/adapters/elysia';
import { ZenStackMiddleware } from '../../src/adapters/express';
import { ZenStackFastifyPlugin } from '../../src/adapters/fastify';
import { createHonoHandler } from '../../src/adapters/hono';
import { NextRequestHandler } from '../../src/adapters/next';
import { createEventHandler } from '../../src/adapters/nuxt';
import { SvelteKitHandler } from '../../src/adapters/sveltekit';
import { TanStackStartHandler } from '../../src/adapters/tanstack-start';
import type { HandleRequestFn } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * A custom `handler` sees the same `ctx.path` through each adapter as through its 2.22.3 counterpart, so that
 * one written for 2.x (`ctx.path.split('/')`, a guard on `ctx.path.startsWith('user/')`) keeps working after
 * only the import path changes. Both adapters of a pair get the same request and an echo handler.
 */

/** `serve(handler, true)` runs 2.22.3's adapter. */
type Pair = { name: string; serve: (handler: HandleRequestFn, upstream: boolean) => Promise<unknown> };

/** The adapters whose 2.x version hands the path over with its leading slash. */
const LEADING_SLASH = new Set(['Express', 'SvelteKit (hook)', 'Elysia (basePath)']);

let s: TestSchema;
beforeAll(async () => {
    s = await loadSchema();
});
afterAll(() => s.cleanup());

const echo: HandleRequestFn = async (ctx) => ({ status: 200, body: { path: ctx.path } });
const getPrisma = () => s.enhance();

/** The path a handler saw for `/api/<tail>` (the mount point `/api`). */
const pairs = (tail: string[]): Pair[] => {
    const url = `http://localhost/api/${tail.join('/')}`;
    return [
        {
            name: 'Next.js App Router',
            serve: async (handler, upstream) => {
                const options = { getPrisma, handler, useAppDir: true as const };
                const route = (upstream ? UpNext(options) : NextRequestHandler(options)) as (req: NextRequest, ctx: unknown) => Promise<Response>;
                const res = await route(new NextRequest(url), { params: Promise.resolve({ path: tail.map(decodeURIComponent) }) });
                return res.json();
            },
        },
        {
            name: 'TanStack Start',
            serve: async (handler, upstream) => {
                const route = (upstream ? UpTanstack : TanStackStartHandler)({ getPrisma, handler } as never) as (ctx: unknown) => Promise<Response>;
                const res = await route({ request: new Request(url), params: { _splat: decodeURIComponent(tail.join('/')) } });
                return res.json();
            },
        },
        {
            name: 'Express',
            serve: async (handler, upstream) => {
                const app = express();
                app.use('/api', (upstream ? UpExpress : ZenStackMiddleware)({ getPrisma, handler } as never));
                const server = http.createServer(app);
                await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
                try {
                    return (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/${tail.join('/')}`)).json();
                } finally {
                    server.close();
                }
            },
        },
        {
            name: 'SvelteKit (hook)',
            serve: async (handler, upstream) => {
                const hook = (upstream ? UpSvelteKit : SvelteKitHandler)({ prefix: '/api', getPrisma, handler } as never) as (input: unknown) => Promise<Response>;
                const event = { url: new URL(url), request: new Request(url), params: {}, locals: {} };
                const res = await hook({ event, resolve: () => new Response('not the API', { status: 404 }) });
                return res.json();
            },
        },
        {
            name: 'Elysia (basePath)',
            serve: async (handler, upstream) => {
                const plugin = (upstream ? UpElysia : createElysiaHandler)({ basePath: '/api', getPrisma, handler } as never) as ReturnType<typeof createElysiaHandler>;
                const app = new Elysia().group('/api', (group) => group.use(plugin));
                await app.modules; // 2.x's plugin is asynchronous
                return (await app.handle(new Request(url))).json();
            },
        },
        {
            name: 'Hono',
            serve: async (handler, upstream) => {
                const app = new Hono();
                app.use('/api/*', (upstream ? UpHono : createHonoHandler)({ getPrisma, handler } as never));
                return (await app.request(url)).json();
            },
        },
        {
            // 2.22.3's plugin passes `request.params['*']`, what the wildcard matched: `post/create`
            name: 'Fastify',
            serve: (handler, upstream) => fastifyPath(handler, tail, upstream),
        },
        {
            name: 'Nuxt (h3 router catch-all)',
            serve: async (handler, upstream) => {
                const app = createApp();
                const router = createRouter();
                router.use('/api/**', (upstream ? UpNuxt : createEventHandler)({ getPrisma, handler } as never));
                app.use(router);
                const res = await toWebHandler(app)(new Request(url));
                return res.json();
            },
        },
    ];
};

async function fastifyPath(handler: HandleRequestFn, tail: string[], upstream: boolean): Promise<unknown> {
    const app = Fastify();
    await app.register((upstream ? UpFastify : ZenStackFastifyPlugin) as typeof ZenStackFastifyPlugin, { prefix: '/api', getPrisma, handler });
    try {
        // a real request: Fastify's `inject` loads an ES-module dependency jest cannot
        const address = await app.listen({ port: 0, host: '127.0.0.1' });
        return (await fetch(`${address}/api/${tail.join('/')}`)).json();
    } finally {
        await app.close();
    }
}

describe.each([[['post', 'create']], [['post', 'findMany']], [['user', '1', 'posts']]])('a custom handler sees ctx.path for /api/%j as with 2.22.3', (tail) => {
    it.each(pairs(tail).map((p) => [p.name, p] as const))('%s', async (_name, pair) => {
        const ours = await pair.serve(echo, false);
        const theirs = await pair.serve(echo, true);
        expect(ours).toEqual(theirs);
        expect(ours).toEqual({ path: LEADING_SLASH.has(pair.name) ? `/${tail.join('/')}` : tail.join('/') });
    });
});

describe('a custom handler gets the generated model metadata when the app passes none, as with 2.22.3', () => {
    const models: HandleRequestFn = async (ctx) => ({ status: 200, body: { models: Object.keys(ctx.modelMeta?.models ?? {}).sort() } });
    it.each(pairs(['post', 'findMany']).map((p) => [p.name, p] as const))('%s', async (_name, pair) => {
        const ours = await pair.serve(models, false);
        const theirs = await pair.serve(models, true);
        expect(ours).toEqual(theirs);
        expect(ours).toEqual({ models: ['allTypes', 'comment', 'post', 'profile', 'user'] });
    });
});
