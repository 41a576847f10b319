/**
 * One benchmark server process: `node main.js` with
 *   BENCH_IMPL       ours | upstream | floor | floor-ours
 *   BENCH_DB         SQLite file this process owns
 *   BENCH_GENERATED  folder of the generated Prisma client and ZenStack output
 *   BENCH_OURS_DIST  compiled zenstack-api (for BENCH_IMPL=ours)
 *   BENCH_LOG_CALLS  1 = print every ORM call the handler makes (to check the floor's parity)
 * Listens on an ephemeral port and prints `listening <port>` once ready.
 */
import http from 'node:http';
import { BadBody, parseRequest, send, splitUrl } from './http';
import { mount, openDatabase, type Client, type Mounted } from './mount';
import { logCalls } from './trace';

function env(name: string): string {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
}

async function main(): Promise<void> {
    const impl = env('BENCH_IMPL');
    const { prisma, enhance, modelMeta, zodSchemas } = await openDatabase(env('BENCH_GENERATED'), env('BENCH_DB'), env('BENCH_OURS_DIST'));

    // the same per-request client for all three: the policy-enhanced client of the signed-in user
    const clientFor = (userId: number | undefined): Client => {
        const db = enhance(prisma, userId === undefined ? {} : { user: { id: userId } });
        return process.env.BENCH_LOG_CALLS === '1' ? logCalls(db) : db;
    };

    const mounted: Mounted = mount(impl, { modelMeta, zodSchemas }, process.env.BENCH_OURS_DIST);

    // requests still being handled: the load generator abandons its in-flight requests when a run
    // ends, and the next run must not share the CPU with them
    let inflight = 0;
    // requests finished, for the CPU time per request
    let handled = 0;
    const server = http.createServer((req, res) => {
        if (req.url === '/__bench/stats') {
            const cpu = process.cpuUsage();
            send(res, { status: 200, body: { inflight, handled, cpuUs: cpu.user + cpu.system } });
            return;
        }
        if (req.url === '/__bench/now') {
            // the monotonic clock V8 stamps profile samples with, in µs: lets the profiler keep only the load
            send(res, { status: 200, body: { now: Number(process.hrtime.bigint() / 1000n) } });
            return;
        }
        const url = splitUrl(req.url ?? '/');
        if (!url) {
            send(res, { status: 404, body: { error: 'not found' } });
            return;
        }
        inflight++;
        parseRequest(req, url.path, url.search)
            .then((parsed) => mounted[url.mount as keyof Mounted](parsed, clientFor(parsed.userId)))
            .then(
                (reply) => send(res, reply),
                (err: unknown) => {
                    const status = err instanceof BadBody ? 400 : 500;
                    if (status === 500) process.stderr.write(`[${impl}] ${(err as Error)?.stack ?? String(err)}\n`);
                    send(res, { status, body: { error: status === 400 ? 'bad request' : 'internal error' } });
                },
            )
            .finally(() => {
                inflight--;
                handled++;
            });
    });
    server.keepAliveTimeout = 60_000;

    const stop = () => {
        server.close();
        // a normal exit lets `node --cpu-prof` write its profile
        prisma.$disconnect().finally(() => process.exit(0));
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);

    server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        process.stdout.write(`listening ${port}\n`);
    });
}

main().catch((err) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
});
