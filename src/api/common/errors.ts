import { CodecError } from './codec';
import { TRANSACTION_ENDED_MESSAGE } from '../../driver/transaction-cleanup';
import type { ModelDef, ModelRegistry } from './model-registry';

/** ZenStack's reason for data rejected by the schema's validation rules (both protocols send it with a 422). */
export const DATA_VALIDATION_VIOLATION = 'DATA_VALIDATION_VIOLATION';

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
    /** The request's fault, but it hurt the server too (a query compiler panic): logged as an error. */
    alarm?: boolean;
}

/** An error a handler raises on purpose for a malformed request. */
/** What a write that happened but whose result the user may not read is answered (ZenStack's RESULT_NOT_READABLE). */
export const NOT_READABLE_MESSAGE = 'the operation succeeded but its result cannot be read back under the access policy';

export class BadRequestError extends Error {
    constructor(
        message: string,
        readonly detail?: Record<string, unknown>,
    ) {
        super(message);
        this.name = 'BadRequestError';
    }
}

/**
 * A record the request names does not exist for the user: answered exactly as the data layer's own
 * "not found" (`P2025`) is, so that a record hidden by the access policy cannot be told from a missing one.
 */
export class RecordNotFoundError extends Error {
    readonly code = 'P2025';
    constructor(message: string) {
        super(message);
        this.name = 'RecordNotFoundError';
    }
}

/**
 * A change that would leave a record without a link the schema requires: answered as the data layer's own
 * refusal (`P2014`), for changes the handlers make themselves instead of the ORM.
 */
export class RequiredRelationError extends Error {
    readonly code = 'P2014';
    constructor(message: string) {
        super(message);
        this.name = 'RequiredRelationError';
    }
}

const UNAVAILABLE_CODES = new Set(['P1000', 'P1001', 'P1002', 'P1003', 'P1008', 'P1010', 'P1011', 'P1017', 'P2024', 'P2037']);
const UNAVAILABLE_TEXT =
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|SQLITE_BUSY|SQLITE_LOCKED|SQLITE_READONLY|SQLITE_CANTOPEN|database is locked|readonly database|Can't reach database|Connection terminated|connection refused|DatabaseNotReachable|SocketTimeout|TooManyConnections|DatabaseDoesNotExist|Cannot open database|unable to open database file|timeout exceeded when trying to connect|terminating connection due to|the database system is (starting up|shutting down|in recovery mode)|server closed the connection unexpectedly|is not queryable|attempted to take ownership of Rust value while it was borrowed/i;

/**
 * Prisma 6's client engine compiles each query in WebAssembly. A panic there (arguments it cannot
 * translate) is the request's, but it also disconnects the whole client, and the next statement of any
 * request fails once with a wasm-bindgen borrow error ("attempted to take ownership of Rust value while
 * it was borrowed", in UNAVAILABLE_TEXT): that one is transient.
 */
const COMPILER_PANIC = /panicked at (query-compiler|query-engine)\//;
/** The compiler's memory after enough panics: every later query fails until the process restarts (a 500, logged). */
const COMPILER_BROKEN = /memory access out of bounds/;

const UNAVAILABLE_MESSAGE = 'the database is unavailable, try again later';

/**
 * ZenStack's check of records after an update names each one it validates (`… check, entity {"id":"…"} failed
 * validation: [<issues>]`): a record the user may not read, perhaps (an `updateMany` reaches rows its read rule hides),
 * so its key is left out of the answer. The issues are the rules' messages.
 */
function withoutCheckedEntity(message: string): string {
    // by position, not a pattern: the key is the database's text (a pattern over it could backtrack at length)
    const entity = message.indexOf(' check, entity ');
    const issues = message.lastIndexOf(' failed validation: [');
    if (!message.startsWith('denied by policy: ') || entity < 0 || issues < entity) return message;
    return `${message.slice(0, entity)} check, failed validation: ${message.slice(issues + ' failed validation: '.length)}`;
}

/**
 * `Retry-After` (seconds) of every 503: the conditions behind one (a busy pool, a write conflict, a
 * database restarting) pass in about that time, and clients and proxies that honour the header back off
 * instead of retrying at once.
 */
export const RETRY_AFTER_SECONDS = '1';

