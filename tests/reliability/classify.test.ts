import { classifyError } from '../../src/api/common/errors';
import { renderError as renderRestError } from '../../src/api/rest/errors';
import { renderError as renderRpcError } from '../../src/api/rpc/errors';

/**
 * How database conditions are classified, for error shapes recorded from the real drivers here
 * (Prisma 6.19 with @prisma/adapter-pg and @prisma/adapter-better-sqlite3): the database's condition
 * is a 503 in both protocols, the request's fault keeps its 4xx, anything else stays a 500.
 * The fault tests produce most of these for real (a deadlock too, in deadlock-pg.test.ts, where it is run again
 * before it is answered); a serialization failure Prisma translates (P2034) is covered here.
 */

function prismaError(code: string, message: string, meta: Record<string, unknown> = {}): Error {
    return Object.assign(new Error(message), { name: 'PrismaClientKnownRequestError', code, meta, clientVersion: '6.19.3' });
}

function driverError(message: string, cause: Record<string, unknown>): Error {
    return Object.assign(new Error(message), { name: 'DriverAdapterError', cause });
}

const pgCause = (code: string, message: string) => ({ originalCode: code, originalMessage: message, kind: 'postgres', code, severity: 'ERROR', message });

const CASES: [string, unknown, string, string?][] = [
    // [what, error, expected kind, expected message (for 503s)]
    ['transaction could not start in time (P2028)', prismaError('P2028', 'Transaction API error: Unable to start a transaction in the given time.'), 'unavailable', 'the database is busy, try again later'],
    ['transaction outlived its timeout (P2028)', prismaError('P2028', 'Transaction API error: A commit cannot be executed on an expired transaction.', { operation: 'commit', timeout: 5000 }), 'unavailable', 'the database is busy, try again later'],
    ['serialization failure (P2034)', prismaError('P2034', 'Transaction failed due to a write conflict or a deadlock. Please retry your transaction', { driverAdapterError: driverError('TransactionWriteConflict', { originalCode: '40001', kind: 'TransactionWriteConflict' }) }), 'unavailable', 'the request conflicted with a concurrent transaction, try again'],
    ['deadlock inside a transaction (raw driver error 40P01)', driverError('deadlock detected', pgCause('40P01', 'deadlock detected')), 'unavailable', 'the request conflicted with a concurrent transaction, try again'],
    ['session terminated mid-query (raw driver error 57P01)', driverError('terminating connection due to administrator command', { ...pgCause('57P01', 'terminating connection due to administrator command'), severity: 'FATAL' }), 'unavailable', 'the database is unavailable, try again later'],
    ['server starting up (57P03) as a Prisma error', prismaError('P2010', 'Raw query failed. Code: `57P03`.', { driverAdapterError: driverError('postgres', pgCause('57P03', 'the database system is starting up')) }), 'unavailable'],
    ['too many connections (P2037)', prismaError('P2037', 'Too many database connections opened'), 'unavailable'],
    ['connection refused (P1001)', prismaError('P1001', "Can't reach database server at 127.0.0.1:1", { driverAdapterError: driverError('DatabaseNotReachable', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 }) }), 'unavailable'],
    ['SQLite disk full', prismaError('SQLITE_FULL', 'database or disk is full'), 'unavailable'],
    ['SQLite I/O error', prismaError('SQLITE_IOERR_WRITE', 'disk I/O error'), 'unavailable'],
    ['SQLite busy at COMMIT (raw driver error)', driverError('SocketTimeout', { originalCode: 'SQLITE_BUSY', originalMessage: 'database is locked', kind: 'SocketTimeout' }), 'unavailable'],
    ['better-sqlite3 cannot open the file', new TypeError('Cannot open database because the directory does not exist'), 'unavailable'],
    ['node-postgres pool timeout', new Error('timeout exceeded when trying to connect'), 'unavailable'],
    // the request's fault, or unknown: unchanged
    ['unique violation (P2002)', prismaError('P2002', 'Unique constraint failed on the fields: (`email`)', { target: ['email'] }), 'unique'],
    ['foreign key violation (P2003)', prismaError('P2003', 'Foreign key constraint violated'), 'orm'],
    // SQLSTATE class 22 (data exception): a value of the request the database cannot take, a 400
    ['invalid input in a raw driver error (22P02)', driverError('invalid input syntax for type integer', pgCause('22P02', 'invalid input syntax for type integer')), 'orm'],
    // SQLSTATE class 54 (program limit exceeded, e.g. an index row over its maximum) and a full-text query PostgreSQL cannot parse: the request's
    ['a value too large for its index (54000)', driverError('index row requires 16016 bytes, maximum size is 8191', pgCause('54000', 'index row requires 16016 bytes, maximum size is 8191')), 'orm'],
    ['a full-text query with a syntax error (42601)', driverError('syntax error in tsquery: "hello world"', pgCause('42601', 'syntax error in tsquery: "hello world"')), 'orm'],
    ['a full-text query without an operand (42601)', driverError('no operand in tsquery: "!"', pgCause('42601', 'no operand in tsquery: "!"')), 'orm'],
    // any other syntax error is a bug of the query, not the request's
    ['another syntax error (42601)', driverError('syntax error at or near "x"', pgCause('42601', 'syntax error at or near "x"')), 'unknown'],
    // the query compiler panicking on the request's arguments (recorded from Prisma 6.19's client engine); the next statement's borrow error is transient
    ['a panic of the query compiler', Object.assign(new Error('\nInvalid `t=Object.create()` invocation\n\npanicked at query-engine/query-builders/sql-query-builder/src/filter/visitor.rs:813:26:\nJSON target types only accept strings or numbers, found: true\n\nThis is a non-recoverable error'), { name: 'PrismaClientRustPanicError', clientVersion: '6.19.3' }), 'orm'],
    ['a panic of the query graph builder', Object.assign(new Error('\nInvalid invocation\n\npanicked at query-engine/core/src/query_graph_builder/read/aggregations/group_by.rs:136:14:\ninternal error: entered unreachable code'), { name: 'PrismaClientRustPanicError', clientVersion: '6.19.3' }), 'orm'],
    ['the borrow error after a panic', new Error('attempted to take ownership of Rust value while it was borrowed'), 'unavailable'],
    // after enough panics every query failed so (recorded from Prisma 6.19): the server's condition, not the request's 400
    ['the query compiler broken for good', Object.assign(new Error('\nInvalid `prisma.post.count()` invocation:\n\nmemory access out of bounds'), { name: 'PrismaClientUnknownRequestError', clientVersion: '6.19.3' }), 'unknown'],
    ['a panic elsewhere (the engine itself)', Object.assign(new Error('PANIC: called `Option::unwrap()` on a `None` value'), { name: 'PrismaClientRustPanicError', clientVersion: '6.19.3' }), 'unavailable'],
    ['an unrelated TypeError', new TypeError("Cannot read properties of undefined (reading 'id')"), 'unknown'],
];

