import type { FastifyError, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
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

function send(adapter: ResolvedAdapter, reply: FastifyReply, response: Response): FastifyReply {
    const wire = toWire(adapter, response);
    reply.code(wire.status).headers(wire.headers);
    // A Buffer, because Fastify appends `; charset=utf-8` to the content type of a string payload, and
    // JSON:API forbids parameters on `application/vnd.api+json`.
    return wire.body === undefined ? reply.send() : reply.send(Buffer.from(wire.body));
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
        const result = unsupportedEncoding(request.headers['content-encoding']) ?? parseJsonBytes(body as Buffer);
        if (result.ok) {
            next(null, result.value);
        } else {
            next(Object.assign(new Error(result.message), { statusCode: result.status }));
        }
    });

    fastify.setErrorHandler((error: FastifyError, _request, reply) => {
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
        const { pathname, search } = splitUrl(request.url);
        const path = restParamPath(pathname, (request.params as Record<string, string | undefined>)['*']);
        if (path === undefined) {
            return send(adapter, reply, renderAdapterError(adapter.handler, 400, UNMATCHED_PATH_MESSAGE));
        }
        const response = await handleNodeRequest(adapter, request.raw, {
            path,
            search,
            // the parser's value, or what an application hook put in its place (bytes are parsed as JSON)
            readBody: async () =>
                request.body === undefined || request.body === null
                    ? EMPTY_BODY
                    : request.body instanceof Uint8Array
                      ? fromParsedBody(request.body, adapter.bodyLimit)
                      : { ok: true, value: request.body },
            getPrisma: () => options.getPrisma(request, reply),
        });
        return send(adapter, reply, response);
    });
    done();
};

export { plugin as ZenStackFastifyPlugin };
export default plugin;
