import type { Response } from '../../types';
import { classifyError, retryHeaders, type ErrorKind } from '../common/errors';
import { describeError, log, loggableMessage } from '../common/logger';
import { formatIssues, zodErrorJson, type ZodErrorJson } from '../common/zod-issues';
import { hasOwn, isObject } from '../common/guards';
import { pointerTo } from './json-pointer';
import type { LoggerConfig } from '../../types';
import type { ModelRegistry } from '../common/model-registry';

/** Headers of every JSON:API response. */
export const JSONAPI_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/vnd.api+json' });
export const JSONAPI_VERSION = Object.freeze({ version: '1.1' });

/** The error codes this handler uses, with their status and title. */
export const REST_ERRORS = {
    'unsupported-model': { status: 404, title: 'Unsupported model type' },
    'not-found': { status: 404, title: 'Resource not found' },
    'unsupported-relationship': { status: 404, title: 'Unsupported relationship' },
    'invalid-path': { status: 400, title: 'The request path is invalid' },
    'invalid-verb': { status: 400, title: 'The HTTP verb is not supported' },
    'invalid-id': { status: 400, title: 'Invalid resource id' },
    'invalid-filter': { status: 400, title: 'Invalid filter' },
    'invalid-value': { status: 400, title: 'Invalid value' },
    'invalid-sort': { status: 400, title: 'Invalid sort' },
    'invalid-include': { status: 400, title: 'Invalid include' },
    'invalid-fields': { status: 400, title: 'Invalid sparse fieldset' },
    'invalid-page': { status: 400, title: 'Invalid page parameter' },
    'unknown-parameter': { status: 400, title: 'Unsupported query parameter' },
    'unsupported-feature': { status: 400, title: 'Not supported by this database' },
    'invalid-payload': { status: 400, title: 'Invalid payload' },
    'type-conflict': { status: 409, title: 'Resource type does not match the endpoint' },
    'id-conflict': { status: 409, title: 'Resource id does not match the URL' },
    'validation-error': { status: 422, title: 'Invalid data' },
    forbidden: { status: 403, title: 'Forbidden' },
    'unique-violation': { status: 409, title: 'Unique constraint violated' },
    'relationship-conflict': { status: 409, title: 'Relationship change conflicts with a required relationship' },
    'orm-error': { status: 400, title: 'Data layer error' },
    'service-unavailable': { status: 503, title: 'Service unavailable' },
    'unknown-error': { status: 500, title: 'Unknown error' },
    unauthorized: { status: 401, title: 'Unauthorized' },
    'payload-too-large': { status: 413, title: 'Payload too large' },
    'uri-too-long': { status: 414, title: 'URI too long' },
    'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
} as const;

export type RestErrorCode = keyof typeof REST_ERRORS;

/** Optional members of a JSON:API error object. */
export interface RestErrorExtra {
    /** `{ pointer }` into the request body or `{ parameter }` naming a query parameter. */
    source?: { pointer?: string; parameter?: string };
    ormCode?: string;
    reason?: string;
    meta?: Record<string, unknown>;
}

/** Thrown by any REST step for a request it rejects; rendered by `renderError`. */
export class RestError extends Error {
    constructor(
        readonly code: RestErrorCode,
        readonly detail: string,
        readonly extra: RestErrorExtra = {},
    ) {
        super(detail);
        this.name = 'RestError';
    }
}

/** A JSON:API error document response. */
export function errorResponse(code: RestErrorCode, detail: string, extra: RestErrorExtra = {}): Response {
    const { status, title } = REST_ERRORS[code];
    const error: Record<string, unknown> = { status, code, title, detail };
    if (extra.source) error.source = extra.source;
    if (extra.ormCode) error.ormCode = extra.ormCode;
    if (extra.reason) error.reason = extra.reason;
    if (extra.meta) error.meta = extra.meta;
    const retry = retryHeaders(status);
    return { status, body: { errors: [error], jsonapi: JSONAPI_VERSION }, headers: retry ? { ...JSONAPI_HEADERS, ...retry } : JSONAPI_HEADERS };
}

const KIND_TO_CODE: Record<ErrorKind, RestErrorCode> = {
    'bad-request': 'invalid-payload',
    validation: 'invalid-payload',
    'data-validation': 'validation-error',
    policy: 'forbidden',
    'not-readable': 'forbidden',
    'not-found': 'not-found',
    unique: 'unique-violation',
    orm: 'orm-error',
    unavailable: 'service-unavailable',
    unknown: 'unknown-error',
};

/** The resource a request writes (`POST /:type`, `PATCH /:type/:id`): its model's name and the request document. */
export interface WrittenResource {
    model: string;
    body: unknown;
}

