import type { DbClientContract, ModelMeta, ZodSchemas } from '@zenstackhq/runtime';

/** One logging function; `code` is an optional machine-readable tag. */
export type LoggerMethod = (message: string, code?: string) => void;

/** Where handlers report what they do not put in a response (stacks, SQL, internal errors). */
export type LoggerConfig = {
    debug?: LoggerMethod;
    info?: LoggerMethod;
    warn?: LoggerMethod;
    error?: LoggerMethod;
};

/** What an adapter hands to a protocol handler for one request (same shape as `@zenstackhq/server` 2.x). */
export type RequestContext = {
    /** The enhanced (policy-enforcing) client made for this request; the handler uses nothing else. */
    prisma: DbClientContract;
    method: string;
    /**
     * The path after the mount point, e.g. `/post/findMany` or `/post/1/comments`, still percent-encoded as in
     * the URL: handlers decode each segment themselves (so an id containing `%2F` stays one segment).
     */
    path: string;
    /** Query parameters; repeated keys arrive as arrays. */
    query?: Record<string, string | string[]>;
    /** The parsed JSON body, if any. */
    requestBody?: unknown;
    modelMeta?: ModelMeta;
    zodSchemas?: ZodSchemas;
    /** `null` silences logging; absent means console. */
    logger?: LoggerConfig | null;
};

/** What a handler answers; adapters turn it into their framework's response. */
export type Response = {
    status: number;
    body: unknown;
    /** Extra response headers (e.g. `Location` after a JSON:API create). */
    headers?: Record<string, string>;
};

/**
 * Renders an error that an adapter detects before the handler runs (an unparsable body: 400, a body over the
 * size limit: 413, `getPrisma` failing: 401/500 …) in the handler's protocol format. Handlers built by this
 * package expose it as `handler.renderError`; adapters fall back to `{ error: { message } }` without it.
 */
export type RenderErrorFn = (status: number, message: string) => Response;

export type HandleRequestFn = ((req: RequestContext) => Promise<Response>) & {
    /** See {@link RenderErrorFn}; optional, so any plain function is a valid handler. */
    renderError?: RenderErrorFn;
};

/** Options every adapter accepts. */
export interface AdapterBaseOptions {
    logger?: LoggerConfig | null;
    modelMeta?: ModelMeta;
    zodSchemas?: ZodSchemas | boolean;
    handler?: HandleRequestFn;
}
