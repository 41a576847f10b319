import express from 'express';
import Fastify from 'fastify';
import { createApp, toNodeListener } from 'h3';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiResolver } from 'next/dist/server/api-utils/node/api-resolver';
import { ZenStackMiddleware } from '../../../src/adapters/express';
import { ZenStackFastifyPlugin } from '../../../src/adapters/fastify';
import { NextRequestHandler } from '../../../src/adapters/next';
import { createNodeHandler } from '../../../src/adapters/node';
import { createEventHandler } from '../../../src/adapters/nuxt';
import { connectSchema } from '../../support/generated';
import { memoryLogger } from './server';
import { AFTER_CLIENT_GONE, REPORT_REACHED, type ChildReport, type ParentCommand } from './abort-protocol';

/**
 * The server process of `client-aborts.test.ts` (run bundled, see `server-processes.ts`): the RPC handler behind
 * each Node-served adapter (plain Node, Express with and without `express.json()`, Fastify, a Next.js Pages Router
 * runtime, h3), each on a port of its own, all mounted at `/api`, over one Prisma client on the database
 * `ABORT_DATABASE_URL` (generated in `ABORT_GENERATED_DIR`), acting as user 1. It keeps what a client cannot see:
 * the requests no one ever answered, what its handlers logged, and any uncaught exception or unhandled rejection
 * (recorded, so that the test can say which; a process that dies of one is seen by the test too).
 */

const problems: string[] = [];
process.on('uncaughtException', (err) => problems.push(`uncaught exception: ${err?.stack ?? err}`));
process.on('unhandledRejection', (err) => problems.push(`unhandled rejection: ${(err as Error)?.stack ?? err}`));

const logs: string[] = [];
const logger = memoryLogger(logs);
const send = (report: ChildReport) => process.send!(report);

/** The adapter of each request whose response was never ended, and the `close` of every response reported as reached. */
const unanswered = new Map<ServerResponse, string>();
let reachedClosed: Promise<void>[] = [];

/** Keeps a request of `adapter` until something ends its response. */
function tracked(adapter: string, listener: RequestListener): RequestListener {
    return (req, res) => {
        unanswered.set(res, adapter);
        const end = res.end;
        res.end = function (this: ServerResponse, ...args: unknown[]) {
            unanswered.delete(res);
            return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
        } as ServerResponse['end'];
        listener(req, res);
    };
}

/** What an async auth step in front of the adapter would be, for a request marked so: done only once its client has gone. */
async function afterClientGone(req: IncomingMessage): Promise<void> {
    if (req.headers[AFTER_CLIENT_GONE] === undefined) return;
    send({ type: 'waiting' });
    await new Promise<void>((resolve) => (req.destroyed ? resolve() : req.once('close', () => resolve())));
}

function reached(req: IncomingMessage, res: ServerResponse | undefined): void {
    if (req.headers[REPORT_REACHED] === undefined) return;
    if (res) reachedClosed.push(new Promise((resolve) => (res.destroyed ? resolve() : res.once('close', () => resolve()))));
    send({ type: 'reached' });
}

async function listen(adapter: string, listener: RequestListener): Promise<{ port: number; server: http.Server }> {
    const server = http.createServer(tracked(adapter, listener));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return { port: (server.address() as AddressInfo).port, server };
}

