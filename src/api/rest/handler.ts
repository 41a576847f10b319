import type { HandleRequestFn, RequestContext, Response } from '../../types';
import { resolveModelMeta } from '../common/defaults';
import { renderError, renderStatusError, type WrittenResource } from './errors';
import { normalizeOptions, type RestApiHandlerOptions } from './options';
import type { RestRequest } from './request';
import { matchRoute, selectOperation } from './router';
import { restSchemaCache, type RestSchema } from './schema';

/**
 * Creates the JSON:API (v1.1) handler. Options are validated here, once; per-model metadata is
 * derived once per `modelMeta` and reused by every request.
 */
export function RestApiHandler(options: RestApiHandlerOptions): HandleRequestFn {
    const config = normalizeOptions(options);
    const schemaFor = restSchemaCache(config);

    const handle: HandleRequestFn = async function handleRestRequest(ctx: RequestContext): Promise<Response> {
        const logger = ctx.logger;
        let schema: RestSchema | undefined;
        let written: WrittenResource | undefined;
        try {
            schema = schemaFor(resolveModelMeta(ctx.modelMeta));
            const method = String(ctx.method ?? '').toUpperCase();
            const route = matchRoute(schema, ctx.path ?? '', config.segmentPattern);
            // what a validation error's pointer may name: the attributes of the resource this request writes
            if (route.kind === 'collection' || route.kind === 'resource') written = { model: route.model.def.name, body: ctx.requestBody };
            const operation = selectOperation(route, method);
            const req: RestRequest = {
                method,
                route,
                path: ctx.path,
                query: ctx.query ?? {},
                body: ctx.requestBody,
                prisma: ctx.prisma,
                schema,
                config,
                logger,
                zodSchemas: ctx.zodSchemas,
            };
            return await operation(req);
        } catch (err) {
            return renderError(err, logger, schema?.registry, written);
        }
    };
    // lets adapters render their own errors (bad body, size limits, getPrisma failures) as JSON:API documents
    handle.renderError = renderStatusError;
    return handle;
}
