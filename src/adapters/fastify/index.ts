import type { FastifyError, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { isPlainObject } from '../../api/common/guards';
import { describeError, log } from '../../api/common/logger';
import { handleNodeRequest } from '../node/serve';
import { INTERNAL_ERROR_MESSAGE, renderAdapterError } from '../shared/errors';
import { requireFunction, resolveAdapter, type CommonAdapterOptions, type ResolvedAdapter } from '../shared/options';
import { toWire } from '../shared/pipeline';
import { EMPTY_BODY, UNMATCHED_PATH_MESSAGE, fromParsedBody, parseJsonBytes, restParamPath, splitUrl, tooLarge, unsupportedEncoding } from '../shared/request';
import type { Response } from '../../types';

/** Fastify plugin options (as in `@zenstackhq/server/fastify`, plus `bodyLimit`). */
export interface PluginOptions extends CommonAdapterOptions {
    /** URL prefix, e.g. `/api`; also Fastify's own `register` option, applied to the plugin's routes. */
    prefix: string;
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: request.user })`. */
    getPrisma: (request: FastifyRequest, reply: FastifyReply) => unknown | Promise<unknown>;
}

/**
 * The errors the plugin's error handler answers: those it raised itself (what its parser refused, a failure of its
 * route). Every other one is the application's (its hooks', say), for its own error handler.
 */
const OWN_ERRORS = new WeakSet<object>();

/**
 * Fastify's refusals of a body read for the plugin's content-type parser (the only one in its scope) under the
 * plugin's `bodyLimit`.
 */
const BODY_READ_CODES = new Set(['FST_ERR_CTP_BODY_TOO_LARGE', 'FST_ERR_CTP_INVALID_CONTENT_LENGTH']);

function tagged<T>(error: T): T {
    if (typeof error === 'object' && error !== null) OWN_ERRORS.add(error);
    return error;
}

function isOwnError(error: unknown): boolean {
    return typeof error === 'object' && error !== null && (OWN_ERRORS.has(error) || BODY_READ_CODES.has(String((error as { code?: unknown }).code)));
}

/** What `send` sets, taken back: a later `reply.send` of an object (by an error handler) is Fastify's to serialize. */
function clearSerializer(reply: FastifyReply): void {
    reply.serializer(null as unknown as (payload: unknown) => string);
}

/** Fastify's symbol for a request's route context (not exported by it), found on the first request that has one. */
let routeContextKey: symbol | undefined;

/**
 * Whether the route runs `preSerialization` hooks (the application's, inherited by the plugin's scope). Fastify keeps
 * them on the route context of the request, under that symbol; where it is not found, the answer is yes (the slower
 * path, correct either way).
 */
function hasPreSerialization(reply: FastifyReply): boolean {
    const request = reply.request as unknown as Record<symbol, { preSerialization?: unknown } | undefined>;
    routeContextKey ??= Object.getOwnPropertySymbols(request).find((symbol) => symbol.description === 'fastify.context');
    const context = routeContextKey === undefined ? undefined : request[routeContextKey];
    return context?.preSerialization !== null;
}

/** An object or array Fastify serializes as JSON (and runs `preSerialization` hooks on), rather than streaming it. */
function isJsonValue(value: unknown): boolean {
    if (Array.isArray(value)) return true;
    return isPlainObject(value) && typeof value.pipe !== 'function' && typeof value.getReader !== 'function';
}

function send(adapter: ResolvedAdapter, reply: FastifyReply, response: Response): FastifyReply {
    const wire = toWire(adapter, response);
    reply.code(wire.status).headers(wire.headers);
    if (wire.body === undefined) return reply.send();
    const { body, value } = wire;
    // Bytes, because Fastify appends `; charset=utf-8` to the content type of a string payload (and of one it
    // serializes itself), and JSON:API forbids parameters on `application/vnd.api+json`.
    if (!isJsonValue(value) || !hasPreSerialization(reply)) return reply.send(Buffer.from(body));
    // With the application's `preSerialization` hooks: the value, so that they see it (2.x sent the handler's body),
    // written out by a serializer of the reply's own (no charset) after they ran, whether they replaced it or changed
    // it in place.
    reply.serializer((payload: unknown) => {
        clearSerializer(reply);
        return JSON.stringify(payload) ?? '';
    });
    return reply.send(value);
}

async function serve(adapter: ResolvedAdapter, options: PluginOptions, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { pathname, search } = splitUrl(request.url);
    const path = restParamPath(pathname, (request.params as Record<string, string | undefined>)['*']);
    if (path === undefined) {
        return send(adapter, reply, renderAdapterError(adapter.handler, 400, UNMATCHED_PATH_MESSAGE));
    }
    const response = await handleNodeRequest(adapter, request.raw, {
        path,
        search,
        // the parser's value, or what an application hook put in its place (bytes are parsed as JSON); a JSON `null`
        // is that value, as 2.x hands it over, not the absence of a body
        readBody: async () =>
            request.body === undefined
                ? EMPTY_BODY
                : request.body instanceof Uint8Array
                  ? fromParsedBody(request.body, adapter.bodyLimit)
                  : { ok: true, value: request.body },
        getPrisma: () => options.getPrisma(request, reply),
    });
    return send(adapter, reply, response);
}

/**
 * Serves the API under the registration prefix:
 * `app.register(ZenStackFastifyPlugin, { prefix: '/api', getPrisma: (request) => enhance(prisma, { user: request.user }) })`.
 * Inside its (encapsulated) scope, every body is parsed as JSON whatever its content type, and a malformed one is
 * answered in the API's error format; the rest of the application keeps its own content-type parsers.
 */
const plugin: FastifyPluginCallback<PluginOptions> = (fastify, options, done) => {
    let adapter: ResolvedAdapter;
    try {
        requireFunction(options?.getPrisma, 'getPrisma', 'ZenStackFastifyPlugin');
        // without a limit of its own, the plugin keeps the application's (`Fastify({ bodyLimit })`, 1 MiB by default)
        adapter = resolveAdapter({ ...options, bodyLimit: options.bodyLimit ?? fastify.initialConfig.bodyLimit }, 'ZenStackFastifyPlugin');
    } catch (err) {
        done(err as Error);
        return;
    }
    fastify.removeAllContentTypeParsers();
    // Parsed here, in the parser, so that the application's hooks and `getPrisma` see the JSON value on
    // `request.body` as they would with Fastify's own parser; a refusal goes to the error handler below.
    fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: adapter.bodyLimit }, (request, body, next) => {
        // Fastify takes a parser limit of 0 for the application's: a body longer than that is refused here
        const result =
            (body as Buffer).length > adapter.bodyLimit ? tooLarge(adapter.bodyLimit) : (unsupportedEncoding(request.headers['content-encoding']) ?? parseJsonBytes(body as Buffer));
        if (result.ok) {
            next(null, result.value);
        } else {
            next(tagged(Object.assign(new Error(result.message), { statusCode: result.status })));
        }
    });

    // Encapsulated (a scope of its own, for the parser above), so it is the first error handler of the plugin's routes:
    // what it did not raise goes to the application's, as it did with 2.x (a fastify-plugin). Fastify hands an error
    // thrown by an error handler to the one of the enclosing scope, and at the root to its default one.
    fastify.setErrorHandler((error: FastifyError, _request, reply) => {
        clearSerializer(reply);
        if (!isOwnError(error)) {
            throw error;
        }
        const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode <= 599 ? error.statusCode : 500;
        if (status >= 500) {
            log(adapter.logger, 'error', `request failed: ${describeError(error)}`, 'adapter-error');
            return send(adapter, reply, renderAdapterError(adapter.handler, status, INTERNAL_ERROR_MESSAGE));
        }
        const message = status === 413 ? (tooLarge(adapter.bodyLimit) as { message: string }).message : error.message;
        return send(adapter, reply, renderAdapterError(adapter.handler, status, message));
    });

    // Fastify applies the registration prefix to this route. The path is what its wildcard matched (the router
    // may have matched the prefix case-insensitively or ignoring duplicate slashes), taken raw from the URL.
    fastify.all('/*', async (request, reply) => {
        try {
            return await serve(adapter, options, request, reply);
        } catch (err) {
            throw tagged(err);
        }
    });
    done();
};

export { plugin as ZenStackFastifyPlugin };
export default plugin;
