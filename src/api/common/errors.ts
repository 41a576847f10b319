import { CodecError } from './codec';

/**
 * Every error a handler can meet, classified once; each protocol renders the classes its own way.
 * Prisma and ZenStack errors are recognised by name and code, never by `instanceof`, so that a
 * second copy of `@prisma/client` or `@zenstackhq/runtime` in the application does not matter.
 */
export type ErrorKind =
    | 'bad-request' // the request is malformed (our own checks)
    | 'validation' // arguments rejected by the ORM's validation (400)
    | 'data-validation' // data rejected by schema validation rules (422)
    | 'policy' // denied by the access policy (403)
    | 'not-readable' // written, but the result cannot be read back (403)
    | 'not-found' // record to update/delete does not exist or is not visible (404)
    | 'unique' // unique constraint violated
    | 'orm' // another known data-layer error
    | 'unavailable' // the database cannot be reached or is locked (503)
    | 'unknown'; // anything else (500)

export interface ClassifiedError {
    kind: ErrorKind;
    /** A message safe to send to a client. */
    message: string;
    /** The data layer's error code (P2002 …) when the error comes from it. */
    ormCode?: string;
    /** ZenStack's reason, e.g. ACCESS_POLICY_VIOLATION or RESULT_NOT_READABLE. */
    reason?: string;
    /** Validation issues, when known. */
    issues?: unknown;
}

/** An error a handler raises on purpose for a malformed request. */
export class BadRequestError extends Error {
    constructor(
        message: string,
        readonly detail?: Record<string, unknown>,
    ) {
        super(message);
        this.name = 'BadRequestError';
    }
}

const UNAVAILABLE_CODES = new Set(['P1000', 'P1001', 'P1002', 'P1003', 'P1008', 'P1010', 'P1011', 'P1017', 'P2024']);
const UNAVAILABLE_TEXT =
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|SQLITE_BUSY|SQLITE_LOCKED|SQLITE_READONLY|SQLITE_CANTOPEN|database is locked|readonly database|Can't reach database|Connection terminated|connection refused|DatabaseNotReachable|SocketTimeout|TooManyConnections|DatabaseDoesNotExist/i;

/** The last meaningful line of an ORM message: drops the invocation banner, file paths and the echoed query. */
export function cleanOrmMessage(message: string): string {
    const lines = message
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length > 0);
    const last = lines[lines.length - 1] ?? 'data layer error';
    return last.length > 500 ? `${last.slice(0, 500)}…` : last;
}

function errorName(err: unknown): string | undefined {
    return typeof err === 'object' && err !== null ? (err as { name?: string }).name : undefined;
}

function errorCode(err: unknown): string | undefined {
    const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    return typeof code === 'string' ? code : undefined;
}

function textOf(err: unknown): string {
    if (typeof err !== 'object' || err === null) {
        return String(err);
    }
    const e = err as { message?: unknown; meta?: unknown; cause?: unknown };
    let text = typeof e.message === 'string' ? e.message : '';
    try {
        text += ' ' + JSON.stringify(e.meta ?? '') + ' ' + String((e.cause as { message?: string })?.message ?? e.cause ?? '');
    } catch {
        // meta may be circular
    }
    return text;
}

export function classifyError(err: unknown): ClassifiedError {
    if (err instanceof BadRequestError || err instanceof CodecError) {
        return { kind: 'bad-request', message: err.message };
    }
    const name = errorName(err);
    const code = errorCode(err);

    if (name === 'PrismaClientKnownRequestError' && code) {
        const meta = ((err as { meta?: Record<string, unknown> }).meta ?? {}) as Record<string, unknown>;
        const reason = typeof meta.reason === 'string' ? meta.reason : undefined;
        const message = cleanOrmMessage((err as Error).message);
        if (code === 'P2004') {
            if (reason === 'RESULT_NOT_READABLE') {
                return { kind: 'not-readable', message: 'the operation succeeded but its result cannot be read back under the access policy', ormCode: code, reason };
            }
            if (reason === 'DATA_VALIDATION_VIOLATION') {
                return { kind: 'data-validation', message, ormCode: code, reason, issues: meta.zodErrors };
            }
            return { kind: 'policy', message: 'denied by access policy', ormCode: code, reason: reason ?? 'ACCESS_POLICY_VIOLATION' };
        }
        if (code === 'P2025' || code === 'P2001' || code === 'P2015' || code === 'P2018') {
            return { kind: 'not-found', message, ormCode: code, reason };
        }
        if (code === 'P2002') {
            const target = meta.target ?? (meta.driverAdapterError as { cause?: { constraint?: { fields?: unknown } } })?.cause?.constraint?.fields;
            const fields = Array.isArray(target) ? target.join(', ') : typeof target === 'string' ? target : undefined;
            return { kind: 'unique', message: fields ? `unique constraint violated on (${fields})` : 'unique constraint violated', ormCode: code };
        }
        if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_TEXT.test(textOf(err))) {
            return { kind: 'unavailable', message: 'the database is unavailable, try again later', ormCode: code };
        }
        return { kind: 'orm', message, ormCode: code };
    }
    if (name === 'PrismaClientValidationError') {
        return { kind: 'validation', message: cleanOrmMessage((err as Error).message) };
    }
    if (name === 'PrismaClientInitializationError' || name === 'PrismaClientRustPanicError' || UNAVAILABLE_TEXT.test(textOf(err))) {
        return { kind: 'unavailable', message: 'the database is unavailable, try again later', ormCode: code };
    }
    if (name === 'PrismaClientUnknownRequestError') {
        return { kind: 'orm', message: 'the data layer rejected the request' };
    }
    return { kind: 'unknown', message: 'an unexpected error occurred' };
}
