import { classifyError, DATA_VALIDATION_VIOLATION, retryHeaders, type ErrorKind } from '../common/errors';
import { describeError, log, loggableMessage } from '../common/logger';
import { zodErrorJson, type ZodErrorJson } from '../common/zod-issues';
import type { LoggerConfig, Response } from '../../types';
import type { ModelRegistry } from '../common/model-registry';
import { formatIssues, InputValidationError, type ValidationIssue } from './validation';

/** The RPC error body: `{ error: RpcError }`. */
export interface RpcError {
    message: string;
    reason?: string;
    rejectedByPolicy?: boolean;
    rejectedByValidation?: boolean;
    /** The failure comes from the data layer; `code` is its error code. */
    orm?: boolean;
    /** Same as `orm`, for clients written against `@zenstackhq/server` 2.x (its hooks test `error.prisma`). */
    prisma?: boolean;
    code?: string;
    issues?: ValidationIssue[];
    /** The raw zod issues (`{ issues, name: "ZodError" }`), where 2.x clients read them. */
    zodErrors?: ZodErrorJson;
    /** In a `$transaction/sequential` answer: the index of the operation that failed. */
    failedOperation?: number;
    /** In a committed `$transaction/sequential` answered 403 RESULT_NOT_READABLE: the first operation whose result cannot be read back. */
    unreadableOperation?: number;
}

const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
    'bad-request': 400,
    validation: 400,
    'data-validation': 422,
    policy: 403,
    'not-readable': 403,
    'not-found': 404,
    unique: 400,
    orm: 400,
    unavailable: 503,
    unknown: 500,
};

/** Classifies any error once and renders it as an RPC error response; details go to the logger only. */
export function renderError(err: unknown, logger: LoggerConfig | null | undefined, registry?: ModelRegistry): Response & { body: { error: RpcError } } {
    if (err instanceof InputValidationError) {
        log(logger, 'debug', `RPC arguments rejected by validation: ${err.message}`);
        const error: RpcError = { message: err.message, reason: DATA_VALIDATION_VIOLATION, rejectedByValidation: true, issues: err.issues };
        if (err.zodErrors) error.zodErrors = err.zodErrors;
        return { status: 422, body: { error } };
    }

    const classified = classifyError(err, registry);
    const status = STATUS_BY_KIND[classified.kind];
    const error: RpcError = { message: classified.message };

    if (classified.kind === 'policy' || classified.kind === 'not-readable') {
        error.rejectedByPolicy = true;
        error.reason = classified.reason;
    } else if (classified.kind === 'data-validation') {
        error.rejectedByValidation = true;
        error.reason = classified.reason ?? DATA_VALIDATION_VIOLATION;
        const issues = formatIssues(classified.issues);
        if (issues.length > 0) {
            error.issues = issues;
        }
        const zodErrors = zodErrorJson(classified.issues);
        if (zodErrors) {
            error.zodErrors = zodErrors;
        }
    } else if (classified.reason) {
        error.reason = classified.reason;
    }
    if (classified.ormCode) {
        error.orm = true;
        error.prisma = true;
        error.code = classified.ormCode;
    }

    if (status >= 500) {
        log(logger, 'error', `RPC request failed: ${describeError(err)}`, classified.kind === 'unavailable' ? 'db-unavailable' : 'unexpected-error');
    } else if (classified.alarm) {
        log(logger, 'error', `RPC request refused, and the data layer was hurt by it (restart the process if queries start failing): ${describeError(err)}`, 'orm-panic');
    } else {
        log(logger, 'debug', `RPC request rejected (${status} ${classified.kind}): ${err instanceof Error ? loggableMessage(err.message) : String(err)}`);
    }
    const headers = retryHeaders(status);
    return headers ? { status, body: { error }, headers } : { status, body: { error } };
}
