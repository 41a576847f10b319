import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateSchema } from '../../tests/support/generate';
import { BLOG_SCHEMA_TEXT } from '../../tests/support/blog-text';

export const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** Seeded rows the checks rely on. */
export interface Seeded {
    alice: number;
    bob: number;
    published: number;
    draft: number;
}

/**
 * A fresh SQLite database with the blog tables, seeded through the Prisma client ZenStack generated into
 * node_modules (the one the apps use). Returns its file, the raw client and the seeded ids.
 */
export async function createDatabase(): Promise<{ file: string; prisma: any; seeded: Seeded; drop: () => Promise<void> }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zenstack-api-e2e-'));
    const file = path.join(dir, 'app.db');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3');
    const db = new Database(file);
    db.exec(generateSchema(BLOG_SCHEMA_TEXT, 'sqlite').ddl);
    db.close();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PrismaClient } = require('@prisma/client');
    const { PrismaBetterSQLite3 } = await import('@prisma/adapter-better-sqlite3');
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }) });
    const alice = await prisma.user.create({ data: { email: 'alice@example.com', name: 'Alice' } });
    const bob = await prisma.user.create({ data: { email: 'bob@example.com', name: 'Bob' } });
    const published = await prisma.post.create({ data: { title: 'Hello', published: true, authorId: alice.id } });
    const draft = await prisma.post.create({ data: { title: 'Draft', authorId: alice.id } });
    return {
        file,
        prisma,
        seeded: { alice: alice.id, bob: bob.id, published: published.id, draft: draft.id },
        drop: async () => {
            await prisma.$disconnect();
            fs.rmSync(dir, { recursive: true, force: true });
        },
    };
}

/** Runs a build command of an example; throws with its output when it fails. */
export function build(cwd: string, command: string, args: string[], env: Record<string, string> = {}): void {
    const res = spawnSync(path.join(BIN, command), args, {
        cwd,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CI: '1', NODE_ENV: 'production', ...env },
        encoding: 'utf8',
        timeout: 540000,
    });
    if (res.status !== 0) {
        throw new Error(`${command} ${args.join(' ')} failed (${res.status ?? res.signal}):\n${res.stdout}\n${res.stderr}`);
    }
}

export function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const { port } = server.address() as net.AddressInfo;
            server.close(() => resolve(port));
        });
    });
}

/** Starts a production server and waits until it answers on `port`. */
export async function startServer(cwd: string, command: string, args: string[], port: number, env: Record<string, string>): Promise<{ stop: () => Promise<void>; output: () => string }> {
    const child: ChildProcess = spawn(path.join(BIN, command), args, {
        cwd,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
    });
    let output = '';
    child.stdout!.on('data', (c) => (output += String(c)));
    child.stderr!.on('data', (c) => (output += String(c)));
    const stop = () =>
        new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.on('exit', () => resolve());
            process.kill(-child.pid!, 'SIGTERM'); // the server's own process group only
        });
    const deadline = Date.now() + 60000;
    for (;;) {
        if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}):\n${output}`);
        try {
            await fetch(`http://127.0.0.1:${port}/`);
            break;
        } catch {
            if (Date.now() > deadline) {
                await stop();
                throw new Error(`${command} did not answer on port ${port}:\n${output}`);
            }
            await new Promise((r) => setTimeout(r, 250));
        }
    }
    return { stop, output: () => output };
}

interface Res {
    status: number;
    type: string | null;
    text: string;
    body: any;
}

async function call(base: string, method: string, url: string, init: { user?: number; body?: string; type?: string } = {}): Promise<Res> {
    const headers: Record<string, string> = {};
    if (init.user) headers['x-user-id'] = String(init.user);
    if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
    const res = await fetch(`${base}${url}`, { method, headers, body: init.body });
    const text = await res.text();
    let body: any;
    try {
        body = text ? JSON.parse(text) : undefined;
    } catch {
        body = undefined;
    }
    return { status: res.status, type: res.headers.get('content-type'), text, body };
}

/**
 * The checks each example app must pass over real HTTP: RPC and REST reads and writes with per-request
 * users, a policy denial, a malformed body, a 204.
 */
