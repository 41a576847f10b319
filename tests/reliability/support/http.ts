import http from 'node:http';
import { USER_HEADER } from './server';

/** One HTTP request of a test, relative to the API's origin. */
export interface HttpRequest {
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    /** Path and query, e.g. `/api/rpc/post/findMany?q=…`. */
    path: string;
    body?: unknown;
    /** The acting user's id; none = anonymous. */
    user?: number;
}

export interface HttpResponse {
    status: number;
    contentType: string;
    /** The `Retry-After` header, when there is one. */
    retryAfter?: string;
    text: string;
    /** The parsed JSON body, `undefined` when there is none (204) or it is not JSON. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: any;
}

/** `?q=<json>` for RPC reads. */
export function q(args: unknown): string {
    return `?q=${encodeURIComponent(JSON.stringify(args))}`;
}

/**
 * Keep-alive connections for the tests' requests: one per request in flight (up to 256), handed out
 * in order. (The platform's `fetch` queues many concurrent requests on one connection while the others
 * are still being opened, which makes latencies meaningless under load.)
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Sends a request over real HTTP (node:http on loopback). */
export function send(origin: string, req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (req.user !== undefined) headers[USER_HEADER] = String(req.user);
    const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    if (payload) {
        headers['content-type'] = req.path.includes('/api/rest') ? 'application/vnd.api+json' : 'application/json';
        headers['content-length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
        const request = http.request(`${origin}${req.path}`, { method: req.method, headers, agent }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', reject);
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let body: unknown;
                try {
                    body = text ? JSON.parse(text) : undefined;
                } catch {
                    body = undefined;
                }
                const retryAfter = res.headers['retry-after'];
                resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), retryAfter: retryAfter === undefined ? undefined : String(retryAfter), text, body });
            });
        });
        request.on('error', reject);
        request.end(payload);
    });
}

export type Protocol = 'rpc' | 'rest';

export function protocolOf(path: string): Protocol {
    return path.startsWith('/api/rest') ? 'rest' : 'rpc';
}

const STACK_TRACE = /\n\s+at |\bat .+\.(js|ts):\d+|node_modules|Invalid `.*` invocation|PrismaClient\w*Error/;

/**
 * Why an error response is not a clean one, or `undefined` when it is: the protocol's error format
 * (`{ error: { message } }` for RPC, a JSON:API errors document for REST) with the response's status,
 * and no stack, file path or raw ORM banner anywhere in the body.
 */
export function errorBodyProblem(protocol: Protocol, res: HttpResponse): string | undefined {
    if (res.body === undefined) return `status ${res.status} without a JSON body: ${res.text.slice(0, 200)}`;
    if (STACK_TRACE.test(res.text)) return `the body leaks internals: ${res.text.slice(0, 300)}`;
    if (protocol === 'rpc') {
        const message = res.body?.error?.message;
        return typeof message === 'string' && message.length > 0 ? undefined : `not an RPC error body: ${res.text.slice(0, 200)}`;
    }
    const errors = res.body?.errors;
    if (!Array.isArray(errors) || errors.length === 0) return `not a JSON:API error document: ${res.text.slice(0, 200)}`;
    if (!res.contentType.startsWith('application/vnd.api+json')) return `JSON:API error with content-type ${res.contentType}`;
    for (const e of errors) {
        if (e?.status !== res.status || typeof e?.code !== 'string' || typeof e?.title !== 'string' || typeof e?.detail !== 'string') {
            return `malformed JSON:API error object: ${JSON.stringify(e)}`;
        }
    }
    return undefined;
}

/** Whether the status is one a healthy API may answer under load: 2xx, a 4xx or 503, never another 5xx. */
export function isAcceptableStatus(status: number): boolean {
    return (status >= 200 && status < 300) || (status >= 400 && status < 500) || status === 503;
}