async function main(): Promise<void> {
    const { ABORT_DATABASE_URL: url, ABORT_GENERATED_DIR: dir } = process.env;
    if (!url || !dir) throw new Error('ABORT_DATABASE_URL and ABORT_GENERATED_DIR must be set');
    // patient: the test holds the table (or SQLite's one connection) while requests wait for it
    const s = await connectSchema(dir, url, { transactionOptions: { maxWait: 60_000, timeout: 60_000 } });
    const client = (req: IncomingMessage, res?: ServerResponse) => {
        reached(req, res);
        return s.enhance({ id: 1 });
    };
    const common = { logger, modelMeta: s.modelMeta, zodSchemas: s.zodSchemas };
    const servers: http.Server[] = [];
    const ports: Record<string, number> = {};
    const add = async (name: string, listener: RequestListener) => {
        const { port, server } = await listen(name, listener);
        ports[name] = port;
        servers.push(server);
    };

    const node = createNodeHandler({ ...common, prefix: '/api', getPrisma: client });
    await add('node', (req, res) => void afterClientGone(req).then(() => node(req, res)));

    const plain = express();
    plain.use(async (req, _res, next) => {
        await afterClientGone(req);
        next();
    });
    plain.use('/api', ZenStackMiddleware({ ...common, getPrisma: client }));
    await add('express', plain);

    const parsed = express();
    const api = ZenStackMiddleware({ ...common, getPrisma: client });
    parsed.use(express.json());
    parsed.use('/api', api, api.errorHandler);
    await add('express.json', parsed);

    const fastify = Fastify({ serverFactory: (handler) => http.createServer(tracked('fastify', handler)) });
    await fastify.register(ZenStackFastifyPlugin, { ...common, prefix: '/api', getPrisma: (request, reply) => client(request.raw, reply.raw) });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    ports.fastify = (fastify.server.address() as AddressInfo).port;

    // a Pages Router API route whose own code awaits something (a session) before the adapter's handler
    const nextHandler = NextRequestHandler({ ...common, getPrisma: client });
    const page = {
        default: async (req: IncomingMessage, res: ServerResponse) => {
            await afterClientGone(req);
            await nextHandler(req as never, res as never);
        },
        config: { api: { bodyParser: false } },
    };
    const apiContext = { previewModeId: '', previewModeEncryptionKey: '', previewModeSigningKey: '', dev: false };
    await add('next', (req, res) => {
        const segments = new URL(req.url ?? '/', 'http://localhost').pathname.split('/').slice(2);
        void apiResolver(req, res, { path: segments }, page, apiContext, false, false, '/api/[...path]');
    });

    // h3 reads the body after getPrisma, which awaits the session here
    const h3 = createApp();
    h3.use(
        '/api',
        createEventHandler({
            ...common,
            getPrisma: async (event) => {
                await afterClientGone(event.node.req);
                return client(event.node.req, event.node.res);
            },
        }),
    );
    await add('h3', toNodeListener(h3));

    let releaseHold: (() => void) | undefined;
    let holding: Promise<unknown> | undefined;
    process.on('message', (m: ParentCommand) => {
        if (m.type === 'stats') {
            send({ type: 'stats', unanswered: [...unanswered.values()].sort(), problems, logs });
        } else if (m.type === 'hold') {
            // a transaction of the raw client that keeps writes to Post waiting: on PostgreSQL by locking the table,
            // on SQLite by holding the one connection (the adapter wrapper lets one transaction run at a time)
            let held!: () => void;
            const isHeld = new Promise<void>((resolve) => (held = resolve));
            const gate = new Promise<void>((resolve) => (releaseHold = resolve));
            holding = s.prisma.$transaction(
                async (tx: { $executeRawUnsafe(sql: string): Promise<unknown>; user: { count(): Promise<number> } }) => {
                    await (s.provider === 'postgresql' ? tx.$executeRawUnsafe('LOCK TABLE "Post" IN EXCLUSIVE MODE') : tx.user.count());
                    held();
                    await gate;
                },
                { maxWait: 60_000, timeout: 60_000 },
            );
            void isHeld.then(() => send({ type: 'held' }));
        } else if (m.type === 'release') {
            // once every reached request's client is seen gone: their writes then run for no one
            const closed = reachedClosed;
            reachedClosed = [];
            void Promise.all(closed)
                .then(() => {
                    releaseHold?.();
                    return holding;
                })
                .then(() => send({ type: 'released' }));
        } else if (m.type === 'stop') {
            for (const server of servers) server.closeAllConnections();
            void Promise.all([...servers.map((server) => new Promise((resolve) => server.close(resolve))), fastify.close()])
                .then(() => s.cleanup())
                .finally(() => process.send!({ type: 'stopped' } satisfies ChildReport, () => process.exit(0)));
        }
    });
    send({ type: 'started', ports });
}

main().catch((err) => {
    send({ type: 'failed', error: String((err as Error)?.stack ?? err) });
    process.exit(1);
});
