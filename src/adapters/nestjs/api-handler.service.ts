import { HttpException, Inject, Injectable, Scope } from '@nestjs/common';
import { HttpAdapterHost, REQUEST } from '@nestjs/core';
import { RPCApiHandler } from '../../api/rpc';
import { log } from '../../api/common/logger';
import type { HandleRequestFn, LoggerConfig, Response } from '../../types';
import { handleNodeRequest } from '../node/serve';
import { isReadableRequest, type NodeRequest } from '../node/body';
import { resolveAdapter, type ResolvedAdapter } from '../shared/options';
import { serveApiRequest, toWire } from '../shared/pipeline';
import { EMPTY_BODY, fromParsedBody, normalizePrefix, splitUrl, stripPrefix } from '../shared/request';
import { ENHANCED_PRISMA } from './constants';
import { clientErrors, type ClientFailure } from './enhanced-prisma';
import type { ApiHandlerOptions } from './interfaces';

let defaultHandler: HandleRequestFn | undefined;

/** A Fastify request as Nest hands it over: the Node request is `raw`, the body is parsed already. */
type PlatformRequest = NodeRequest & { raw?: NodeRequest; res?: unknown };

/**
 * Serves the current request with an API handler, through the enhanced client of `ZenStackModule`:
 * `@All('{*path}') handle() { return this.apiHandler.handleRequest({ baseUrl: '/api/model' }); }`.
 * As in `@zenstackhq/server`, it resolves to the response body, for Nest to send (or an interceptor to reshape),
 * and throws an `HttpException(body, status)` for a status of 400 or more, for Nest's exception layer (or the
 * caller's try/catch). On the Express platform a success also sets the handler's status and headers on the
 * response (201, 204, `application/vnd.api+json`), which Nest keeps when it sends the body.
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
        // a request that is not a stream (Fastify's, or a mock or plain object in an app's unit tests) carries its body parsed
        const parsedBody = req.raw !== undefined || !isReadableRequest(nodeReq);
        const readBody = parsedBody
            ? async () => (req.body === undefined ? EMPTY_BODY : fromParsedBody(req.body, adapter.bodyLimit, req.headers?.['content-type']))
            : undefined;
        const method = String(httpAdapter.getRequestMethod?.(req) ?? nodeReq.method ?? 'GET');
        const scope: { failure?: ClientFailure } = {};
        const held = holdingLogger(adapter.logger, scope);
        // the client is the module's proxy as it is: `getEnhancedPrisma` runs only when the handler reaches the client,
        // with the member it reaches (the model, `$transaction` …), as 2.x calls it, never without one
        const response = await clientErrors.run(scope, () => handleNodeRequest({ ...adapter, logger: held.logger }, nodeReq, {
            method,
            path,
            search,
            readBody,
            getPrisma: () => this.prisma,
            // a Nest `HttpException` a custom handler throws (`ForbiddenException` …) is Nest's to answer, as in 2.x
            rethrowFromHandler: (err) => err instanceof HttpException,
        }));
        if (response.status >= 400 && scope.failure) {
            held.drop();
            return this.reply(adapter, await answerClientFailure(adapter, scope.failure, method, path));
        }
        held.release();
        return this.reply(adapter, response);
    }

    private reply(adapter: ResolvedAdapter, response: Response): unknown {
        const wire = toWire(adapter, response);
        // the handler's body, or the 500 error `toWire` put in its place (a body it could not serialize, a header no
        // server could send)
        const body = wire.body === undefined ? response.body : wire.value;
        const res = (this.request as PlatformRequest).res;
        const httpAdapter = this.httpAdapterHost.httpAdapter;
        if (wire.status >= 400) {
            // Nest's exception layer writes the body (as JSON, as 2.x) and keeps the headers set on the response: a 503's Retry-After
            if (res) for (const [name, value] of Object.entries(wire.headers)) if (name !== 'content-type') httpAdapter.setHeader(res, name, value);
            throw new HttpException(body as Record<string, unknown>, wire.status);
        }
        if (res) {
            httpAdapter.status(res, wire.status);
            for (const [name, value] of Object.entries(wire.headers)) {
                // a string or null body goes back to Nest as it is and Nest sends it (text; nothing for null) with the
                // content type it picks, as with 2.x: it is not JSON text
                if (name === 'content-type' && (typeof body === 'string' || body === null)) continue;
                httpAdapter.setHeader(res, name, value);
            }
        }
        return wire.body === undefined ? undefined : body;
    }
}

/**
 * The answer to a request whose `getEnhancedPrisma` failed when the handler reached the client: a Nest
 * `HttpException` it threw (an `UnauthorizedException`, say) goes to Nest's exception layer and filters as it is,
 * as in 2.x, also when it refuses one model only; anything else is answered as the other adapters answer a failing
 * `getPrisma` (the pipeline's own answer, without running the handler again): a thrown status kept (401, a 503 with
 * Retry-After), else a logged generic 500; no client returned is a logged 500.
 */
async function answerClientFailure(adapter: ResolvedAdapter, failure: ClientFailure, method: string, path: string): Promise<Response> {
    if ('thrown' in failure && failure.thrown instanceof HttpException) throw failure.thrown;
    return serveApiRequest(adapter, { method, path, query: {}, body: EMPTY_BODY }, () => {
        if ('thrown' in failure) throw failure.thrown;
        return failure.returned;
    });
}

/**
 * The adapter's logger for one request, holding back what is logged once `getEnhancedPrisma` has failed: the
 * handler's own report of that failure (an "RPC request failed" for an app's 401, say) is dropped when the
 * service answers the failure itself (which logs what a failing `getPrisma` logs), and released otherwise.
 */
function holdingLogger(logger: LoggerConfig | null | undefined, scope: { failure?: ClientFailure }) {
    if (logger === null) return { logger, drop: () => undefined, release: () => undefined };
    const held: [keyof LoggerConfig, string, string | undefined][] = [];
    const at = (level: keyof LoggerConfig) => (message: string, code?: string) =>
        scope.failure ? held.push([level, message, code]) : log(logger, level, message, code);
    return {
        logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } satisfies LoggerConfig,
        drop: () => (held.length = 0),
        release: () => held.splice(0).forEach(([level, message, code]) => log(logger, level, message, code)),
    };
}