/** The headers a response of `status` carries besides its content type: `Retry-After` on a 503. */
export function retryHeaders(status: number): Record<string, string> | undefined {
    return status === 503 ? { 'retry-after': RETRY_AFTER_SECONDS } : undefined;
}
const BUSY_MESSAGE = 'the database is busy, try again later';
const CONFLICT_MESSAGE = 'the request conflicted with a concurrent transaction, try again';

/**
 * Transient failures of a healthy database, answered like an unavailable one (503, try again):
 * P2028 = an interactive transaction could not start in time or outlived its timeout (the database or
 * the connection pool is saturated), P2034 = write conflict or deadlock.
 */
const TRANSIENT_CODES: ReadonlyMap<string, string> = new Map([
    ['P2028', BUSY_MESSAGE],
    ['P2034', CONFLICT_MESSAGE],
]);

/** Driver adapter error kinds (`DriverAdapterError.cause.kind`) that mean the database cannot serve now. */
const UNAVAILABLE_DRIVER_KINDS = new Set([
    'DatabaseNotReachable',
    'DatabaseDoesNotExist',
    'DatabaseAccessDenied',
    'AuthenticationFailed',
    'ConnectionClosed',
    'SocketTimeout',
    'TlsConnectionError',
    'TooManyConnections',
]);

/**
 * SQLSTATEs of PostgreSQL (and compatible) errors that are the database's condition, not the request's:
 * class 08 connection exception, 53 insufficient resources, 57P operator intervention (terminated
 * backend, shutdown, starting up), 58 system error; serialization failure, deadlock and lock timeout are
 * conflicts with concurrent transactions (the client may try again; a write that lost to a serialization failure or
 * deadlock has already been run again, `rerunning` in rerun.ts, a lock timeout is not).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P|58)/;
const CONFLICT_SQLSTATE = new Set(['40001', '40P01', '55P03']);
/**
 * query_canceled: the statement outlived the session's `statement_timeout` (waiting for a lock or a busy
 * server) or an operator cancelled it. The database is busy, as when a transaction times out (P2028).
 */
const CANCELED_SQLSTATE = '57014';
/**
 * read_only_sql_transaction: a write on a session that cannot write (a standby, a primary being demoted in a
 * failover, `default_transaction_read_only`), the counterpart of SQLITE_READONLY: the database cannot serve it now.
 */
const READ_ONLY_SQLSTATE = '25006';
/**
 * SQLSTATE class 22, data exception: a value the database cannot store or compare (a NUL byte in text,
 * a date or number out of range, a malformed literal). The request's fault, not the server's.
 */
const DATA_EXCEPTION_SQLSTATE = /^22[0-9A-Z]{3}$/;
/**
 * SQLSTATE class 54, program limit exceeded: the request is too large for the database (a value over
 * an index's maximum row size, a statement too complex or with too many arguments).
 */
const LIMIT_EXCEEDED_SQLSTATE = /^54[0-9A-Z]{3}$/;
/**
 * SQLSTATE class 23, integrity constraint violation, that the driver adapter leaves untranslated (unique,
 * not-null and foreign-key violations become P2002/P2011/P2003): a CHECK constraint (23514) or an exclusion
 * constraint (23P01) added to the database, e.g. in a migration. The request's data breaks a rule of the
 * database, as with a foreign key: a 400, not a server fault.
 */
const INTEGRITY_SQLSTATE = /^23[0-9A-Z]{3}$/;
/** The constraint a PostgreSQL integrity error names (`… violates check constraint "name"`), if any. */
const CONSTRAINT_NAME = /constraint "([^"]{1,128})"/;

/** The database's own message in a driver error's cause (`originalMessage`, else `message`), or ''. */
function causeMessage(cause: unknown): string {
    if (typeof cause !== 'object' || cause === null) return '';
    const { message, originalMessage } = cause as { message?: unknown; originalMessage?: unknown };
    return typeof originalMessage === 'string' ? originalMessage : typeof message === 'string' ? message : '';
}

/** What the request violates, for the message: the constraint by name when the database names it. */
function violatedConstraint(err: unknown): string {
    const name = CONSTRAINT_NAME.exec(causeMessage((err as { cause?: unknown }).cause) || String((err as { message?: unknown }).message ?? ''))?.[1];
    return name ? `the database constraint "${name}"` : 'a constraint of the database';
}

/** The longest text of a database rule (a trigger's message) an answer repeats. */
const MAX_RULE_TEXT = 500;

