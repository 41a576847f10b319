import { type ChildProcess, execFile, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { GenerateJob } from './generate-job';
import type { DaemonAnswer } from './generate-daemon';

/**
 * The processes that generate test schemas: a daemon per jest worker while jest runs (`startGenerators`, from the
 * global set-up), otherwise a process per schema. A job a daemon cannot do (none is running, it died, the tools
 * failed in it) is done again in a process of its own, which reports the tools' own errors.
 */

export const PROJECT_ROOT = path.resolve(__dirname, '../..');
export const CACHE_ROOT = path.join(PROJECT_ROOT, '.zenstack-test');
/** The daemons' sockets, for the jest workers (which inherit the environment of the process that started them). */
const SOCKETS_ENV = 'ZSAPI_TEST_GENERATOR_SOCKETS';
/** `node -r <this>` runs the project's TypeScript (`scripts/ts-register.js`: ts-node's transpile-only, kept on disk). */
export const TS_REGISTER = path.join(PROJECT_ROOT, 'scripts/ts-register.js');
/**
 * A generous bound: a schema takes seconds, tens of seconds on a loaded machine. `ZSAPI_GENERATE_TIMEOUT_MS` raises
 * it for schemas far larger than the tests' (the cold-start benchmark's 300 models took over 10 minutes on 2 cores).
 */
const jobTimeoutMs = () => (Number(process.env.ZSAPI_GENERATE_TIMEOUT_MS) > 0 ? Number(process.env.ZSAPI_GENERATE_TIMEOUT_MS) : 10 * 60_000);

/**
 * A folder holding an `npx` that runs `npx prisma …` with the project's Prisma CLI directly, and anything else
 * with the real `npx`. ZenStack runs `npx prisma generate` through a shell for every schema; npm's own start
 * cost about 0.5 s of the 10-12 s a schema took on 2 cores. It lives in the cache folder, written once (jest
 * evaluates this module afresh for every test file).
 */
function npxShim(): string {
    const dir = path.join(CACHE_ROOT, 'npx-shim');
    const file = path.join(dir, 'npx');
    if (fs.existsSync(file)) return dir;
    const prismaCli = path.join(PROJECT_ROOT, 'node_modules/prisma/build/index.js');
    const realNpx = (process.env.PATH ?? '')
        .split(path.delimiter)
        .map((d) => path.join(d, 'npx'))
        .find((f) => fs.existsSync(f));
    const script = [
        '#!/bin/sh',
        `if [ "$1" = prisma ]; then shift; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(prismaCli)} "$@"; fi`,
        realNpx ? `exec ${JSON.stringify(realNpx)} "$@"` : 'echo "npx not found" >&2; exit 127',
        '',
    ].join('\n');
    fs.mkdirSync(dir, { recursive: true });
    // written whole under another name, then renamed: a worker racing this one never runs half a script
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, script, { mode: 0o755 });
    fs.renameSync(partial, file);
    return dir;
}

/** The environment the tools run in. DATABASE_URL: the Prisma CLI opens prisma.config.ts's adapter; keep it off the demo's dev.db. */
function toolEnv(): NodeJS.ProcessEnv {
    return {
        ...process.env,
        PATH: `${npxShim()}${path.delimiter}${process.env.PATH ?? ''}`,
        ZENSTACK_DISABLE_TELEMETRY: '1',
        DO_NOT_TRACK: '1',
        CHECKPOINT_DISABLE: '1',
        DATABASE_URL: ':memory:',
    };
}

const processOptions = () => ({
    cwd: PROJECT_ROOT,
    encoding: 'utf8' as const,
    env: toolEnv(),
    maxBuffer: 64 * 1024 * 1024,
    timeout: jobTimeoutMs(),
});

const oneShotArgs = (job: GenerateJob) => ['-r', TS_REGISTER, path.join(__dirname, 'generate-child.ts'), JSON.stringify(job)];

function failure(err: unknown): Error {
    const e = err as { stdout?: string; stderr?: string; message?: string };
    return new Error(`zenstack generate failed:\n${e.stdout ?? ''}\n${e.stderr ?? e.message ?? ''}`);
}

