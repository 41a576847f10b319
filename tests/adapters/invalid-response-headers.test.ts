import http from 'node:http';
import type { RequestEvent } from '@sveltejs/kit';
import { Elysia } from 'elysia';
import express from 'express';
import Fastify from 'fastify';
import { createApp, toNodeListener } from 'h3';
import { Hono } from 'hono';
import { apiResolver } from 'next/dist/server/api-utils/node/api-resolver';
import { NextRequest } from 'next/server';
import request from 'supertest';
import { createElysiaHandler } from '../../src/adapters/elysia';
import { ZenStackMiddleware } from '../../src/adapters/express';
import { ZenStackFastifyPlugin } from '../../src/adapters/fastify';
import { createFetchHandler } from '../../src/adapters/fetch';
import { createHonoHandler } from '../../src/adapters/hono';
import { NextRequestHandler } from '../../src/adapters/next';
import { createNodeHandler } from '../../src/adapters/node';
import { createEventHandler } from '../../src/adapters/nuxt';
import { SvelteKitHandler, SvelteKitRouteHandler } from '../../src/adapters/sveltekit';
import { TanStackStartHandler } from '../../src/adapters/tanstack-start';
import type { HandleRequestFn, LoggerConfig } from '../../src/types';

/**
 * A custom handler's response header that no server could send (a name that is not a token, a value with a line
 * break): every adapter answers the same logged, generic 500, where the framework would throw while writing it
 * (Fastify then left the request hanging). NestJS: nestjs.test.ts and nestjs-fastify.test.ts.
 */

const BAD_HEADERS: Record<string, string>[] = [{ 'x-a': 'a\nb' }, { 'x a': 'b' }, { 'x-a': 'a\rb' }, { 'x-€': 'b' }];
const GENERIC_500 = { status: 500, body: { error: { message: 'an unexpected error occurred' } } };
/** The path every app serves the API under, and the request each one answers. */
const URL_PATH = '/api/post/findMany';

/** The options of one adapter: a stub client (the handler never reaches it) and a handler answering `headers`. */
function options(headers: Record<string, string>, logged: string[]) {
    const handler = (async () => ({ status: 200, body: { ok: true }, headers })) as unknown as HandleRequestFn;
    const logger: LoggerConfig = { error: (message) => logged.push(message) };
    return { modelMeta: {} as never, handler, logger, getPrisma: () => ({}) };
}

type Answer = { status: number; body: unknown };

/** Sends the request through a Node server (over real HTTP, so that a request left hanging times out). */
async function overHttp(server: http.Server | express.Express): Promise<Answer> {
    const res = await request(server).get(URL_PATH).timeout(5000);
    return { status: res.status, body: JSON.parse(res.text) };
}

async function fromFetch(res: Response): Promise<Answer> {
    return { status: res.status, body: await res.json() };
}

const requestEvent = (req: Request, params: Record<string, string> = {}) => ({ request: req, url: new URL(req.url), params, locals: {} }) as unknown as RequestEvent;
const webRequest = () => new Request(`http://localhost${URL_PATH}`);

/** Each adapter, built around the handler's options, answering one GET of `URL_PATH`. */
const ADAPTERS: Record<string, (opts: ReturnType<typeof options>) => Promise<Answer>> = {
    node: (opts) => overHttp(http.createServer(createNodeHandler({ ...opts, prefix: '/api' }))),
    fetch: async (opts) => fromFetch(await createFetchHandler({ ...opts, prefix: '/api' })(webRequest())),
    express: (opts) => overHttp(express().use('/api', ZenStackMiddleware(opts))),
    fastify: async (opts) => {
        const app = Fastify();
        await app.register(ZenStackFastifyPlugin, { ...opts, prefix: '/api' });
        await app.ready();
        try {
            return await overHttp(app.server);
        } finally {
            await app.close();
        }
    },
    'nuxt (h3)': (opts) => overHttp(http.createServer(toNodeListener(createApp().use('/api', createEventHandler(opts))))),
    hono: async (opts) => fromFetch(await new Hono().use('/api/*', createHonoHandler(opts)).request(URL_PATH)),
    elysia: async (opts) => fromFetch(await new Elysia().group('/api', (app) => app.use(createElysiaHandler({ ...opts, basePath: '/api' }))).handle(webRequest())),
    'next (App Router)': async (opts) => {
        const route = NextRequestHandler({ ...opts, useAppDir: true });
        return fromFetch(await route(new NextRequest(`http://localhost${URL_PATH}`), { params: Promise.resolve({ path: ['post', 'findMany'] }) }));
    },
    'next (Pages Router)': (opts) => {
        const page = { default: NextRequestHandler(opts), config: { api: { bodyParser: false } } };
        const apiContext = { previewModeId: '', previewModeEncryptionKey: '', previewModeSigningKey: '', dev: false };
        return overHttp(http.createServer((req, res) => void apiResolver(req, res, { path: ['post', 'findMany'] }, page, apiContext, false, false, '/api/[...path]')));
    },
    'sveltekit (hook)': async (opts) => {
        const handle = SvelteKitHandler({ ...opts, prefix: '/api' });
        return fromFetch(await handle({ event: requestEvent(webRequest()), resolve: async () => new Response('not the API', { status: 404 }) }));
    },
    'sveltekit (route)': async (opts) => fromFetch(await SvelteKitRouteHandler(opts)(requestEvent(webRequest(), { path: 'post/findMany' }))),
    'tanstack-start': async (opts) => fromFetch(await TanStackStartHandler(opts)({ request: webRequest(), params: { _splat: 'post/findMany' } })),
};

describe("a custom handler's response header that cannot be sent", () => {
    for (const [name, serve] of Object.entries(ADAPTERS)) {
        it(`${name}: answered with a logged, generic 500 (an invalid name or value)`, async () => {
            for (const headers of BAD_HEADERS) {
                const logged: string[] = [];
                const answer = await serve(options(headers, logged));
                expect({ headers, ...answer }).toEqual({ headers, ...GENERIC_500 });
                expect(logged).toEqual([expect.stringMatching(/invalid response header/)]);
            }
            // a valid one is sent as it is
            const logged: string[] = [];
            expect(await serve(options({ 'x-a': 'a b\té' }, logged))).toEqual({ status: 200, body: { ok: true } });
            expect(logged).toEqual([]);
        });
    }
});
