import { connectSchema } from '../../support/generated';
import { startApi } from './server';

/**
 * One server process of `scale-out.test.ts` (run bundled, see `server-processes.ts`): serves both handlers
 * through the Express adapter (`startApi`) over its own Prisma client and pool on the PostgreSQL database
 * `SCALE_DATABASE_URL` (or its own connection to that SQLite file, with the busy timeout `SCALE_SQLITE_TIMEOUT`
 * ms when set), with the client generated in `SCALE_GENERATED_DIR`, as another instance behind a load
 * balancer would. Sends `{ origin }` once listening; on `stop`, sends `{ logs }` (what its handlers logged),
 * closes and exits.
 */
async function main(): Promise<void> {
    const { SCALE_DATABASE_URL: url, SCALE_GENERATED_DIR: dir, SCALE_SQLITE_TIMEOUT: timeout } = process.env;
    if (!url || !dir) throw new Error('SCALE_DATABASE_URL and SCALE_GENERATED_DIR must be set');
    // as the one-process load test: a patient client, so that 503s measure the handlers, not the machine
    const transactionOptions = { maxWait: 60_000, timeout: 60_000 };
    const s = await connectSchema(dir, url, { transactionOptions, sqlite: timeout ? { timeout: Number(timeout) } : undefined });
    const api = await startApi(s);
    process.on('message', (m) => {
        if (m !== 'stop') return;
        void api
            .close()
            .then(() => s.cleanup())
            .finally(() => process.send!({ logs: api.logs }, () => process.exit(0)));
    });
    process.send!({ origin: api.origin });
}

main().catch((err) => {
    process.send?.({ error: String((err as Error)?.stack ?? err) });
    process.exit(1);
});