function runOneShot(job: GenerateJob): void {
    try {
        execFileSync(process.execPath, oneShotArgs(job), { ...processOptions(), stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
        throw failure(err);
    }
}

function runOneShotAsync(job: GenerateJob): Promise<void> {
    return new Promise((resolve, reject) => {
        execFile(process.execPath, oneShotArgs(job), processOptions(), (err, stdout, stderr) => {
            if (err) reject(failure(Object.assign(err, { stdout, stderr })));
            else resolve();
        });
    });
}

/** This worker's daemon: jest numbers its workers from 1. */
function daemonSocket(index?: number): string | undefined {
    const sockets = (process.env[SOCKETS_ENV] ?? '').split(path.delimiter).filter(Boolean);
    if (sockets.length === 0) return undefined;
    const i = index ?? Math.max(0, Number(process.env.JEST_WORKER_ID ?? '1') - 1);
    return sockets[i % sockets.length];
}

/** A job sent to a daemon and its answer, over the socket; rejects when the daemon cannot be reached or dies. */
function askDaemon(socketPath: string, job: GenerateJob): Promise<DaemonAnswer> {
    return new Promise((resolve, reject) => {
        let received = '';
        const socket = net.createConnection(socketPath, () => socket.write(`${JSON.stringify(job)}\n`));
        socket.setEncoding('utf8');
        socket.setTimeout(jobTimeoutMs(), () => socket.destroy(new Error('generator daemon timed out')));
        socket.on('data', (chunk: string) => (received += chunk));
        socket.on('error', reject);
        socket.on('end', () => {
            try {
                resolve(JSON.parse(received) as DaemonAnswer);
            } catch {
                reject(new Error('generator daemon ended without an answer'));
            }
        });
    });
}

/** The same, for a synchronous caller: a small client process waits for the answer (exit 0 when generated). */
const SYNC_CLIENT = `
const [socketPath, job] = process.argv.slice(1);
const socket = require('node:net').createConnection(socketPath, () => socket.write(job + '\\n'));
let received = '';
socket.setEncoding('utf8');
socket.on('data', (chunk) => (received += chunk));
socket.on('error', () => process.exit(3));
socket.on('end', () => { try { process.exit(JSON.parse(received).ok ? 0 : 1); } catch { process.exit(3); } });
`;

function askDaemonSync(socketPath: string, job: GenerateJob): boolean {
    try {
        execFileSync(process.execPath, ['-e', SYNC_CLIENT, socketPath, JSON.stringify(job)], { stdio: 'ignore', timeout: jobTimeoutMs() });
        return true;
    } catch {
        return false;
    }
}

/** Told on the test output: a daemon that fails a job the tools can do costs a schema's time again. */
function retrying(job: GenerateJob): void {
    process.stderr.write(`The test schema generator daemon did not generate ${job.schemaFile}; generating it in a process of its own\n`);
}

/**
 * Runs a generation job, on this worker's daemon when there is one. `reset` empties the job's folder but for its
 * schema before a second attempt.
 */
export function runJob(job: GenerateJob, reset: () => void): void {
    const socket = daemonSocket();
    if (socket) {
        if (askDaemonSync(socket, job)) return;
        retrying(job);
        reset();
    }
    runOneShot(job);
}

/** The same, without blocking; `daemon` picks a daemon by number instead of by jest worker. */
export async function runJobAsync(job: GenerateJob, reset: () => void, daemon?: number): Promise<void> {
    const socket = daemonSocket(daemon);
    if (socket) {
        const answer = await askDaemon(socket, job).catch(() => undefined);
        if (answer?.ok) return;
        retrying(job);
        reset();
    }
    await runOneShotAsync(job);
}

interface Daemons {
    children: ChildProcess[];
    sockets: string[];
}
const DAEMONS = Symbol.for('zenstack-api.test-generator-daemons');
type WithDaemons = typeof globalThis & { [DAEMONS]?: Daemons };

/**
 * Starts `count` daemons and tells the jest workers started afterwards where they listen. A daemon that does not
 * start is reported, and the run goes on without daemons (a process per schema).
 */
export async function startGenerators(count: number): Promise<void> {
    const sockets = Array.from({ length: count }, (_, i) => path.join(os.tmpdir(), `zsapi-gen-${process.pid}-${i}.sock`));
    const children = sockets.map((socket) =>
        fork(path.join(__dirname, 'generate-daemon.ts'), [socket], {
            cwd: PROJECT_ROOT,
            env: toolEnv(),
            execArgv: ['-r', TS_REGISTER],
            stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        }),
    );
    (globalThis as WithDaemons)[DAEMONS] = { children, sockets };
    const ready = (child: ChildProcess) =>
        new Promise<void>((resolve, reject) => {
            child.once('message', () => resolve());
            child.once('error', reject);
            child.once('exit', (code) => reject(new Error(`a test schema generator daemon exited (${code}) before it was ready`)));
        });
    try {
        await Promise.all(children.map(ready));
    } catch (err) {
        stopGenerators();
        process.stderr.write(`${(err as Error).message}; generating each test schema in a process of its own\n`);
        return;
    }
    for (const child of children) {
        child.removeAllListeners('exit');
        child.removeAllListeners('error');
        // the daemons must not keep jest's own process alive
        child.unref();
        child.channel?.unref();
    }
    process.env[SOCKETS_ENV] = sockets.join(path.delimiter);
}

/** Stops the daemons `startGenerators` started in this process. */
export function stopGenerators(): void {
    const daemons = (globalThis as WithDaemons)[DAEMONS];
    if (!daemons) return;
    for (const child of daemons.children) child.kill();
    for (const socket of daemons.sockets) fs.rmSync(socket, { force: true });
    delete (globalThis as WithDaemons)[DAEMONS];
    delete process.env[SOCKETS_ENV];
}
