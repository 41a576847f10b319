import { HttpException, Inject, Injectable, Scope, StreamableFile } from '@nestjs/common';
import { HttpAdapterHost, REQUEST } from '@nestjs/core';
import { RPCApiHandler } from '../../api/rpc';
import type { HandleRequestFn, Response } from '../../types';
import { handleNodeRequest } from '../node/serve';
import type { NodeRequest } from '../node/body';
import { resolveAdapter, type ResolvedAdapter } from '../shared/options';
import { toWire } from '../shared/pipeline';
import { EMPTY_BODY, fromParsedBody, normalizePrefix, splitUrl, stripPrefix } from '../shared/request';
import { ENHANCED_PRISMA } from './constants';
import { resolveClient } from './enhanced-prisma';
import type { ApiHandlerOptions } from './interfaces';

let defaultHandler: HandleRequestFn | undefined;

/** A Fastify request as Nest hands it over: the Node request is `raw`, the body is parsed already. */
type PlatformRequest = NodeRequest & { raw?: NodeRequest; res?: unknown };

function hasContentType(response: Response): boolean {
    return Object.keys(response.headers ?? {}).some((name) => name.toLowerCase() === 'content-type');
}

/**
 * Serves the current request with an API handler, through the enhanced client of `ZenStackModule`:
 * `@All('*path') handle() { return this.apiHandler.handleRequest({ baseUrl: '/api/model' }); }`.
 * On the Express platform the handler's status and headers (e.g. 204, `application/vnd.api+json`) are
 * applied as is; elsewhere errors are raised as `HttpException`s and successes use Nest's default status.
 */
@Injectable({ scope: Scope.REQUEST })
export class ApiHandlerService {
    constructor(
        @Inject(HttpAdapterHost) private readonly httpAdapterHost: HttpAdapterHost,
        @Inject(ENHANCED_PRISMA) private readonly prisma: unknown,
        @Inject(REQUEST) private readonly request: unknown,
    ) {}

    async handleRequest(options: ApiHandlerOptions = {}): Promise<unknown> {
        const adapter = resolveAdapter({ ...options, handler: options.handler ?? (defaultHandler ??= RPCApiHandler()) }, 'ApiHandlerService');
        const httpAdapter = this.httpAdapterHost.httpAdapter;
        const req = this.request as PlatformRequest;
        const { pathname, search } = splitUrl(String(httpAdapter.getRequestUrl(req) ?? req.url ?? '/'));
        const path = stripPrefix(pathname, normalizePrefix(options.baseUrl)) ?? pathname;
        const nodeReq = req.raw ?? req;
        const readBody = req.raw ? async () => (req.body === undefined || req.body === null ? EMPTY_BODY : fromParsedBody(req.body, adapter.bodyLimit)) : undefined;
        const response = await handleNodeRequest(adapter, nodeReq, {
            path,
            search,
            readBody,
            // resolved once up front so that a failure of the app's auth maps to its status (e.g. 401)
            getPrisma: () => {
                const client = resolveClient(this.prisma);
                return (typeof client === 'object' || typeof client === 'function') && client !== null ? this.prisma : client;
            },
        });
        return this.reply(adapter, response);
    }

    private reply(adapter: ResolvedAdapter, response: Response): unknown {
        const res = (this.request as PlatformRequest).res;
        if (!res) {
            if (response.status >= 400) {
                throw new HttpException(response.body as Record<string, unknown>, response.status);
            }
            return response.body;
        }
        const httpAdapter = this.httpAdapterHost.httpAdapter;
        const wire = toWire(adapter, response);
        httpAdapter.status(res, wire.status);
        for (const [name, value] of Object.entries(wire.headers)) {
            httpAdapter.setHeader(res, name, value);
        }
        if (wire.body === undefined) {
            return undefined;
        }
        if (hasContentType(response) || wire.status !== response.status) {
            // The handler chose the media type (e.g. `application/vnd.api+json`): send the bytes as they are, since
            // Express would append `; charset=utf-8` to a JSON reply, a parameter JSON:API does not allow.
            return new StreamableFile(Buffer.from(wire.body), { type: wire.headers['content-type'] });
        }
        return response.body;
    }
}
