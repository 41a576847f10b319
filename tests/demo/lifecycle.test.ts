import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, TS_REGISTER } from '../support/generate';
import { setupDemoDb, startDemo, type RunningDemo } from './support';

/**
 * The demo server as an operator meets it: a port already in use, a stop (SIGTERM) while requests are in
 * flight or hang, `npm start` stopped by a process manager, and a data directory that does not exist.
 */

const dbFile = path.join(PROJECT_ROOT, '.zenstack-test', 'db', `life-${randomBytes(6).toString('hex')}.db`);
const env = { DEMO_DB: dbFile };
let demo: RunningDemo | undefined;

beforeAll(async () => {
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    expect((await setupDemoDb(env)).status).toBe(0);
});
afterAll(async () => {
    await demo?.stop();
    for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
});

/** Runs `main.ts` as `npm start` does to its end (or kills it after 60 s). */
function runDemo(extra: Record<string, string>): Promise<{ status: number | null; output: string }> {
    const child = spawn(process.execPath, ['-r', TS_REGISTER, path.join(PROJECT_ROOT, 'src/server/main.ts')], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    return new Promise((resolve) => child.once('close', (status) => (clearTimeout(timer), resolve({ status, output }))));
}

/** Opens a connection and sends a POST whose body stops after `sent` of its bytes. */
function partialPost(base: string, body: string, sent: number): Promise<net.Socket> {
    const { port } = new URL(base);
    return new Promise((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
            socket.write(
                `POST /api/rpc/post/create HTTP/1.1\r\nHost: localhost\r\nx-user-id: 1\r\ncontent-type: application/json\r\n` +
                    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, sent)}`,
            );
            resolve(socket);
        });
        socket.once('error', reject);
    });
}

function received(socket: net.Socket): Promise<string> {
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString()));
    return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

function listening(port: string, host = '127.0.0.1'): Promise<boolean> {
    return new Promise((resolve) => {
        const socket = net.connect(Number(port), host, () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
    });
}

it('says in one line that the port is taken, and exits 1', async () => {
    demo = await startDemo(env);
    const run = await runDemo({ PORT: new URL(demo.url).port });
    expect(run.status).toBe(1);
    expect(run.output).toContain(`port ${new URL(demo.url).port} is already in use`);
    expect(run.output).not.toMatch(/\n\s+at /);
});

it('refuses a PORT that is not a port number in one line', async () => {
    const run = await runDemo({ PORT: 'http' });
    expect(run.status).toBe(1);
    expect(run.output).toContain('PORT must be a port number');
    expect(run.output).not.toMatch(/\n\s+at /);
});

it('on SIGTERM answers the request in flight, then exits 0', async () => {
    const body = JSON.stringify({ data: { title: 'sent while stopping', author: { connect: { id: 1 } } }, select: { title: true } });
    const socket = await partialPost(demo!.url, body, 5);
    const answer = received(socket);
    await new Promise((r) => setTimeout(r, 200));
    const stopped = demo!.stop();
    await new Promise((r) => setTimeout(r, 300));
    socket.write(body.slice(5));
    expect(await answer).toMatch(/^HTTP\/1\.1 201[\s\S]*"title":"sent while stopping"/);
    expect(await stopped).toBe(0);
    // closed cleanly: SQLite folded its write-ahead log back into the file
    expect(fs.existsSync(`${dbFile}-wal`)).toBe(false);
    demo = undefined;
});

it('on SIGTERM does not wait for a request that never completes: exits 0 within 15 s', async () => {
    demo = await startDemo(env);
    const socket = await partialPost(demo.url, '{"data":{"title":"never sent"}}', 3);
    socket.on('error', () => undefined);
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([demo.stop(), new Promise((r) => (timer = setTimeout(() => r('still running'), 15_000)))]);
    clearTimeout(timer);
    socket.destroy();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    demo = undefined;
}, 30_000);

it('stops with `npm start` when a process manager sends that npm SIGTERM', async () => {
    // --ignore-scripts: the start script alone, without prestart's generate and set-up (done above)
    const npm = spawn('npm', ['start', '--ignore-scripts'], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...env, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group, so that a server it leaves behind can be stopped below
    });
    let output = '';
    npm.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const port = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not listen:\n${output}`)), 60_000);
        npm.stdout.on('data', (c: Buffer) => {
            output += c.toString();
            const match = /demo on http:\/\/localhost:(\d+)/.exec(output);
            if (!match) return;
            clearTimeout(timer);
            resolve(match[1]);
        });
    });
    const exited = new Promise((r) => npm.once('exit', r));
    npm.kill('SIGTERM');
    await exited;
    let up = true;
    for (let i = 0; i < 50 && up; i++) {
        await new Promise((r) => setTimeout(r, 200));
        up = await listening(port);
    }
    try {
        process.kill(-npm.pid!, 'SIGKILL');
    } catch {
        // the group is gone: nothing was left behind
    }
    expect(up).toBe(false);
});

it('says in one line that the data directory does not exist', async () => {
    const missing = path.join(PROJECT_ROOT, '.zenstack-test', 'db', `no-dir-${randomBytes(4).toString('hex')}`, 'demo.db');
    const setup = await setupDemoDb({ DEMO_DB: missing });
    expect(setup.status).toBe(1);
    expect(setup.output).toContain(`the directory ${path.dirname(path.relative(PROJECT_ROOT, missing))} does not exist`);
    expect(setup.output).not.toMatch(/\n\s+at /);
});

it('answers this machine only unless HOST says otherwise (anyone reaching it can claim a user with x-user-id)', async () => {
    const external = Object.values(os.networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (!external) {
        // eslint-disable-next-line no-console
        console.warn('skipped: this machine has no non-loopback IPv4 address to try');
        return;
    }
    const local = await startDemo(env);
    const port = new URL(local.url).port;
    try {
        expect(await listening(port)).toBe(true);
        expect(await listening(port, external)).toBe(false);
    } finally {
        expect(await local.stop()).toBe(0);
    }
    const open = await startDemo({ ...env, HOST: '0.0.0.0' });
    try {
        expect(await listening(new URL(open.url).port, external)).toBe(true);
    } finally {
        expect(await open.stop()).toBe(0);
    }
});
