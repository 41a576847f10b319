/**
 * The demo behind `npm start`: the blog schema of schema.zmodel served over Express on SQLite,
 * RPC at /api/rpc and JSON:API at /api/rest. The per-request user comes from the DEMO-ONLY header
 * `x-user-id`; a real application takes it from its session or token.
 */
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '@prisma/client';
import { enhance } from '@zenstackhq/runtime';
import express from 'express';
import path from 'node:path';
import { ZenStackMiddleware } from '../adapters/express';
import { withTransactionCleanup } from '../driver/transaction-cleanup';
import { RestApiHandler } from '../api/rest';
import { RPCApiHandler } from '../api/rpc';

const port = Number(process.env.PORT ?? 3000);
const dbFile = path.resolve(__dirname, '../..', process.env.DEMO_DB ?? 'dev.db');

// WAL journal (set when the database is created) plus a busy timeout: concurrent writers wait instead of failing;
// withTransactionCleanup releases a transaction whose COMMIT/ROLLBACK fails (Prisma 6 would keep it locked)
const adapter = withTransactionCleanup(new PrismaBetterSQLite3({ url: `file:${dbFile}`, timeout: 5000 }));
const prisma = new PrismaClient({ adapter });

/** DEMO ONLY: trusts a header. Replace with your session/JWT lookup. */
function demoUser(req: express.Request): { id: number } | undefined {
    const raw = req.header('x-user-id');
    const id = raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
    return id === undefined ? undefined : { id };
}

const app = express();
const getPrisma = (req: express.Request) => enhance(prisma, { user: demoUser(req) });

// the demo turns on the RPC limits (off by default for drop-in compatibility)
app.use('/api/rpc', ZenStackMiddleware({ getPrisma, handler: RPCApiHandler({ maxTake: 1000, maxDepth: 12 }) }));
app.use('/api/rest', ZenStackMiddleware({ getPrisma, handler: RestApiHandler({ endpoint: `http://localhost:${port}/api/rest` }) }));
app.get('/', (_req, res) => {
    res.json({
        rpc: `http://localhost:${port}/api/rpc/post/findMany`,
        rest: `http://localhost:${port}/api/rest/post`,
        note: 'demo: send header x-user-id: 1|2|3 to act as a seeded user',
    });
});

const server = app.listen(port, () => {
    // eslint-disable-next-line no-console
    console.log(`zenstack-api demo on http://localhost:${port}  (RPC: /api/rpc, REST: /api/rest; demo user header: x-user-id)`);
});

function shutdown(): void {
    server.close(() => {
        void prisma.$disconnect().finally(() => process.exit(0));
    });
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
