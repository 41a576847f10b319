import { resolveModelMeta } from '../common/defaults';
import { getModelRegistry, type ModelRegistry } from '../common/model-registry';
import type { HandleRequestFn, RequestContext, Response } from '../../types';
import { prepareCall, runCall } from './call';
import { renderError } from './errors';
import { checkDeleteBody } from './delete-body';
import { readBodyArgs, readQueryArgs } from './input';
import { renderResult } from './output';
import { resolveRoute } from './router';
import { checkLimitOptions, type ArgLimits } from './limits';
import { runSequentialTransaction } from './transaction';
import { DEFAULT_MAX_WRITE_RECORDS } from './write-size';
import { DEFAULT_MAX_FILTER_VALUES, DEFAULT_MAX_INCLUDED_RELATIONS } from './arg-size';

export interface RPCApiHandlerOptions extends ArgLimits {
    /** Most operations one `$transaction/sequential` request may hold (default 100). */
    maxTransactionOperations?: number;
}

interface ResolvedOptions {
    maxTransactionOperations: number;
    limits: ArgLimits;
}

const DEFAULT_MAX_TRANSACTION_OPERATIONS = 100;

async function handle(ctx: RequestContext, options: ResolvedOptions): Promise<Response> {
    const modelMeta = resolveModelMeta(ctx.modelMeta);
    const registry = getModelRegistry(modelMeta);
    // validated with zod only when the context carries schemas (the adapters pass them when asked, as
    // 2.x): the enhanced client checks the schema's own rules either way
    const zodSchemas = ctx.zodSchemas;
    const route = resolveRoute(registry, ctx.method, ctx.path);

    if (route.kind === 'transaction') {
        return runSequentialTransaction(ctx.prisma, ctx.requestBody, registry, zodSchemas, ctx.logger, {
            maxOperations: options.maxTransactionOperations,
            limits: options.limits,
        });
    }

    const { model, op } = route;
    const raw = op.source === 'query' ? readQueryArgs(ctx.query) : readBodyArgs(ctx.requestBody, op.requiresArgs);
    if (op.source === 'query' && ctx.method.toUpperCase() === 'DELETE') {
        checkDeleteBody(op.name, ctx.requestBody, raw);
    }
    const call = prepareCall(ctx.prisma, registry, model, op, raw, zodSchemas, options.limits);
    const result = await runCall(ctx.prisma, call);
    return renderResult(result, op.status);
}

/** The registry of a request's model metadata (cached per metadata object), if it has one: to name fields in errors. */
function registryOf(ctx: RequestContext): ModelRegistry | undefined {
    try {
        return getModelRegistry(resolveModelMeta(ctx.modelMeta));
    } catch {
        return undefined;
    }
}

/**
 * Creates the RPC request handler: `handle(ctx)` answers `{ status, body }` for
 * `/<model>/<operation>` and `/$transaction/sequential`, running everything through `ctx.prisma`.
 */
export function RPCApiHandler(options: RPCApiHandlerOptions = {}): HandleRequestFn {
    checkLimitOptions(options);
    const maxOps = options.maxTransactionOperations;
    if (maxOps !== undefined && (typeof maxOps !== 'number' || !Number.isSafeInteger(maxOps) || maxOps <= 0)) {
        // NaN or a string would lift the bound without a word, 0 would refuse every transaction
        throw new Error(`RPCApiHandler: "maxTransactionOperations" must be a positive integer, got ${String(maxOps)}`);
    }
    const resolved: ResolvedOptions = {
        maxTransactionOperations: options.maxTransactionOperations ?? DEFAULT_MAX_TRANSACTION_OPERATIONS,
        limits: {
            maxTake: options.maxTake,
            maxDepth: options.maxDepth,
            maxWriteRecords: options.maxWriteRecords ?? DEFAULT_MAX_WRITE_RECORDS,
            maxFilterValues: options.maxFilterValues ?? DEFAULT_MAX_FILTER_VALUES,
            maxIncludedRelations: options.maxIncludedRelations ?? DEFAULT_MAX_INCLUDED_RELATIONS,
        },
    };
    const handler: HandleRequestFn = async (ctx: RequestContext): Promise<Response> => {
        try {
            return await handle(ctx, resolved);
        } catch (err) {
            return renderError(err, ctx.logger, registryOf(ctx));
        }
    };
    handler.renderError = renderAdapterError;
    return handler;
}

/** An error an adapter detected before the handler ran (bad body, size limit …), in the RPC error format. */
function renderAdapterError(status: number, message: string): Response {
    return { status, body: { error: { message } } };
}