export function describeBlogApi(ctx: () => { base: string; rpc: string; rest: string; prisma: any; seeded: Seeded }): void {
    const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));

    it('RPC read: drafts only for their author', async () => {
        const { base, rpc, seeded } = ctx();
        const url = `${rpc}/post/findMany?q=${q({ orderBy: { id: 'asc' } })}`;
        const anonymous = await call(base, 'GET', url);
        expect(anonymous.status).toBe(200);
        expect(anonymous.body.data.map((p: any) => p.title)).toEqual(['Hello']);
        const alice = await call(base, 'GET', url, { user: seeded.alice });
        expect(alice.body.data.map((p: any) => p.title)).toEqual(['Hello', 'Draft']);
    });

    it('RPC write: 201, persisted; a forged author is denied with 403', async () => {
        const { base, rpc, seeded, prisma } = ctx();
        const created = await call(base, 'POST', `${rpc}/post/create`, { user: seeded.alice, body: JSON.stringify({ data: { title: 'From e2e', authorId: seeded.alice } }) });
        expect(created.status).toBe(201);
        expect(created.body.data.title).toBe('From e2e');
        const forged = await call(base, 'POST', `${rpc}/post/create`, { user: seeded.bob, body: JSON.stringify({ data: { title: 'Forged', authorId: seeded.alice } }) });
        expect(forged.status).toBe(403);
        expect(forged.body.error.rejectedByPolicy).toBe(true);
        expect(await prisma.post.count({ where: { title: 'From e2e' } })).toBe(1);
        expect(await prisma.post.count({ where: { title: 'Forged' } })).toBe(0);
    });

    it('malformed body: 400 in the protocol format', async () => {
        const { base, rpc, rest, seeded } = ctx();
        const bad = await call(base, 'POST', `${rpc}/post/create`, { user: seeded.alice, body: '{"data":' });
        expect(bad.status).toBe(400);
        expect(bad.body.error.message).toMatch(/JSON/);
        const badRest = await call(base, 'POST', `${rest}/post`, { user: seeded.alice, body: '{"data":', type: 'application/vnd.api+json' });
        expect(badRest.status).toBe(400);
        expect(badRest.type).toBe('application/vnd.api+json');
        expect(badRest.body.errors[0].status).toBe(400);
    });

    it('REST read and write: application/vnd.api+json both ways', async () => {
        const { base, rest, seeded } = ctx();
        const read = await call(base, 'GET', `${rest}/post/${seeded.published}`);
        expect(read.status).toBe(200);
        expect(read.type).toBe('application/vnd.api+json');
        expect(read.body.data.attributes.title).toBe('Hello');
        const payload = { data: { type: 'post', attributes: { title: 'Via JSON:API' }, relationships: { author: { data: { type: 'user', id: String(seeded.alice) } } } } };
        const created = await call(base, 'POST', `${rest}/post`, { user: seeded.alice, body: JSON.stringify(payload), type: 'application/vnd.api+json' });
        expect(created.status).toBe(201);
        expect(created.body.data.attributes.title).toBe('Via JSON:API');
    });

    it('REST delete: 403 for another user, then 204 with no body for the author', async () => {
        const { base, rest, seeded, prisma } = ctx();
        const denied = await call(base, 'DELETE', `${rest}/post/${seeded.published}`, { user: seeded.bob });
        expect(denied.status).toBe(403);
        expect(denied.body.errors[0].status).toBe(403);
        const deleted = await call(base, 'DELETE', `${rest}/post/${seeded.draft}`, { user: seeded.alice });
        expect(deleted.status).toBe(204);
        expect(deleted.text).toBe('');
        expect(await prisma.post.findUnique({ where: { id: seeded.draft } })).toBeNull();
        expect(await prisma.post.findUnique({ where: { id: seeded.published } })).not.toBeNull();
    });
}

/** How to build an example app and serve its production build on a port. */
export interface ExampleApp {
    dir: string;
    build: [command: string, args: string[]];
    serve: (port: number) => [command: string, args: string[]];
}

/**
 * The whole end-to-end suite of an example: builds it, starts it on a free port against a fresh seeded
 * database, runs the blog API checks over HTTP, then stops the server and drops the database.
 */
export function describeExampleApp(title: string, app: ExampleApp): void {
    let ctx: { base: string; rpc: string; rest: string; prisma: any; seeded: Seeded };
    let cleanup: Array<() => Promise<void>> = [];

    beforeAll(async () => {
        build(app.dir, ...app.build);
        const db = await createDatabase();
        cleanup.push(db.drop);
        const port = await freePort();
        const [command, args] = app.serve(port);
        const server = await startServer(app.dir, command, args, port, {
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

    describe(title, () => {
        describeBlogApi(() => ctx);
    });
}
