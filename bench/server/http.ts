import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request and response plumbing shared by the three implementations, so that they differ only
 * in what happens between "parsed request" and "value to send".
 */

export interface ParsedRequest {
    method: string;
    /** Path after the mount point, e.g. `/post/1` or `/post/findMany`. */
    path: string;
    /** Query parameters; repeated keys become arrays (what framework adapters hand to handlers). */
    query: Record<string, string | string[]>;
    body: unknown;
    /** `x-user-id` header: the signed-in user, or undefined for an anonymous request. */
    userId?: number;
}

export interface Reply {
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
}

export function parseQuery(search: string): Record<string, string | string[]> {
    const query: Record<string, string | string[]> = {};
    if (!search) return query;
    for (const [key, value] of new URLSearchParams(search)) {
        const prev = query[key];
        if (prev === undefined) query[key] = value;
        else if (Array.isArray(prev)) prev.push(value);
        else query[key] = [prev, value];
    }
    return query;
}

export class BadBody extends Error {}

export function readBody(req: IncomingMessage): Promise<unknown> {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE') {
        // drain anything unexpected so the connection stays usable
        req.resume();
        return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('error', reject);
        req.on('end', () => {
            if (chunks.length === 0) return resolve(undefined);
            try {
                resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch {
                reject(new BadBody('request body is not valid JSON'));
            }
        });
    });
}

/** Splits `/api/rest/post/1?x=y` into mount (`rest`), the handler path (`/post/1`) and the query. */
export function splitUrl(url: string): { mount: string; path: string; search: string } | undefined {
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const search = q < 0 ? '' : url.slice(q + 1);
    const match = /^\/api\/(rest|rpc)(\/.*)?$/.exec(pathname);
    if (!match) return undefined;
    // handlers take the path still percent-encoded, as framework adapters pass it
    return { mount: match[1], path: match[2] ?? '/', search };
}

export async function parseRequest(req: IncomingMessage, path: string, search: string): Promise<ParsedRequest> {
    const header = req.headers['x-user-id'];
    const userId = typeof header === 'string' && header !== '' ? Number(header) : undefined;
    return {
        method: req.method ?? 'GET',
        path,
        query: parseQuery(search),
        body: await readBody(req),
        userId,
    };
}

export function send(res: ServerResponse, reply: Reply): void {
    if (reply.status === 204 || reply.body === undefined) {
        res.writeHead(reply.status, reply.headers);
        res.end();
        return;
    }
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
        ...reply.headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
    });
    res.end(text);
}
