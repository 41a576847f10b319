import path from 'node:path';
import type { ParsedRequest, Reply } from './http';
import { floorHandlers } from './floor';
import { floorOursHandlers } from './floor-ours';

/**
 * The implementations behind one calling convention: `(parsed request, enhanced client) →
 * reply`. Used by the bench servers and by the in-process decomposition (`npm run bench:decompose`).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Client = any;
export type Mounted = { rest: (req: ParsedRequest, db: Client) => Promise<Reply>; rpc: (req: ParsedRequest, db: Client) => Promise<Reply> };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ApiHandler = (ctx: any) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;

const ENDPOINT = 'http://localhost/api/rest';
/** Same options for both REST handlers; pageSize 1000 lets the 1,000-row page through (the default caps at 100). */
const REST_OPTIONS = { endpoint: ENDPOINT, pageSize: 1000 };

export interface Generated {
    modelMeta: unknown;
    zodSchemas: unknown;
}

export interface Database extends Generated {
    prisma: Client;
    /** `enhance(prisma, context)` of the generated ZenStack output. */
    enhance: (prisma: Client, context: unknown) => Client;
}

/**
 * Opens `location` with the generated Prisma client in `generatedDir` and loads the ZenStack output beside
 * it. A `postgresql://` URL is opened with the node-postgres driver adapter (a pool of 10, the bench's
 * connections); anything else is a SQLite file, opened with the better-sqlite3 adapter and
 * `synchronous = NORMAL` (the file is in WAL mode, the usual production pairing, and the write scenarios
 * then measure software rather than fsync latency).
 */
export async function openDatabase(generatedDir: string, location: string, oursDist?: string): Promise<Database> {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { PrismaClient } = require(path.join(generatedDir, 'prisma-client'));
    const { enhance } = require(path.join(generatedDir, 'zenstack', 'enhance.js'));
    const modelMeta = require(path.join(generatedDir, 'zenstack', 'model-meta.js')).default;
    const zodSchemas = require(path.join(generatedDir, 'zenstack', 'zod', 'index.js'));
    // the driver set-up the README recommends, for all implementations alike: from the compiled package
    // in a bench server, from the sources (the in-process decomposition)
    const { withTransactionCleanup } = oursDist
        ? require(path.join(oursDist, 'driver', 'transaction-cleanup.js'))
        : require('../../src/driver/transaction-cleanup');
    if (/^postgres(ql)?:\/\//.test(location)) {
        const { PrismaPg } = require('@prisma/adapter-pg');
        const prisma = new PrismaClient({ adapter: withTransactionCleanup(new PrismaPg({ connectionString: location, max: 10 })) });
        await prisma.$connect();
        return { prisma, enhance, modelMeta, zodSchemas };
    }
    const { PrismaBetterSQLite3 } = require('@prisma/adapter-better-sqlite3');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const prisma = new PrismaClient({ adapter: withTransactionCleanup(new PrismaBetterSQLite3({ url: `file:${location}` })) });
    await prisma.$connect();
    await prisma.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
    return { prisma, enhance, modelMeta, zodSchemas };
}

/** `ours` is loaded from `oursDist` (compiled zenstack-api), `upstream` from @zenstackhq/server. */
export function mount(impl: string, generated: Generated, oursDist?: string): Mounted {
    if (impl === 'floor') return floorHandlers;
    if (impl === 'floor-ours') return floorOursHandlers;
    let rest: ApiHandler;
    let rpc: ApiHandler;
    /* eslint-disable @typescript-eslint/no-require-imports */
    if (impl === 'ours') {
        if (!oursDist) throw new Error('the compiled zenstack-api folder is not given');
        rest = require(path.join(oursDist, 'api', 'rest')).RestApiHandler(REST_OPTIONS);
        rpc = require(path.join(oursDist, 'api', 'rpc')).RPCApiHandler();
    } else if (impl === 'upstream') {
        rest = require('@zenstackhq/server/api/rest').RestApiHandler(REST_OPTIONS);
        rpc = require('@zenstackhq/server/api/rpc').RPCApiHandler();
    } else {
        throw new Error(`unknown implementation "${impl}"`);
    }
    /* eslint-enable @typescript-eslint/no-require-imports */
    const adapt =
        (handler: ApiHandler) =>
        async (req: ParsedRequest, db: Client): Promise<Reply> =>
            handler({
                method: req.method,
                path: req.path,
                query: req.query,
                requestBody: req.body,
                prisma: db,
                modelMeta: generated.modelMeta,
                zodSchemas: generated.zodSchemas,
            });
    return { rest: adapt(rest), rpc: adapt(rpc) };
}