/**
 * A rule the application put into the database refused the write: a trigger that raised (PostgreSQL's
 * `RAISE EXCEPTION`, SQLSTATE P0001; SQLite's `RAISE(ABORT, …)`), or a SQLite CHECK constraint. The message of
 * a trigger is the application's own text for the client (2.x passes it on too); Prisma reports both SQLite
 * cases as a foreign-key violation (P2003), which names a rule that was not broken.
 */
function databaseRule(cause: unknown): string | undefined {
    if (typeof cause !== 'object' || cause === null) return undefined;
    const { code, originalCode } = cause as Record<string, unknown>;
    const state = typeof originalCode === 'string' ? originalCode : code;
    const text = causeMessage(cause);
    if (state === 'P0001' || state === 'SQLITE_CONSTRAINT_TRIGGER') {
        const said = text.trim().slice(0, MAX_RULE_TEXT);
        return said ? `the database refused the request: ${said}` : 'the database refused the request (a trigger raised an error)';
    }
    if (state === 'SQLITE_CONSTRAINT_CHECK') {
        const name = /^CHECK constraint failed: (.{1,128})$/.exec(text)?.[1];
        return `the request violates ${name ? `the database constraint "${name}"` : 'a CHECK constraint of the database'}`;
    }
    return undefined;
}

/** PostgreSQL's reason for a value too long for its column names the type and never the value (text, or a bit string). */
const LENGTH_REASON = /^(value|bit string) too long for type [\w ]{1,40}\(\d{1,10}\)$/;

/** A type as PostgreSQL names it in a reason: `inet`, `character varying`, `public."Color"`, `integer[]`. */
const PG_TYPE = '[\\w ."\\[\\]]{1,80}';
/**
 * Reasons of PostgreSQL for a value it cannot take (class 22) or a comparison it has no operator for (42883) that
 * name types and lengths only, never a value: passed on, so that the answer says which type it was. Of an input
 * syntax error only the part before the value (`invalid input syntax for type inet`) is kept.
 */
const TYPE_REASONS: readonly RegExp[] = [
    new RegExp(`^invalid input syntax for type ${PG_TYPE}(?=: )`),
    /^invalid XML (content|document)$/,
    /^bit string length \d{1,10} does not match type bit\(\d{1,10}\)$/,
    new RegExp(`^operator does not exist: ${PG_TYPE} [-+*/<>=~!@#%^&|?]{1,3} ${PG_TYPE}$`),
    new RegExp(`^could not identify an? (equality|ordering|comparison) operator for type ${PG_TYPE}$`),
    new RegExp(`^function [\\w."]{1,130}\\(${PG_TYPE}(, ${PG_TYPE}){0,3}\\) does not exist$`),
];

/** The database's reason for an error (a driver adapter error), when it names types only (`TYPE_REASONS`). */
function typeReason(err: unknown): string | undefined {
    const reason = causeMessage((err as { cause?: unknown } | undefined)?.cause ?? {}).trim();
    for (const pattern of TYPE_REASONS) {
        const match = pattern.exec(reason);
        if (match) return match[0];
    }
    return undefined;
}

/**
 * A value too long for its column (P2000). Through a driver adapter Prisma's message names no column ("Column: (not
 * available)"); the database's reason names the limit (`value too long for type character varying(5)`).
 */
function tooLongMessage(driverError: unknown): string {
    const reason = causeMessage((driverError as { cause?: unknown } | undefined)?.cause ?? {}).trim();
    const limit = LENGTH_REASON.test(reason) ? `: ${reason}` : '';
    return `a value of the request is too long for its column in the database${limit}`;
}

/** A syntax error is the server's fault, except in a full-text query, which is the request's text. */
const TSQUERY_SYNTAX = /(syntax error|no operand) in tsquery/i;
/** PostgreSQL's undefined_function: an operation the request asks for does not exist for a column's type. */
const UNDEFINED_FUNCTION_SQLSTATE = '42883';

function sqlState(err: unknown): string | undefined {
    const cause = typeof err === 'object' && err !== null ? (err as { cause?: unknown }).cause : undefined;
    if (typeof cause !== 'object' || cause === null) return undefined;
    const { code, originalCode } = cause as { code?: unknown; originalCode?: unknown };
    return typeof code === 'string' ? code : typeof originalCode === 'string' ? originalCode : undefined;
}

