import { Elysia } from 'elysia';
import { Hono } from 'hono';
import { NextRequest } from 'next/server';
import { createElysiaHandler } from '../../src/adapters/elysia';
import { createFetchHandler } from '../../src/adapters/fetch';
import { createHonoHandler } from '../../src/adapters/hono';
import { NextRequestHandler } from '../../src/adapters/next';
import { SvelteKitRouteHandler } from '../../src/adapters/sveltekit';
import { TanStackStartHandler } from '../../src/adapters/tanstack-start';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * The Fetch-based adapters when the client goes away: the runtime then errors the request's body stream (undici,
 * SvelteKit's and Next.js's Node bridges do) and aborts `request.signal`. A body that broke off is a 400 that writes
 * nothing, even when what arrived is whole JSON; an aborted signal alone is no reason to refuse a body that arrived
 * whole (a TanStack Start issue reports server functions starting with an aborted one), and what is
 * answered is what was written. (The Node-served adapters: `tests/reliability/client-aborts.test.ts`.)
 */

let s: TestSchema;
beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
});
afterAll(() => s.cleanup());

type App = (request: Request) => Promise<Response>;

function apps(): Record<string, App> {
    const common = { modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null, getPrisma: () => s.enhance({ id: 1 }) };
    const splat = (request: Request) => new URL(request.url).pathname.slice('/api/'.length);
    const hono = new Hono();
    hono.use('/api/*', createHonoHandler(common));
    const elysia = new Elysia().group('/api', (app) => app.use(createElysiaHandler({ ...common, basePath: '/api' })));
    const next = NextRequestHandler({ ...common, useAppDir: true });
    const sveltekit = SvelteKitRouteHandler(common);
    const tanstack = TanStackStartHandler(common);
    return {
        fetch: createFetchHandler({ ...common, prefix: '/api' }),
        hono: async (request) => hono.fetch(request),
        elysia: (request) => elysia.handle(request),
        next: (request) => next(new NextRequest(request, { duplex: 'half' } as never), { params: Promise.resolve({ path: splat(request).split('/') }) }),
        sveltekit: (request) => sveltekit({ request, url: new URL(request.url), params: { path: splat(request) }, locals: {} } as never) as Promise<Response>,
        'tanstack-start': (request) => tanstack({ request, params: { _splat: splat(request) } }),
    };
}

/** A body stream that delivers `text` and then breaks, as a runtime's does when the client goes away. */
function brokenOff(text: string): ReadableStream<Uint8Array> {
    return new ReadableStream({
        start: (controller) => controller.enqueue(new TextEncoder().encode(text)),
        pull: (controller) => controller.error(new Error('the client went away')),
    });
}

function create(title: string, init: RequestInit): Request {
    return new Request('http://localhost/api/post/create', { method: 'POST', headers: { 'content-type': 'application/json' }, duplex: 'half', ...init } as RequestInit);
}

const postData = (title: string) => ({ data: { title, authorId: 1, comments: { create: [{ content: 'a' }, { content: 'b' }] } } });

it('a body stream that breaks off, even after whole JSON, is a 400 that writes nothing', async () => {
    for (const [name, app] of Object.entries(apps())) {
        const json = JSON.stringify(postData(`broken ${name}`));
        for (const text of [json.slice(0, 20), json]) {
            const res = await app(create(`broken ${name}`, { body: brokenOff(text) }));
            expect({ name, status: res.status, body: await res.json() }).toEqual({ name, status: 400, body: { error: { message: 'the request body could not be read' } } });
        }
    }
    expect(await s.prisma.post.count({ where: { title: { startsWith: 'broken ' } } })).toBe(0);
});

it('an aborted request.signal: the answer tells what was written, and the write is whole', async () => {
    for (const [name, app] of Object.entries(apps())) {
        const controller = new AbortController();
        controller.abort();
        const title = `signal ${name}`;
        const res = await app(create(title, { body: JSON.stringify(postData(title)), signal: controller.signal }));
        const written = await s.prisma.post.findMany({ where: { title }, select: { _count: { select: { comments: true } } } });
        expect({ name, answered: res.status === 201, written: written.map((p: { _count: { comments: number } }) => p._count.comments) }).toEqual({
            name,
            answered: written.length === 1,
            written: written.length === 1 ? [2] : [],
        });
    }
});
