import Decimal from 'decimal.js';
import SuperJSON from 'superjson';
import { RPCApiHandler } from '../../src/api/rpc';
import type { LoggerConfig, Response } from '../../src/types';
import { seedBlog } from '../client/support/seed';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Calls the RPC handler the way an adapter does, for one user of a test schema, and encodes
 * arguments / decodes results the way a superjson-based client (ZenStack's hooks) does.
 */

// what a client uses: its own superjson instance with the same custom types
export const clientJson = new SuperJSON();
clientJson.registerCustom<Decimal, string>(
    { isApplicable: (v): v is Decimal => Decimal.isDecimal(v), serialize: (v) => v.toString(), deserialize: (v) => new Decimal(v) },
    'Decimal',
);
clientJson.registerCustom<Buffer, string>(
    { isApplicable: (v): v is Buffer => Buffer.isBuffer(v), serialize: (v) => v.toString('base64'), deserialize: (v) => Buffer.from(v, 'base64') },
    'Bytes',
);

/** Response bodies are inspected freely in tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBody = any;

export interface CallInput {
    /** Arguments for GET/DELETE, sent as `q` (and `meta` when typed values need it). */
    q?: unknown;
    /** A raw `meta` query value (already JSON text) or an object that is stringified. */
    meta?: unknown;
    /** The request body, as the adapter would hand it over. */
    body?: unknown;
    /** Extra/raw query parameters. */
    query?: Record<string, string | string[]>;
}

export interface RpcCaller {
    (method: string, path: string, input?: CallInput): Promise<Response & { body: AnyBody }>;
}

export interface CallerOptions {
    user?: Record<string, unknown>;
    zod?: boolean;
    logger?: LoggerConfig | null;
    handler?: ReturnType<typeof RPCApiHandler>;
}

export function rpcCaller(schema: TestSchema, options: CallerOptions = {}): RpcCaller {
    const handler = options.handler ?? RPCApiHandler();
    const prisma = schema.enhance(options.user);
    return async (method, path, input = {}) => {
        const query: Record<string, string | string[]> = { ...(input.query ?? {}) };
        if (input.q !== undefined) {
            query.q = typeof input.q === 'string' ? input.q : JSON.stringify(input.q);
        }
        if (input.meta !== undefined) {
            query.meta = typeof input.meta === 'string' ? input.meta : JSON.stringify(input.meta);
        }
        const res = await handler({
            method,
            path,
            query,
            requestBody: input.body,
            prisma,
            modelMeta: schema.modelMeta,
            zodSchemas: options.zod ? schema.zodSchemas : undefined,
            logger: options.logger === undefined ? null : options.logger,
        });
        // what goes over the wire is JSON: make sure the body survives it unchanged
        expect(JSON.parse(JSON.stringify(res.body))).toEqual(res.body);
        return res as Response & { body: AnyBody };
    };
}

/** Client-side encoding of arguments for a GET/DELETE: `{ q, meta }` as the hooks send them. */
export function encodeQuery(args: unknown): CallInput {
    const { json, meta } = clientJson.serialize(args);
    return meta ? { q: json, meta: { serialization: meta } } : { q: json };
}

/** Client-side encoding of a body: the JSON plus `meta.serialization` when needed. */
export function encodeBody(args: unknown): Record<string, unknown> {
    const { json, meta } = clientJson.serialize(args);
    return meta ? { ...(json as Record<string, unknown>), meta: { serialization: meta } } : (json as Record<string, unknown>);
}

/** Client-side decoding of a success body. */
export function decodeData(body: { data: unknown; meta?: { serialization?: unknown } }): AnyBody {
    return body.meta?.serialization ? clientJson.deserialize({ json: body.data as never, meta: body.meta.serialization as never }) : body.data;
}

/** A logger that keeps everything it is given. */
export function captureLogger(): LoggerConfig & { lines: string[] } {
    const lines: string[] = [];
    const keep = (message: string, code?: string) => {
        lines.push(code ? `${code}: ${message}` : message);
    };
    return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

/** The blog schema's relations (`includeOf`): model → relation → target. */
const RELATIONS: Record<string, Record<string, string>> = {
    user: { posts: 'post', profile: 'profile', allTypes: 'allTypes' },
    post: { author: 'user', comments: 'comment' },
    comment: { post: 'post' },
    profile: { user: 'user' },
    allTypes: { owner: 'user' },
};

/** An `include` of `model` naming exactly `n` relations, breadth first (`true` where nothing is included below). */
/** (For the blog schema.) */
export function includeOf(model: string, n: number): Record<string, unknown> {
    const root: Record<string, unknown> = {};
    const queue: Array<[string, Record<string, unknown>]> = [[model, root]];
    let left = n;
    for (let i = 0; i < queue.length && left > 0; i++) {
        const [m, include] = queue[i];
        for (const [name, target] of Object.entries(RELATIONS[m])) {
            if (left-- === 0) break;
            const below: Record<string, unknown> = {};
            include[name] = { include: below };
            queue.push([target, below]);
        }
    }
    const leaves = (include: Record<string, unknown>): Record<string, unknown> => {
        for (const [name, entry] of Object.entries(include)) {
            const below = (entry as { include: Record<string, unknown> }).include;
            include[name] = Object.keys(below).length === 0 ? true : { include: leaves(below) };
        }
        return include;
    };
    return leaves(root);
}

/** A test's blog (`seedBlog`'s rows) and an RPC caller on it as one user. */
export interface SeededBlog {
    s: TestSchema;
    rpc: RpcCaller;
}

/**
 * Before each test of the file, a blog of its own seeded by `seedBlog`, and a caller as `user`; cleaned up after it
 * (a test that changed rows says nothing of the next one). The fields are set when each test starts.
 */
export function seededBlogEach(user: Record<string, unknown>): SeededBlog {
    const blog = {} as SeededBlog;
    beforeEach(async () => {
        blog.s = await loadSchema();
        await seedBlog(blog.s);
        blog.rpc = rpcCaller(blog.s, { user });
    });
    afterEach(() => blog.s.cleanup());
    return blog;
}
