import type { ErrorRequestHandler, Handler, NextFunction, Request, Response } from 'express';
import { handleNodeRequest, writeNodeResponse, type FrameworkSend } from '../node/serve';
import { renderAdapterError } from '../shared/errors';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { splitUrl } from '../shared/request';
import type { Response as ApiResponse } from '../../types';

/** Express middleware options (as in `@zenstackhq/server/express`, plus `bodyLimit`). */
export interface MiddlewareOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: req.user })`. */
    getPrisma: (req: Request, res: Response) => unknown | Promise<unknown>;
    /**
     * `false`: instead of sending the response, store it in `res.locals` (`status`, `body`, `headers`)
     * and call `next()`, for a later middleware to send. Default `true`.
     */
    sendResponse?: boolean;
}

/** The middleware, plus an error handler for body-parser failures of an app-wide `express.json()`. */
export type ZenStackExpressMiddleware = Handler & {
    /**
     * Mount right after the middleware (`app.use('/api', api, api.errorHandler)`) when `express.json()` runs
     * before it: a malformed or oversized body rejected by body-parser is then answered in the API's error
     * format (400/413) instead of Express's HTML error page (with `sendResponse: false`, stored in `res.locals`
     * as any other answer, and `next()` called). Other errors are passed on.
     */
    errorHandler: ErrorRequestHandler;
};

const BODY_PARSER_MESSAGES: Record<string, string> = {
    'entity.parse.failed': 'invalid JSON in request body',
    'entity.too.large': 'request body too large',
    'encoding.unsupported': 'unsupported content encoding',
    'charset.unsupported': 'unsupported charset',
    'request.aborted': 'the request body could not be read',
    'request.size.invalid': 'the request body does not match its Content-Length',
};

/**
 * Express's `res.send`, for its ETag (per the app's `etag` setting) and 304 to a fresh request, as 2.x's `res.json()`;
 * given bytes, so that it adds no `; charset=utf-8` (JSON:API forbids parameters on its media type). A host that only
 * looks like Express (its `res` has no Express app) is written to directly.
 */
function expressSend(req: Request, res: Response): FrameworkSend | undefined {
    const app = (res as { app?: { get?: unknown } }).app;
    return typeof res.send === 'function' && typeof app?.get === 'function' ? { method: req.method, send: (body) => res.send(Buffer.from(body)) } : undefined;
}

/**
 * Creates an Express middleware serving the API under its mount point:
 * `app.use('/api', ZenStackMiddleware({ getPrisma: (req) => enhance(prisma, { user: req.user }) }))`.
 * The body is read here unless a body parser already did.
 */
export function ZenStackMiddleware(options: MiddlewareOptions): ZenStackExpressMiddleware {
    requireFunction(options?.getPrisma, 'getPrisma', 'ZenStackMiddleware');
    const adapter = resolveAdapter(options, 'ZenStackMiddleware');

    /** Sends the response, or with `sendResponse: false` leaves it in `res.locals` for the next middleware. */
    const answer = (req: Request, res: Response, next: NextFunction, response: ApiResponse) => {
        if (options.sendResponse === false) {
            Object.assign(res.locals, { status: response.status, body: response.body, headers: response.headers });
            next();
        } else {
            writeNodeResponse(adapter, res, response, expressSend(req, res));
        }
    };

    const middleware: Handler = (req, res, next) => {
        // Inside a mounted middleware, `req.url` is relative to the mount point.
        const { pathname, search } = splitUrl(req.url);
        handleNodeRequest(adapter, req, { path: pathname, search, getPrisma: () => options.getPrisma(req, res) })
            .then((response) => answer(req, res, next, response))
            .catch(next);
    };

    const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
        const type = (err as { type?: unknown })?.type;
        const status = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
        if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(BODY_PARSER_MESSAGES, type) || typeof status !== 'number' || status < 400 || status > 499 || res.headersSent) {
            next(err);
            return;
        }
        answer(req, res, next, renderAdapterError(adapter.handler, status, BODY_PARSER_MESSAGES[type]));
    };

    return Object.assign(middleware, { errorHandler });
}

export default ZenStackMiddleware;