/** Renders anything thrown while serving a request; logs what the client does not see. */
export function renderError(err: unknown, logger: LoggerConfig | null | undefined, registry?: ModelRegistry, written?: WrittenResource): Response {
    if (err instanceof RestError) {
        return errorResponse(err.code, err.detail, err.extra);
    }
    const classified = classifyError(err, registry);
    const code = KIND_TO_CODE[classified.kind];
    if (classified.kind === 'unknown' || classified.kind === 'unavailable' || classified.alarm) {
        log(logger, 'error', describeError(err), code);
    } else if (classified.kind === 'orm') {
        // the request's data refused by the database (a 400), as the RPC handler logs it: not a server fault to
        // alarm anyone with, nor a stack trace a client can have printed at will
        log(logger, 'debug', `REST request rejected by the data layer: ${err instanceof Error ? loggableMessage(err.message) : String(err)}`, code);
    }
    const extra: RestErrorExtra = { ormCode: classified.ormCode, reason: classified.reason };
    const issues = classified.kind === 'data-validation' ? formatIssues(classified.issues) : [];
    if (issues.length > 0) {
        return validationErrors(issues, extra, zodErrorJson(classified.issues), attributesOf(written, classified.message));
    }
    return errorResponse(code, classified.message, extra);
}

/** One 422 error object of a validation problem, with a pointer to what it names when it names something. */
export function validationErrorObject(detail: string, pointer: string | undefined, extra: RestErrorExtra): Record<string, unknown> {
    const { status, title } = REST_ERRORS['validation-error'];
    const error: Record<string, unknown> = { status, code: 'validation-error', title, detail };
    if (pointer !== undefined) error.source = { pointer };
    if (extra.ormCode) error.ormCode = extra.ormCode;
    if (extra.reason) error.reason = extra.reason;
    return error;
}

/**
 * A 422 document of several validation problems. `zodErrors`, the raw zod issues of them all, goes on
 * the first error object, where 2.x clients (whose 422 had one error object) read it.
 */
export function validationErrorResponse(errors: Record<string, unknown>[], zodErrors?: ZodErrorJson): Response {
    if (zodErrors && errors.length > 0) errors[0].zodErrors = zodErrors;
    return { status: REST_ERRORS['validation-error'].status, body: { errors, jsonapi: JSONAPI_VERSION }, headers: JSONAPI_HEADERS };
}

/**
 * The enhanced client's own validation failures (no `zodSchemas` given, or a rule checked after an
 * update): one error object per issue, as the handler's validation answers, with a pointer to the
 * attribute when the issue names one (a model-level `@@validate` names none).
 */
function validationErrors(issues: ReturnType<typeof formatIssues>, extra: RestErrorExtra, zodErrors: ZodErrorJson | undefined, attributes: Record<string, unknown> | undefined): Response {
    // a pointer names an attribute of the request document, and only where the record that failed is the one it writes
    const pointer = (path: string) => (attributes && hasOwn(attributes, path.split('.')[0]) ? pointerTo('/data/attributes', ...path.split('.')) : undefined);
    return validationErrorResponse(
        issues.map((issue) => validationErrorObject(issue.message, issue.path ? pointer(issue.path) : undefined, extra)),
        zodErrors,
    );
}

/**
 * The attributes of the request document when the validation that failed (ZenStack's message names the model:
 * `denied by policy: item entities failed 'postUpdate' check, …`) is of the resource the request writes: a record it
 * links fails its own rules (its stored values), which no attribute of the request holds.
 */
function attributesOf(written: WrittenResource | undefined, message: string): Record<string, unknown> | undefined {
    const failed = /^denied by policy: (\S+) entities failed /.exec(message)?.[1];
    if (!written || !failed || failed.toLowerCase() !== written.model.toLowerCase()) return undefined;
    const data = isObject(written.body) ? written.body.data : undefined;
    return isObject(data) && isObject(data.attributes) ? data.attributes : undefined;
}

const STATUS_TO_CODE: Record<number, RestErrorCode> = {
    400: 'invalid-payload',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not-found',
    413: 'payload-too-large',
    414: 'uri-too-long',
    415: 'unsupported-media-type',
    500: 'unknown-error',
    503: 'service-unavailable',
};

/**
 * Renders an error an adapter detected before the handler ran (bad body, size limits, `getPrisma`
 * failing) as a JSON:API error document with the adapter's status.
 */
export function renderStatusError(status: number, message: string): Response {
    const code = STATUS_TO_CODE[status];
    if (code) {
        return errorResponse(code, message);
    }
    const title = status >= 500 ? 'Server error' : 'Request error';
    return {
        status,
        body: { errors: [{ status, code: status >= 500 ? 'server-error' : 'request-error', title, detail: message }], jsonapi: JSONAPI_VERSION },
        headers: JSONAPI_HEADERS,
    };
}