/** SQLite result codes (with their extended forms) that mean the file cannot be used now. */
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|READONLY|CANTOPEN|IOERR|FULL|NOMEM|PROTOCOL|NOTADB|CORRUPT)/;

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

/**
 * Whether `err` is a failure of a statement the database ran (a driver adapter error, or a Prisma request error other
 * than ZenStack's policy refusals), or of a transaction that ended. On PostgreSQL such a failure aborts the
 * transaction the statement ran in, so a look-up of the handler's own must pass it on, never go on past it: the write
 * after it would fail on the aborted transaction (a 500), where the failure itself answers for the request.
 */
export function failedInDatabase(err: unknown): boolean {
    const name = errorName(err);
    if (name === 'DriverAdapterError' || name === 'PrismaClientUnknownRequestError') return true;
    if (name === 'PrismaClientKnownRequestError') return errorCode(err) !== 'P2004';
    return err instanceof Error && err.message.includes(TRANSACTION_ENDED_MESSAGE);
}

/**
 * The client-safe message when a driver adapter error (`{ name: 'DriverAdapterError', cause: { kind, code?,
 * originalCode? } }`, alone or as `meta.driverAdapterError` of a Prisma error) is the database's condition
 * rather than the request's fault; otherwise undefined.
 */
function driverCondition(err: unknown): string | undefined {
    if (typeof err !== 'object' || err === null) {
        return undefined;
    }
    const cause = (err as { cause?: unknown }).cause;
    if (typeof cause !== 'object' || cause === null) {
        return undefined;
    }
    const { kind, code, originalCode } = cause as { kind?: unknown; code?: unknown; originalCode?: unknown };
    if (kind === 'TransactionWriteConflict') {
        return CONFLICT_MESSAGE;
    }
    if (typeof kind === 'string' && UNAVAILABLE_DRIVER_KINDS.has(kind)) {
        return UNAVAILABLE_MESSAGE;
    }
    const state = typeof code === 'string' ? code : typeof originalCode === 'string' ? originalCode : undefined;
    if (state === undefined) {
        return undefined;
    }
    if (CONFLICT_SQLSTATE.has(state)) {
        return CONFLICT_MESSAGE;
    }
    if (state === CANCELED_SQLSTATE) {
        return BUSY_MESSAGE;
    }
    return state === READ_ONLY_SQLSTATE || UNAVAILABLE_SQLSTATE.test(state) || UNAVAILABLE_SQLITE.test(state) ? UNAVAILABLE_MESSAGE : undefined;
}

/**
 * ZenStack's plain Error for `check` on a schema generated without permission checkers: the
 * operation is not available on this server, a 400 like any operation the client lacks (as
 * `@zenstackhq/server` 2.x answers), saying what to change.
 */
const NO_PERMISSION_CHECKERS = /permission checkers not found/i;

/**
 * bcryptjs refusing a value that ZenStack's `@password` enhancement gave it to hash with a number of salt
 * rounds (`hash(null, 12)` to clear an optional password, a number): the request's value, hashed before the
 * ORM could validate it. (ZenStack's proxy replaces the stack, so the message is all there is to go by.)
 */
const PASSWORD_HASH_ARGUMENTS = /^Illegal arguments: \w+, number$/;
const PASSWORD_VALUE_MESSAGE = 'invalid value for a @password field: it is hashed, so it must be a string (it cannot be cleared with null)';
const CHECK_UNAVAILABLE_MESSAGE =
    'operation check is not available: the schema is generated without permission checkers (set generatePermissionChecker = true in the @core/enhancer plugin)';

/** Prisma's client could not read back an integer a column holds (an `Int` beyond 2^53, which SQLite stores). */
const UNREADABLE_NUMBER = /value in column '[^']{0,128}' is too large to represent as a JavaScript number/;

export function isUnreadableNumberError(err: unknown): boolean {
    return err instanceof Error && UNREADABLE_NUMBER.test(err.message);
}

