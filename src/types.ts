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
    /** The path after the mount point, e.g. `/post/findMany` or `/post/1/comments`. */
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

export type HandleRequestFn = (req: RequestContext) => Promise<Response>;

/** Options every adapter accepts. */
export interface AdapterBaseOptions {
    logger?: LoggerConfig | null;
    modelMeta?: ModelMeta;
    zodSchemas?: ZodSchemas | boolean;
    handler?: HandleRequestFn;
}
