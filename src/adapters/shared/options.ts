import type { ModelMeta, ZodSchemas } from '@zenstackhq/runtime';
import { RPCApiHandler } from '../../api/rpc';
import { getDefaultModelMeta, getDefaultZodSchemas } from '../../api/common/defaults';
import type { AdapterBaseOptions, HandleRequestFn, LoggerConfig } from '../../types';

/** 1 MiB: the default largest request body an adapter reads. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** 16 KiB: the default longest query string (after `?`) an adapter accepts. */
export const DEFAULT_QUERY_LIMIT = 16 * 1024;

/** Options shared by every adapter: those of `@zenstackhq/server` 2.x plus a body-size limit. */
export interface CommonAdapterOptions extends AdapterBaseOptions {
    /** Largest request body in bytes the adapter reads (default 1 MiB); a larger one is answered 413. `Infinity`: no limit. */
    bodyLimit?: number;
    /** Longest query string in characters the adapter accepts (default 16 KiB); a longer one is answered 414. `Infinity`: no limit. */
    queryLimit?: number;
    /**
     * Refuse (403) a `POST` a browser sends from another site without a CORS preflight: one whose body is not
     * declared JSON, such as an HTML form with `enctype="text/plain"` (default `true`; see `cross-site.ts`).
     */
    crossSiteProtection?: boolean;
}

/** Adapter options resolved once, when the adapter is created, and shared by all its requests. */
export interface ResolvedAdapter {
    handler: HandleRequestFn;
    logger: LoggerConfig | null | undefined;
    modelMeta: ModelMeta | undefined;
    zodSchemas: ZodSchemas | undefined;
    bodyLimit: number;
    queryLimit: number;
    crossSiteProtection: boolean;
}

/** `true` loads ZenStack's generated schemas, and fails if there are none (validation must not silently be off). */
function resolveZodSchemas(option: ZodSchemas | boolean | undefined, adapterName: string): ZodSchemas | undefined {
    if (option === true) {
        const schemas = getDefaultZodSchemas();
        if (!schemas) {
            throw new Error(
                `${adapterName}: Unable to load zod schemas from default location (@zenstackhq/runtime/zod): ` +
                    'run `zenstack generate` with the zod plugin, or pass the schemas as "zodSchemas"',
            );
        }
        return schemas;
    }
    return option === false || option === undefined ? undefined : option;
}

/** Validates and resolves the common options; throws a clear error for bad ones (at start-up, not per request). */
export function resolveAdapter(options: CommonAdapterOptions, adapterName: string): ResolvedAdapter {
    if (options.handler !== undefined && typeof options.handler !== 'function') {
        throw new TypeError(`${adapterName}: "handler" must be a function (e.g. RPCApiHandler() or RestApiHandler({ endpoint }))`);
    }
    // `Infinity` (no limit) is a number of these too: every check is a comparison, which it never fails
    const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    if (typeof bodyLimit !== 'number' || !(bodyLimit >= 0)) {
        throw new TypeError(`${adapterName}: "bodyLimit" must be a non-negative number of bytes (Infinity: no limit), got ${String(options.bodyLimit)}`);
    }
    const queryLimit = options.queryLimit ?? DEFAULT_QUERY_LIMIT;
    if (typeof queryLimit !== 'number' || !(queryLimit >= 0)) {
        throw new TypeError(`${adapterName}: "queryLimit" must be a non-negative number of characters (Infinity: no limit), got ${String(options.queryLimit)}`);
    }
    if (options.crossSiteProtection !== undefined && typeof options.crossSiteProtection !== 'boolean') {
        throw new TypeError(`${adapterName}: "crossSiteProtection" must be true or false, got ${String(options.crossSiteProtection)}`);
    }
    return {
        handler: options.handler ?? RPCApiHandler(),
        logger: options.logger,
        // the generated metadata when the app passes none: a custom handler reads it from `ctx.modelMeta`, as with 2.x
        modelMeta: options.modelMeta ?? getDefaultModelMeta(),
        zodSchemas: resolveZodSchemas(options.zodSchemas, adapterName),
        bodyLimit,
        queryLimit,
        crossSiteProtection: options.crossSiteProtection ?? true,
    };
}

/** Throws at start-up when the required `getPrisma` callback is missing. */
export function requireFunction(value: unknown, name: string, adapterName: string): void {
    if (typeof value !== 'function') {
        throw new TypeError(`${adapterName}: the "${name}" option is required and must be a function`);
    }
}
