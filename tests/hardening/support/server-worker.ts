import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { generateSchemaAsync, PROJECT_ROOT } from '../../support/generate';
import { BLOG_SCHEMA, loadSchema, type TestSchema } from '../../support/schema';

/**
 * Serves the API from a worker thread, so that a request that keeps the server's event loop busy does not also
 * stop the test (its timers, its other requests): the test can then check that the server still answers. A plain
 * Node server in front of the TanStack Start adapter (a Fetch-based one that finds the API path in the URL), with
 * the RPC handler under `/rpc/` and the JSON:API one under `/rest/`. `maxHeaderSize` is raised so that a URL can
 * be as long as a Fetch runtime without Node's 16 KiB default would take it.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.root + '/scripts/ts-register.js');
const http = require('node:http');
const path = require('node:path');
const { TanStackStartHandler } = require(workerData.root + '/src/adapters/tanstack-start');
const { RPCApiHandler } = require(workerData.root + '/src/api/rpc');
const { RestApiHandler } = require(workerData.root + '/src/api/rest');
const { PrismaClient } = require(path.join(workerData.gen, 'prisma-client'));
const { enhance } = require(path.join(workerData.gen, 'zenstack', 'enhance.js'));
const modelMeta = require(path.join(workerData.gen, 'zenstack', 'model-meta.js')).default;
const adapterPackage = (name) => require(require.resolve(name, { paths: [workerData.root] }));
const adapter =
    workerData.provider === 'postgresql'
        ? new (adapterPackage('@prisma/adapter-pg').PrismaPg)({ connectionString: workerData.url })
        : new (adapterPackage('@prisma/adapter-better-sqlite3').PrismaBetterSQLite3)({ url: workerData.url });
const prisma = new PrismaClient({ adapter });
const common = { modelMeta, logger: null, getPrisma: () => enhance(prisma, { user: { id: 1 } }) };
const mounts = [
    ['/rpc/', TanStackStartHandler({ ...common, handler: RPCApiHandler(workerData.rpcOptions) })],
    ['/rest/', TanStackStartHandler({ ...common, handler: RestApiHandler({ endpoint: 'http://localhost/rest', ...workerData.restOptions }) })],
];
const server = http.createServer({ maxHeaderSize: 1 << 20 }, async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const url = new URL(req.url, 'http://localhost');
    const mount = mounts.find(([prefix]) => url.pathname.startsWith(prefix));
    if (!mount) return res.writeHead(404).end();
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(url, { method: req.method, headers: req.headers, body });
    // the splat as a router hands it over: the path after the mount point, decoded
    const response = await mount[1]({ request, params: { _splat: decodeURIComponent(url.pathname.slice(mount[0].length)) } });
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

export interface WorkerServer {
    origin: string;
    stop(): Promise<void>;
    /** The error that ended the worker, if one did (`ERR_WORKER_OUT_OF_MEMORY` when it outgrew `heapLimitMb`). */
    readonly crashed: (Error & { code?: string }) | undefined;
}

export interface WorkerServerOptions {
    /** Options of the RPC handler (structured-cloned: `Infinity` passes). */
    rpcOptions?: Record<string, unknown>;
    /** Options of the JSON:API handler, besides its endpoint. */
    restOptions?: Record<string, unknown>;
    /** The worker's old-generation heap in MB: a request that makes the server hold more ends the worker. */
    heapLimitMb?: number;
}

/**
 * Starts the server on `schema`'s database, loaded from `zmodel` (the project's blog schema unless given), on SQLite or
 * PostgreSQL as `schema` is; `stop` ends the worker even when it is busy.
 */
export async function startWorkerServer(schema: TestSchema, zmodel: string = BLOG_SCHEMA, options: WorkerServerOptions = {}): Promise<WorkerServer> {
    const gen = await generateSchemaAsync(zmodel, schema.provider);
    const workerData = {
        root: PROJECT_ROOT,
        gen: path.resolve(gen.dir),
        url: schema.databaseUrl,
        provider: schema.provider,
        rpcOptions: options.rpcOptions,
        restOptions: options.restOptions,
    };
    const resourceLimits = options.heapLimitMb === undefined ? undefined : { maxOldGenerationSizeMb: options.heapLimitMb };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData, resourceLimits });
    let crashed: Error | undefined;
    const port = await new Promise<number>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
    });
    worker.on('error', (err) => {
        crashed = err;
    });
    return {
        origin: `http://127.0.0.1:${port}`,
        stop: async () => {
            await worker.terminate();
        },
        get crashed() {
            return crashed;
        },
    };
}

/** The blog schema's database with user 1 and one published post of his, served from a worker thread. */
export async function startSeededWorkerServer(options?: WorkerServerOptions): Promise<{ s: TestSchema; server: WorkerServer }> {
    const s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ title: 'visible', published: true }] } } });
    return { s, server: await startWorkerServer(s, BLOG_SCHEMA, options) };
}

/**
 * `startSeededWorkerServer` for the tests of one file: started before them, stopped (and its database removed) after
 * them. Read `s` and `server` inside the tests.
 */
export function seededWorkerServerForFile(options?: WorkerServerOptions): { readonly s: TestSchema; readonly server: WorkerServer } {
    const held: { s?: TestSchema; server?: WorkerServer } = {};
    beforeAll(async () => {
        Object.assign(held, await startSeededWorkerServer(options));
    });
    afterAll(async () => {
        await held.server?.stop();
        await held.s?.cleanup();
    });
    return {
        get s() {
            return held.s!;
        },
        get server() {
            return held.server!;
        },
    };
}

/** An ordinary read of what `startSeededWorkerServer` seeds, and its answer. */
const ORDINARY_READ = `/rpc/post/findMany?q=${encodeURIComponent('{"select":{"title":true}}')}`;
const ORDINARY_ANSWER = { status: 200, body: { data: [{ title: 'visible' }] } };

/** A request that the server answers at once, and its answer. */
export interface OrdinaryRead {
    path: string;
    answer: { status: number; body: unknown };
}

/**
 * Sends `hostile` and, while it is being answered, an ordinary read (by default one of what `startSeededWorkerServer`
 * seeds): both must be answered. Resolves to `hostile`'s answer.
 */
export async function stillAnswers<T>(server: WorkerServer, hostile: () => Promise<T>, ordinary: OrdinaryRead = { path: ORDINARY_READ, answer: ORDINARY_ANSWER }): Promise<T> {
    const pending = hostile();
    const res = await fetch(`${server.origin}${ordinary.path}`);
    expect({ status: res.status, body: await res.json() }).toEqual(ordinary.answer);
    return pending;
}
