import type { ServerResponse } from 'node:http';
import { describeError, log } from '../../api/common/logger';
import { CROSS_SITE_MESSAGE, isCrossSiteForgery } from '../shared/cross-site';
import { INTERNAL_ERROR_MESSAGE, renderAdapterError } from '../shared/errors';
import type { ResolvedAdapter } from '../shared/options';
import { FrameworkControlFlow, readQuery, serveApiRequest, toWire, type RethrowPredicate } from '../shared/pipeline';
import { splitUrl, type BodyResult } from '../shared/request';
import type { Response } from '../../types';
import { readNodeBody, type NodeRequest } from './body';

/** How a framework wrapper describes one request to the Node base adapter. */
export interface NodeRequestInput {
    /** The request method; default: `req.method`. */
    method?: string;
    /** The path after the mount point, percent-encoded. */
    path: string;
    /** The raw query string (with or without `?`); default: the one of `req.url`. */
    search?: string;
    /** Called (once) to get the enhanced client for this request. */
    getPrisma: () => unknown;
    /** Overrides how the body is obtained (e.g. Fastify hands over the buffered body). */
    readBody?: () => Promise<BodyResult>;
    /**
     * The errors the handler throws that are the framework's to answer (NestJS: its `HttpException`), rethrown
     * as they are instead of being answered 500.
     */
    rethrowFromHandler?: RethrowPredicate;
}

/** A request header as one string (a repeated one is an array in Node); a stand-in request may have no headers. */
function nodeHeader(req: NodeRequest, name: string): string | undefined {
    const value = req.headers?.[name];
    return Array.isArray(value) ? value.join(', ') : value;
}

/** The method the client sent, where a method override middleware rewrote `req.method` (Express's `method-override` keeps it). */
function originalMethodOf(req: NodeRequest): string | undefined {
    const original = (req as { originalMethod?: unknown }).originalMethod;
    return typeof original === 'string' ? original : undefined;
}

/**
 * The Node base adapter, first half: request in, handler `Response` out. Never throws, except the handler's
 * errors that `input.rethrowFromHandler` accepts, rethrown as they are.
 */
export async function handleNodeRequest(adapter: ResolvedAdapter, req: NodeRequest, input: NodeRequestInput): Promise<Response> {
    try {
        const method = input.method ?? req.method ?? 'GET';
        if (adapter.crossSiteProtection && isCrossSiteForgery(method, (name) => nodeHeader(req, name), () => nodeHeader(req, 'host'), originalMethodOf(req))) {
            return renderAdapterError(adapter.handler, 403, CROSS_SITE_MESSAGE); // the body is left unread
        }
        const search = input.search ?? splitUrl(req.url ?? '/').search;
        const body = await (input.readBody ? input.readBody() : readNodeBody(req, adapter.bodyLimit));
        const request = { method, path: input.path, ...readQuery(adapter, search), body };
        return await serveApiRequest(adapter, request, input.getPrisma, undefined, input.rethrowFromHandler);
    } catch (err) {
        if (err instanceof FrameworkControlFlow) {
            throw err.error;
        }
        log(adapter.logger, 'error', `request failed in the adapter: ${describeError(err)}`, 'adapter-error');
        return renderAdapterError(adapter.handler, 500, INTERNAL_ERROR_MESSAGE);
    }
}

/**
 * A framework's own way to send a body, for the answers that may be cached (a 200 to a GET or HEAD): Express's
 * `res.send` and Next.js's add an ETag and answer a matching `If-None-Match` with 304, as 2.x's `res.json()` /
 * `res.send()` did. The status and headers are set on the response before it is called.
 */
export interface FrameworkSend {
    /** The request method: only a 200 to a GET or HEAD is sent through `send` (Next.js's answers 304 whatever the method). */
    method: string | undefined;
    send: (body: string) => void;
}

function isCacheable(status: number, method: string | undefined): boolean {
    const upper = method?.toUpperCase();
    return status === 200 && (upper === 'GET' || upper === 'HEAD');
}

/** The Node base adapter, second half: writes a handler `Response` (JSON, or no body for 204). */
export function writeNodeResponse(adapter: ResolvedAdapter, res: ServerResponse, response: Response, framework?: FrameworkSend): void {
    if (res.headersSent || res.writableEnded) {
        log(adapter.logger, 'warn', 'response already sent by another handler; ZenStack response dropped', 'headers-sent');
        return;
    }
    const wire = toWire(adapter, response);
    try {
        res.statusCode = wire.status;
        for (const [name, value] of Object.entries(wire.headers)) {
            res.setHeader(name, value);
        }
    } catch (err) {
        log(adapter.logger, 'error', `invalid response header: ${describeError(err)}`, 'adapter-error');
        writeNodeResponse(adapter, res, { status: 500, body: { error: { message: INTERNAL_ERROR_MESSAGE } } });
        return;
    }
    if (wire.body === undefined) {
        res.end();
        return;
    }
    if (framework && isCacheable(wire.status, framework.method)) {
        framework.send(wire.body);
        return;
    }
    res.setHeader('content-length', Buffer.byteLength(wire.body));
    res.end(wire.body);
}

/** Both halves: serves one request on a Node `IncomingMessage`/`ServerResponse` pair. */
export async function serveNodeRequest(
    adapter: ResolvedAdapter,
    req: NodeRequest,
    res: ServerResponse,
    input: NodeRequestInput,
    framework?: FrameworkSend,
): Promise<void> {
    writeNodeResponse(adapter, res, await handleNodeRequest(adapter, req, input), framework);
}