describe('classification of database conditions', () => {
    const rows = CASES.map(([what, err, kind, message]) => ({ what, err, kind, message }));
    it.each(rows)('$what → $kind', ({ err, kind, message }) => {
        const c = classifyError(err);
        expect(c.kind).toBe(kind);
        if (message) expect(c.message).toBe(message);
        if (kind === 'unavailable') {
            expect(renderRpcError(err, null).status).toBe(503);
            const rest = renderRestError(err, null);
            expect(rest.status).toBe(503);
            expect((rest.body as { errors: { code: string }[] }).errors[0].code).toBe('service-unavailable');
            // nothing of the driver's text reaches the client
            expect(JSON.stringify([renderRpcError(err, null).body, rest.body])).not.toMatch(/deadlock detected|administrator|directory|disk|SocketTimeout|starting up/);
        }
    });
});

describe('a panic of the query compiler', () => {
    const panic = Object.assign(new Error('\npanicked at query-engine/core/src/query_graph_builder/read/aggregations/group_by.rs:136:14:\ninternal error: entered unreachable code'), {
        name: 'PrismaClientRustPanicError',
        clientVersion: '6.19.3',
    });

    it('is a 400 in both protocols, logged as an error (the request hurt the process: it disconnected the client)', () => {
        const lines: Array<[string, string, string | undefined]> = [];
        const logger = {
            error: (m: string, c?: string) => lines.push(['error', m, c]),
            warn: (m: string, c?: string) => lines.push(['warn', m, c]),
            info: () => undefined,
            debug: (m: string, c?: string) => lines.push(['debug', m, c]),
        };
        const rpc = renderRpcError(panic, logger);
        const rest = renderRestError(panic, logger);
        expect([rpc.status, rest.status]).toEqual([400, 400]);
        expect(JSON.stringify([rpc.body, rest.body])).not.toMatch(/group_by|panicked/);
        expect(lines.map(([level, , code]) => [level, code])).toEqual([
            ['error', 'orm-panic'],
            ['error', 'orm-error'],
        ]);
        // the log keeps the compiler's reason
        expect(lines.every(([, message]) => /panicked at .*group_by\.rs[\s\S]*internal error: entered unreachable code/.test(message))).toBe(true);
    });

    it('as Prisma renders one (its invocation banner first), it keeps its reason in the log', () => {
        const rendered = Object.assign(new Error('\nInvalid `t=Object.create()` invocation\n\npanicked at query-engine/query-builders/sql-query-builder/src/filter/visitor.rs:813:26:\nJSON target types only accept strings or numbers, found: true\n\nThis is a non-recoverable error'), {
            name: 'PrismaClientRustPanicError',
            clientVersion: '6.19.3',
        });
        const lines: string[] = [];
        renderRpcError(rendered, { error: (m: string) => lines.push(m) });
        expect(lines).toEqual([expect.stringMatching(/PrismaClientRustPanicError: panicked at .*visitor\.rs:813:26: JSON target types only accept strings or numbers, found: true This is a non-recoverable error\n\s+at /)]);
        expect(lines[0]).not.toMatch(/invocation/);
    });
});
