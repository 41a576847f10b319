import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchHandler } from '../../src/adapters/fetch';
import { createNodeHandler } from '../../src/adapters/node';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { HandleRequestFn } from '../../src/types';
import type { TestSchema } from '../support/schema';

export type Protocol = 'rpc' | 'rest';
export type AdapterKind = 'node' | 'fetch';

export interface FuzzCase {
    adapter: AdapterKind;
    method: string;
    path: string;
    search: string;
    body: string | undefined;
    user: number | undefined;
}

export interface FuzzResult {
    status: number;
    text: string;
}

const TABLES = ['User', 'Profile', 'Post', 'Comment', 'AllTypes'];

/** A checksum of every row of every table, read with the raw client. */
export async function tableChecksum(schema: TestSchema): Promise<string> {
    const hash = createHash('sha256');
    for (const table of TABLES) {
        const rows = await schema.prisma.$queryRawUnsafe(`SELECT * FROM "${table}" ORDER BY 1`);
        hash.update(table);
        hash.update(JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
    }
    return hash.digest('hex');
}

/** Seeds a small blog: two users, published and draft posts, comments, a typed row. */
export async function seedBlog(schema: TestSchema): Promise<void> {
    const { prisma } = schema;
    await prisma.user.create({ data: { id: 1, email: 'u1@x', name: 'One', posts: { create: [{ id: 1, title: 'p1', published: true, comments: { create: [{ content: 'c1' }] } }, { id: 2, title: 'draft1' }] } } });
    await prisma.user.create({ data: { id: 2, email: 'u2@x', name: 'Two', posts: { create: [{ id: 3, title: 'p3', published: true }] } } });
    await prisma.allTypes.create({ data: { id: 'sample', bytes: Buffer.from('hi'), bigInt: 5n, decimal: '1.5', json: { a: 1 }, ownerId: 1 } });
    if (schema.provider === 'postgresql') {
        // explicit ids leave PostgreSQL's sequences behind: move them on, or every generated create collides
        for (const table of ['User', 'Post']) {
            await prisma.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT MAX(id) FROM "${table}"))`);
        }
    }
}

/** Serves both handlers through both base adapters: a loopback node:http server and an in-process fetch handler. */
export class FuzzTarget {
    private server?: http.Server;
    /** The last error the handlers logged (the server-side detail of a 5xx). */
    lastError: string | undefined;
    private base = '';
    private readonly fetchHandler: (r: Request) => Promise<Response>;
    private readonly nodeHandler: ReturnType<typeof createNodeHandler>;

    constructor(
        readonly schema: TestSchema,
        readonly protocol: Protocol,
    ) {
        const handler: HandleRequestFn = protocol === 'rpc' ? RPCApiHandler() : RestApiHandler({ endpoint: 'http://localhost/api' });
        const getPrisma = (user: string | null | undefined) => schema.enhance(user && /^\d+$/.test(user) ? { id: Number(user) } : undefined);
        const common = { handler, modelMeta: schema.modelMeta, logger: { error: (message: string) => void (this.lastError = message) } };
        this.fetchHandler = createFetchHandler({ ...common, prefix: '/api', getPrisma: (req) => getPrisma(req.headers.get('x-user-id')) });
        this.nodeHandler = createNodeHandler({ ...common, prefix: '/api', getPrisma: (req) => getPrisma(req.headers['x-user-id'] as string | undefined) });
    }

    /** Returns the last logged error and forgets it. */
    takeLastError(): string | undefined {
        const last = this.lastError;
        this.lastError = undefined;
        return last;
    }

    async start(): Promise<void> {
        // Node's own header limit (16 KiB with the request line) would answer 431 before the adapter
        // sees a long query: raise it so that the adapter's `queryLimit` (414) is what is exercised
        this.server = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => void this.nodeHandler(req, res));
        // the client reuses keep-alive sockets across slow cases: a server closing an idle socket at the
        // default 5 s races with the next request ("fetch failed"), which is not the handler's doing
        this.server.keepAliveTimeout = 120_000;
        await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
        this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    }

    async stop(): Promise<void> {
        await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
    }

    async send(c: FuzzCase): Promise<FuzzResult> {
        const headers: Record<string, string> = { 'content-type': c.adapter === 'fetch' && this.protocol === 'rest' ? 'application/vnd.api+json' : 'application/json' };
        if (c.user !== undefined) headers['x-user-id'] = String(c.user);
        const hasBody = c.body !== undefined && !['GET', 'HEAD'].includes(c.method.toUpperCase());
        const init: RequestInit = { method: c.method, headers, body: hasBody ? c.body : undefined };
        const url = `${c.adapter === 'node' ? this.base : 'http://localhost'}/api${c.path}${c.search}`;
        let response: Response;
        if (c.adapter === 'node') {
            response = await fetch(url, init);
        } else {
            response = await this.fetchHandler(new Request(url, init));
        }
        return { status: response.status, text: await response.text() };
    }
}

/** Checks the shape of an answer; returns a description of what is wrong, or undefined. */
export function checkAnswer(protocol: Protocol, c: FuzzCase, r: FuzzResult): string | undefined {
    if (r.status >= 500) {
        return `5xx answer ${r.status}: ${r.text.slice(0, 300)}`;
    }
    if (r.status === 204) {
        return r.text === '' ? undefined : 'a 204 with a body';
    }
    // a panic of Prisma's query compiler is answered 400, but it disconnected the client and, repeated, breaks it for good
    if (r.text.includes('its query compiler failed')) {
        return `arguments reached the ORM and made its query compiler panic: ${r.text.slice(0, 200)}`;
    }
    let body: Record<string, unknown>;
    try {
        body = JSON.parse(r.text);
    } catch {
        return `not JSON: ${r.text.slice(0, 200)}`;
    }
    if (/\bat \S+ \(|node_modules|\/work\/|SELECT |INSERT |prisma\.\w+\.\w+\(\)/.test(r.text) && r.status >= 400) {
        return `internals leaked in an error: ${r.text.slice(0, 300)}`;
    }
    if (r.status < 400) {
        return 'data' in body ? undefined : 'a success without data';
    }
    if (protocol === 'rpc') {
        const err = body.error as { message?: unknown } | undefined;
        return err && typeof err.message === 'string' ? undefined : `malformed RPC error: ${r.text.slice(0, 200)}`;
    }
    const errors = body.errors as Array<Record<string, unknown>> | undefined;
    const ok =
        Array.isArray(errors) &&
        errors.length > 0 &&
        errors.every((e) => typeof e.status === 'number' && typeof e.code === 'string' && typeof e.title === 'string') &&
        errors[0].status === r.status &&
        (body.jsonapi as { version?: string } | undefined)?.version === '1.1';
    return ok ? undefined : `malformed JSON:API error: ${r.text.slice(0, 200)}`;
}

/** True when a rejected request may legitimately have written: the write happened but its result is unreadable. */
export function writeKept(r: FuzzResult): boolean {
    return r.status === 403 && r.text.includes('RESULT_NOT_READABLE');
}

export function prototypeSnapshot(): string {
    return JSON.stringify([Object.getOwnPropertyNames(Object.prototype).sort(), Object.getOwnPropertyNames(Array.prototype).sort()]);
}
