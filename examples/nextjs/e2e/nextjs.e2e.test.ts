import path from 'node:path';
import { build, createDatabase, describeBlogApi, freePort, startServer, type Seeded } from '../../e2e/support';

/** Builds the Next.js example (`next build`), starts it with `next start` and talks to it over HTTP. */
const APP = path.resolve(__dirname, '..');

let ctx: { base: string; rpc: string; rest: string; prisma: any; seeded: Seeded };
let cleanup: Array<() => Promise<void>> = [];

beforeAll(async () => {
    build(APP, 'next', ['build']);
    const db = await createDatabase();
    cleanup.push(db.drop);
    const port = await freePort();
    const server = await startServer(APP, 'next', ['start', '-p', String(port), '-H', '127.0.0.1'], port, {
        DATABASE_URL: `file:${db.file}`,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    cleanup.unshift(server.stop);
    ctx = { base: `http://127.0.0.1:${port}`, rpc: '/api/model', rest: '/api/rest', prisma: db.prisma, seeded: db.seeded };
});

afterAll(async () => {
    for (const fn of cleanup) await fn();
    cleanup = [];
});

describe('examples/nextjs (App Router, production build)', () => {
    describeBlogApi(() => ctx);
});
