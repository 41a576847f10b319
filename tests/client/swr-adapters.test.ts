import express from 'express';
import Fastify from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextRequest } from 'next/server';
import { ZenStackMiddleware } from '../../src/adapters/express';
import { createFetchHandler } from '../../src/adapters/fetch';
import { ZenStackFastifyPlugin } from '../../src/adapters/fastify';
import { NextRequestHandler } from '../../src/adapters/next';
import { createNodeHandler } from '../../src/adapters/node';
import { RPCApiHandler } from '../../src/api/rpc';
import { SILENT_LOGGER } from '../compat/sides';
import { loadSchema, type TestSchema } from '../support/schema';
import { ALICE, AT, seedBlog } from './support/seed';
import { swrClient } from './support/swr';
import { USER_HEADER } from './support/servers';

/**
 * The SWR hooks' deletes (arguments in `q` and again in a JSON body) through adapters that read the body
 * themselves: the Fetch API base adapter and the Next.js App Router handler (SWR's most common home), called in
 * process as the hooks' `fetch`, and the node:http, Express (without an app-wide body parser) and Fastify ones.
 */

let s: TestSchema;
beforeEach(async () => {
    s = await loadSchema();
    await seedBlog(s);
});
afterEach(async () => {
    await s.cleanup();
});

const getUser = (value: string | null | undefined) => s.enhance(value ? { id: Number(value) } : undefined);

async function deleteThroughHooks(endpoint: string): Promise<void> {
    const hooks = swrClient(endpoint, s.modelMeta, ALICE);
    expect(await hooks.mutate('Comment', 'delete', { where: { id: 1 }, select: { id: true } })).toEqual({ id: 1 });
    // typed values: meta in the URL and in the body
    expect(await hooks.mutate('Post', 'deleteMany', { where: { createdAt: { lte: AT }, authorId: ALICE } })).toEqual({ count: 2 });
    expect(await s.prisma.post.findMany({ select: { id: true } })).toEqual([{ id: 3 }]);
}

/** Runs the hooks with `serve` as the network: the app's fetch hands each request to the adapter in process. */
async function inProcess(serve: (request: Request) => Promise<Response>): Promise<void> {
    const network = globalThis.fetch;
    globalThis.fetch = ((input: string, init?: RequestInit) => serve(new Request(input, init))) as typeof fetch;
    try {
        await deleteThroughHooks('http://app.test/api/model');
    } finally {
        globalThis.fetch = network;
    }
}

it('through the Fetch API adapter', async () => {
    const handler = createFetchHandler({ prefix: '/api/model', logger: SILENT_LOGGER, modelMeta: s.modelMeta, handler: RPCApiHandler(), getPrisma: (req) => getUser(req.headers.get(USER_HEADER)) });
    await inProcess(handler);
});

it('through the Next.js App Router handler (app/api/model/[...path]/route.ts)', async () => {
    const route = NextRequestHandler({ useAppDir: true, logger: SILENT_LOGGER, modelMeta: s.modelMeta, handler: RPCApiHandler(), getPrisma: (req) => getUser(req.headers.get(USER_HEADER)) });
    await inProcess(async (request) => {
        const url = new URL(request.url);
        const path = url.pathname.slice('/api/model/'.length).split('/');
        const body = request.method === 'GET' ? undefined : await request.text();
        return route(new NextRequest(url, { method: request.method, headers: request.headers, body }), { params: Promise.resolve({ path }) });
    });
});

async function overHttp(server: http.Server): Promise<void> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
        await deleteThroughHooks(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/model`);
    } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
    }
}

it('through the node:http adapter', async () => {
    const handler = createNodeHandler({ prefix: '/api/model', logger: SILENT_LOGGER, modelMeta: s.modelMeta, handler: RPCApiHandler(), getPrisma: (req) => getUser(req.headers[USER_HEADER] as string | undefined) });
    await overHttp(http.createServer((req, res) => void handler(req, res)));
});

it('through the Express adapter reading the body itself', async () => {
    const app = express();
    app.use('/api/model', ZenStackMiddleware({ logger: SILENT_LOGGER, modelMeta: s.modelMeta, handler: RPCApiHandler(), getPrisma: (req) => getUser(req.header(USER_HEADER)) }));
    await overHttp(http.createServer(app));
});

it('through the Fastify plugin', async () => {
    const app = Fastify();
    await app.register(ZenStackFastifyPlugin, { prefix: '/api/model', logger: SILENT_LOGGER, modelMeta: s.modelMeta, handler: RPCApiHandler(), getPrisma: (req) => getUser(req.headers[USER_HEADER] as string | undefined) });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
        await deleteThroughHooks(`${origin}/api/model`);
    } finally {
        await app.close();
    }
});
