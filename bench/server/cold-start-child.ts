/**
 * One cold start of the cold-start benchmark (`bench/cold-start.ts`), in a fresh process: `node --expose-gc
 * cold-start-child.js` with
 *   COLD_IMPL       ours | upstream | floor (the same ORM calls made directly, answers through JSON.stringify)
 *   COLD_GENERATED  folder of the generated Prisma client and ZenStack output
 *   COLD_DB         SQLite file this process may write to
 *   COLD_OURS_DIST  compiled zenstack-api (for ours)
 *   COLD_MODELS     comma-separated model names: the first gets the first requests of the process, each of the
 *                   others its first requests on a process that has answered some already
 *   COLD_TOUCH_ALL  1 = afterwards send a REST list and an RPC findMany to every model, and measure the heap
 * Prints one JSON line (`ColdStartResult`, times in ms of CPU time) and exits.
 */
import path from 'node:path';

export const KINDS = ['rest-list-include', 'rest-create', 'rpc-findMany', 'rpc-create'] as const;
export type Kind = (typeof KINDS)[number];

export interface ColdStartResult {
    impl: string;
    /** Loading the generated Prisma client, enhancer and model metadata, and connecting (the app's cost, the same for all). */
    loadGeneratedMs: number;
    /** Loading the handler modules. */
    requireMs: number;
    /** `RestApiHandler(...)` and `RPCApiHandler()`. */
    constructMs: number;
    /** Per model of COLD_MODELS, the time of each kind of request, in order. */
    first: Array<{ model: string; ms: Record<Kind, number> }>;
    /** Median of repeated requests of each kind on the last model, after its first ones. */
    warmMs: Record<Kind, number>;
    /** JavaScript heap after a full collection, MiB: after loading and opening, after constructing, after the first requests, after touching every model. */
    heapMiB: { loaded: number; constructed: number; afterFirst: number; afterAll?: number };
    /** With COLD_TOUCH_ALL: total time of one REST list and one RPC findMany on every model. */
    touchAllMs?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
type Handler = (ctx: Record<string, unknown>) => Promise<{ status: number; body?: unknown }>;

const ENDPOINT = 'http://localhost/api/rest';
const USER = { id: 1 };

function env(name: string): string {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
}

/** CPU time of this process (user + system), ms: far steadier than wall time on a machine shared with other work. */
const now = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
};
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function heapMiB(): number {
    (global as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed / 1024 / 1024;
}

let serial = 0;
/** Scalars of a new record, unique code included. */
function newRecord(): Record<string, unknown> {
    serial++;
    return { title: `cold ${serial}`, code: `cold-${process.pid}-${serial}`, qty: serial, active: true };
}

interface Requests {
    run(kind: Kind, model: string): Promise<void>;
}

function viaHandlers(rest: Handler, rpc: Handler, db: () => Any, modelMeta: unknown, zodSchemas: unknown): Requests {
    const call = async (handler: Handler, method: string, p: string, query: Record<string, string>, body?: unknown) => {
        const answer = await handler({ method, path: p, query, requestBody: body, prisma: db(), modelMeta, zodSchemas });
        if (answer.status >= 300) throw new Error(`${method} ${p}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
        JSON.stringify(answer.body);
    };
    return {
        run(kind, model) {
            const type = lowerFirst(model);
            const parent = `e${Number(model.slice(1)) - 1}`;
            switch (kind) {
                case 'rest-list-include':
                    return call(rest, 'GET', `/${type}`, { include: 'children,partner', 'page[limit]': '20' });
                case 'rest-create':
                    return call(rest, 'POST', `/${type}`, {}, {
                        data: { type, attributes: newRecord(), relationships: { parent: { data: { type: parent, id: '1' } } } },
                    });
                case 'rpc-findMany':
                    return call(rpc, 'GET', `/${type}/findMany`, { q: JSON.stringify({ include: { children: true, partner: true }, take: 20 }) });
                case 'rpc-create':
                    return call(rpc, 'POST', `/${type}/create`, {}, { data: { ...newRecord(), parent: { connect: { id: 1 } } } });
            }
        },
    };
}

/** The ORM calls the requests come down to, made directly (what no handler can avoid). */
function direct(db: () => Any): Requests {
    return {
        async run(kind, model) {
            const client = db()[lowerFirst(model)];
            let result: unknown;
            if (kind === 'rest-list-include' || kind === 'rpc-findMany') {
                result = await client.findMany({ include: { children: true, partner: true }, take: 20 });
                if (kind === 'rest-list-include') await client.count();
            } else {
                result = await client.create({ data: { ...newRecord(), parent: { connect: { id: 1 } } } });
            }
            JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
        },
    };
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
    const impl = env('COLD_IMPL');
    const generated = env('COLD_GENERATED');
    const models = env('COLD_MODELS').split(',');
    /* eslint-disable @typescript-eslint/no-require-imports */
    let t = now();
    const { PrismaClient } = require(path.join(generated, 'prisma-client'));
    const { enhance } = require(path.join(generated, 'zenstack', 'enhance.js'));
    const modelMeta = require(path.join(generated, 'zenstack', 'model-meta.js')).default;
    // the handlers get no zod schemas: loading ZenStack's generated ones is the app's choice, and costs far more than
    // everything measured here (bench/cold-start.ts measures it apart)
    const zodSchemas = undefined;
    const { PrismaBetterSQLite3 } = require('@prisma/adapter-better-sqlite3');
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${env('COLD_DB')}` }) });
    await prisma.$connect();
    const loadGeneratedMs = now() - t;
    const db = () => enhance(prisma, { user: USER });
    const loaded = heapMiB();

    t = now();
    let rest: Handler | undefined;
    let rpc: Handler | undefined;
    let restApi: (o: unknown) => Handler = () => () => Promise.reject(new Error('no handler'));
    let rpcApi: () => Handler = restApi as () => Handler;
    if (impl === 'ours') {
        const dist = env('COLD_OURS_DIST');
        restApi = require(path.join(dist, 'api', 'rest')).RestApiHandler;
        rpcApi = require(path.join(dist, 'api', 'rpc')).RPCApiHandler;
    } else if (impl === 'upstream') {
        restApi = require('@zenstackhq/server/api/rest').RestApiHandler;
        rpcApi = require('@zenstackhq/server/api/rpc').RPCApiHandler;
    }
    /* eslint-enable @typescript-eslint/no-require-imports */
    const requireMs = now() - t;
    t = now();
    if (impl !== 'floor') {
        rest = restApi({ endpoint: ENDPOINT });
        rpc = rpcApi();
    }
    const constructMs = now() - t;
    const constructed = heapMiB();

    const requests = rest && rpc ? viaHandlers(rest, rpc, db, modelMeta, zodSchemas) : direct(db);
    const first: ColdStartResult['first'] = [];
    for (const model of models) {
        const ms = {} as Record<Kind, number>;
        for (const kind of KINDS) {
            t = now();
            await requests.run(kind, model);
            ms[kind] = now() - t;
        }
        first.push({ model, ms });
    }
    const afterFirst = heapMiB();

    const warmMs = {} as Record<Kind, number>;
    const last = models[models.length - 1];
    for (const kind of KINDS) {
        const times: number[] = [];
        for (let i = 0; i < 9; i++) {
            t = now();
            await requests.run(kind, last);
            times.push(now() - t);
        }
        warmMs[kind] = median(times);
    }

    const result: ColdStartResult = { impl, loadGeneratedMs, requireMs, constructMs, first, warmMs, heapMiB: { loaded, constructed, afterFirst } };
    if (process.env.COLD_TOUCH_ALL === '1') {
        t = now();
        for (const model of Object.values(modelMeta.models as Record<string, { name: string; fields: Record<string, unknown> }>)) {
            if (!model.fields.children || !model.fields.parent) continue;
            await requests.run('rest-list-include', model.name);
            await requests.run('rpc-findMany', model.name);
        }
        result.touchAllMs = now() - t;
        result.heapMiB.afterAll = heapMiB();
    }
    await prisma.$disconnect();
    process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
    () => process.exit(0),
    (err: unknown) => {
        process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exit(1);
    },
);
