/**
 * A generator that stays up for a test run: started by `global-setup.ts` (one per jest worker, at most four),
 * it serves `generate.ts` over a Unix socket and keeps ZenStack, the schema engine and esbuild's service loaded
 * between schemas (a fresh process spent about half of a schema's time loading them). It runs one schema at a
 * time and exits when the jest process that started it goes away.
 *
 * Protocol: one JSON line (a `GenerateJob`) in, one JSON line out: `{ "ok": true }` or `{ "ok": false }`. What the
 * tools print is dropped: a job that fails here is run again in a process of its own, which reports their errors.
 */
import fs from 'node:fs';
import net from 'node:net';
import { runGenerateJob, type GenerateJob } from './generate-job';

export interface DaemonAnswer {
    ok: boolean;
}

/** Runs a job with this process's output silenced (ZenStack reports its progress on stdout and stderr). */
async function answer(line: string): Promise<DaemonAnswer> {
    const write = { out: process.stdout.write, err: process.stderr.write };
    const drop = (() => true) as typeof process.stdout.write;
    process.stdout.write = drop;
    process.stderr.write = drop;
    try {
        await runGenerateJob(JSON.parse(line) as GenerateJob);
        return { ok: true };
    } catch {
        return { ok: false };
    } finally {
        process.stdout.write = write.out;
        process.stderr.write = write.err;
    }
}

const socketPath = process.argv[2];
if (!socketPath) throw new Error('usage: generate-daemon <socket path>');

let queue: Promise<unknown> = Promise.resolve();
const server = net.createServer((socket) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
        received += chunk;
        const end = received.indexOf('\n');
        if (end < 0) return;
        const line = received.slice(0, end);
        received = '';
        const next = queue.then(() => answer(line));
        queue = next;
        void next.then((result) => socket.end(`${JSON.stringify(result)}\n`));
    });
});

fs.rmSync(socketPath, { force: true });
server.listen(socketPath, () => process.send?.('ready'));
// the jest process that started this one is gone (ended, or killed without its teardown)
process.on('disconnect', () => process.exit(0));
