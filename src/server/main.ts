/**
 * The demo behind `npm start`: the blog schema of schema.zmodel served over Express, RPC at /api/rpc and
 * JSON:API at /api/rest, on SQLite (dev.db), or on PostgreSQL with DEMO_DATABASE_URL. The per-request user
 * comes from the DEMO-ONLY header `x-user-id`; a real application takes it from its session or token.
 *
 * Environment: PORT (default 3000; 0 picks a free one), HOST (default 127.0.0.1: the demo trusts a header for
 * who the user is, so it answers this machine only unless told otherwise), DEMO_DB (the SQLite file), DEMO_DATABASE_URL
 * (PostgreSQL), DEMO_PUBLIC_URL (the base URL clients reach, for JSON:API links behind a load balancer).
 * SIGTERM/SIGINT stop it gracefully (./lifecycle.ts).
 */
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '@prisma/client';
import { enhance } from '@zenstackhq/runtime';
import express from 'express';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ZenStackMiddleware } from '../adapters/express';
import { withTransactionCleanup } from '../driver/transaction-cleanup';
import { RestApiHandler } from '../api/rest';
import { RPCApiHandler } from '../api/rpc';
import { fail, listenFailure, portFromEnv, stopOnSignals } from './lifecycle';

interface DemoDatabase {
    /** What the start-up line says it serves. */
    label: string;
    client: { $disconnect(): Promise<void> };
    /** The policy-enforcing client for a user (undefined: anonymous). */
    enhanced: (user: { id: number } | undefined) => unknown;
}

function openDatabase(): DemoDatabase {
    const url = process.env.DEMO_DATABASE_URL;
    if (url) {
        // the handlers keep no state: instances on one PostgreSQL database scale out behind a load balancer
        // loaded only here: it generates (or finds cached) the schema's PostgreSQL client
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { openPostgres } = require('../../scripts/demo-postgres') as typeof import('../../scripts/demo-postgres');
        const pg = openPostgres(url);
        return { label: `PostgreSQL database "${pg.name}"`, client: pg.prisma, enhanced: (user) => pg.enhance(pg.prisma, { user }) };
    }
    const dbFile = path.resolve(__dirname, '../..', process.env.DEMO_DB ?? 'dev.db');
    // WAL journal (set when the database is created) plus a busy timeout: concurrent writers wait instead of failing;
    // withTransactionCleanup releases a transaction whose COMMIT/ROLLBACK fails (Prisma 6 would keep it locked)
    const prisma = new PrismaClient({ adapter: withTransactionCleanup(new PrismaBetterSQLite3({ url: `file:${dbFile}`, timeout: 5000 })) });
    return { label: `SQLite ${path.relative(process.cwd(), dbFile)}`, client: prisma, enhanced: (user) => enhance(prisma, { user }) };
}

/** DEMO ONLY: trusts a header. Replace with your session/JWT lookup. */
function demoUser(req: express.Request): { id: number } | undefined {
    const raw = req.header('x-user-id');
    const id = raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
    return id === undefined ? undefined : { id };
}

const requestedPort = portFromEnv();
const db = openDatabase();
const app = express();
const getPrisma = (req: express.Request) => db.enhanced(demoUser(req));

// anyone who reaches the demo can claim any user (x-user-id): loopback only, unless HOST says otherwise
const host = process.env.HOST || '127.0.0.1';
const server = app.listen(requestedPort, host, () => {
    const { port } = server.address() as AddressInfo;
    const base = (process.env.DEMO_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
    // the demo turns on the RPC limits (off by default for drop-in compatibility)
    app.use('/api/rpc', ZenStackMiddleware({ getPrisma, handler: RPCApiHandler({ maxTake: 1000, maxDepth: 12 }) }));
    app.use('/api/rest', ZenStackMiddleware({ getPrisma, handler: RestApiHandler({ endpoint: `${base}/api/rest` }) }));
    app.get('/', (_req, res) => {
        res.json({
            rpc: `${base}/api/rpc/post/findMany`,
            rest: `${base}/api/rest/post`,
            note: 'demo: send header x-user-id: 1|2|3 to act as a seeded user',
        });
    });
    // eslint-disable-next-line no-console
    console.log(`zenstack-api demo on http://localhost:${port} with ${db.label}  (RPC: /api/rpc, REST: /api/rest; demo user header: x-user-id)`);
});

server.once('error', (err: NodeJS.ErrnoException) => fail(listenFailure(err, requestedPort)));
stopOnSignals(server, () => db.client.$disconnect());