/** The query compiler's JSON parser refusing a string with an unpaired UTF-16 surrogate (`"a\ud800"`, JSON's escape of it). */
const UNPAIRED_SURROGATE = /JSON Error: (unexpected end of hex escape|lone leading surrogate in hex escape|invalid unicode code point)/;
/** The query compiler refusing a Date beyond the years 0000-9999 (ISO 8601's `+010000-…` or `-000001-…`). */
const UNCONVERTIBLE_DATE = /Could not convert argument value Object \{"\$type": String\("DateTime"\)/;

/**
 * The query compiler has no such operation for the model: a write of a database view (Prisma makes views read-only),
 * or an operation the database lacks. The request's, a 400 saying which.
 */
const NO_SUCH_QUERY = /Operation '(\w{1,64})' for model '(\w{1,128})' does not match any query\./;

function unsupportedOperation(text: string): string | undefined {
    const match = NO_SUCH_QUERY.exec(text);
    if (!match) return undefined;
    return `the data layer does not support ${match[1]} on model ${match[2]} (a database view is read-only; some operations depend on the database)`;
}

/**
 * A value of the request that the data layer cannot put into a query at all: which kind it is, or undefined. (Its
 * message says only that, besides the client's own source text; both are the request's fault, a 400.)
 */
function unencodableValue(text: string): string | undefined {
    if (UNPAIRED_SURROGATE.test(text)) return 'a string of the request is not valid Unicode (an unpaired UTF-16 surrogate)';
    if (UNCONVERTIBLE_DATE.test(text)) return 'a date of the request is outside the years 0000 to 9999 that the data layer takes';
    return undefined;
}

/**
 * The field a column of a constraint belongs to, by the name the API knows it (`personId` for `@map("person_id")`);
 * PostgreSQL quotes a column named like a keyword (`"row"`).
 */
function fieldOfColumn(model: ModelDef | undefined, column: unknown): string {
    const name = typeof column === 'string' ? column.replace(/^"(.*)"$/, '$1') : String(column);
    return model?.mappedColumns.get(name) ?? name;
}

/** What an error is, for the answer; `registry`, when known, names the fields of a violated constraint as the schema does. */
export function classifyError(err: unknown, registry?: ModelRegistry): ClassifiedError {
    if (err instanceof BadRequestError || err instanceof CodecError) {
        return { kind: 'bad-request', message: err.message };
    }
    if (err instanceof RecordNotFoundError) {
        return { kind: 'not-found', message: err.message, ormCode: err.code };
    }
    if (err instanceof RequiredRelationError) {
        return { kind: 'orm', message: err.message, ormCode: err.code };
    }
    if (err instanceof Error && NO_PERMISSION_CHECKERS.test(err.message)) {
        return { kind: 'bad-request', message: CHECK_UNAVAILABLE_MESSAGE };
    }
    if (err instanceof Error && err.name === 'Error' && PASSWORD_HASH_ARGUMENTS.test(err.message)) {
        return { kind: 'bad-request', message: PASSWORD_VALUE_MESSAGE };
    }
    const name = errorName(err);
    const code = errorCode(err);
    let text: string | undefined;
    /** The error's message, meta and cause as one string, built once and only when a rule needs it. */
    const errText = (): string => (text ??= textOf(err));

    if (name === 'PrismaClientKnownRequestError' && code) {
        const meta = ((err as { meta?: Record<string, unknown> }).meta ?? {}) as Record<string, unknown>;
        const reason = typeof meta.reason === 'string' ? meta.reason : undefined;
        const message = cleanOrmMessage((err as Error).message);
        if (code === 'P2004') {
            if (reason === 'RESULT_NOT_READABLE') {
                return { kind: 'not-readable', message: NOT_READABLE_MESSAGE, ormCode: code, reason };
            }
            if (reason === DATA_VALIDATION_VIOLATION) {
                return { kind: 'data-validation', message: withoutCheckedEntity(message), ormCode: code, reason, issues: meta.zodErrors };
            }
            return { kind: 'policy', message: 'denied by access policy', ormCode: code, reason: reason ?? 'ACCESS_POLICY_VIOLATION' };
        }
        if (code === 'P2025' || code === 'P2001' || code === 'P2015' || code === 'P2018') {
            return { kind: 'not-found', message, ormCode: code, reason };
        }
        if (code === 'P2002') {
            const target = meta.target ?? (meta.driverAdapterError as { cause?: { constraint?: { fields?: unknown } } })?.cause?.constraint?.fields;
            const model = typeof meta.modelName === 'string' ? registry?.byName.get(meta.modelName) : undefined;
            const fields = Array.isArray(target) ? target.map((c) => fieldOfColumn(model, c)).join(', ') : typeof target === 'string' ? target : undefined;
            return { kind: 'unique', message: fields ? `unique constraint violated on (${fields})` : 'unique constraint violated', ormCode: code };
        }
        if (code === 'P2000') {
            return { kind: 'orm', message: tooLongMessage(meta.driverAdapterError), ormCode: code };
        }
        // a SQLite CHECK constraint comes as a known request error of that code, a trigger as P2003 with the driver's cause
        const rule = databaseRule((meta.driverAdapterError as { cause?: unknown } | undefined)?.cause) ?? databaseRule({ code, message });
        if (rule) {
            return { kind: 'orm', message: rule, ormCode: code };
        }
        const transient = TRANSIENT_CODES.get(code) ?? driverCondition(meta.driverAdapterError);
        if (transient) {
            return { kind: 'unavailable', message: transient, ormCode: code };
        }
        if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLITE.test(code) || UNAVAILABLE_TEXT.test(errText())) {
            return { kind: 'unavailable', message: UNAVAILABLE_MESSAGE, ormCode: code };
        }
        return { kind: 'orm', message, ormCode: code };
    }
    if (name === 'PrismaClientValidationError') {
        return { kind: 'validation', message: cleanOrmMessage((err as Error).message) };
    }
    if (name === 'DriverAdapterError') {
        // a driver error Prisma did not translate (e.g. a deadlock or a terminated backend inside a transaction)
        const condition = driverCondition(err);
        if (condition) {
            return { kind: 'unavailable', message: condition };
        }
        const rule = databaseRule((err as { cause?: unknown }).cause);
        if (rule) {
            return { kind: 'orm', message: rule };
        }
        const state = sqlState(err);
        if (state && DATA_EXCEPTION_SQLSTATE.test(state)) {
            const reason = typeReason(err);
            return { kind: 'orm', message: `the database cannot take a value of the request (${reason ?? 'invalid data'}, SQLSTATE ${state})` };
        }
        if (state && INTEGRITY_SQLSTATE.test(state)) {
            return { kind: 'orm', message: `the request violates ${violatedConstraint(err)} (SQLSTATE ${state})` };
        }
        if (state && LIMIT_EXCEEDED_SQLSTATE.test(state)) {
            return { kind: 'orm', message: `the request exceeds a limit of the database (e.g. a value too large for an index; SQLSTATE ${state})` };
        }
        if (state === UNDEFINED_FUNCTION_SQLSTATE) {
            // the client accepts `_min`/`_max` of every scalar, PostgreSQL has no min(uuid) or max(boolean); equality
            // and order of every field, PostgreSQL has neither for xml, nor order for json (`@db.Json`)
            const reason = typeReason(err);
            return {
                kind: 'orm',
                message: reason
                    ? `the database has no function or operator for a type in the request: ${reason} (SQLSTATE ${state})`
                    : `the database has no function for a type in the request (e.g. _min or _max of a uuid or boolean field; SQLSTATE ${state})`,
            };
        }
        if (state === '42601' && TSQUERY_SYNTAX.test(errText())) {
            return { kind: 'orm', message: 'invalid full-text search query: join words with &, |, <-> or ! (to_tsquery syntax; SQLSTATE 42601)' };
        }
    }
    if (errText().includes(TRANSACTION_ENDED_MESSAGE)) {
        // a statement of a transaction that had timed out (and been rolled back), refused by withTransactionCleanup
        return { kind: 'unavailable', message: BUSY_MESSAGE };
    }
    if (name === 'PrismaClientRustPanicError' && COMPILER_PANIC.test(errText())) {
        // the query compiler cannot translate these arguments: retrying the same request cannot succeed
        return { kind: 'orm', message: 'the data layer cannot build a query for these arguments (its query compiler failed on them)', alarm: true };
    }
    if (name === 'PrismaClientInitializationError' || name === 'PrismaClientRustPanicError' || UNAVAILABLE_TEXT.test(errText())) {
        return { kind: 'unavailable', message: UNAVAILABLE_MESSAGE, ormCode: code };
    }
    if (COMPILER_BROKEN.test(errText())) {
        return { kind: 'unknown', message: 'an unexpected error occurred' };
    }
    if (name === 'PrismaClientUnknownRequestError') {
        return { kind: 'orm', message: unencodableValue(errText()) ?? unsupportedOperation(errText()) ?? 'the data layer rejected the request' };
    }
    return { kind: 'unknown', message: 'an unexpected error occurred' };
}
