/**
 * Prepared statements kept per connection for `@prisma/adapter-better-sqlite3`.
 *
 * The adapter compiles every statement anew (`client.prepare(sql).bind(args)`, then `run()` or `raw().all()`),
 * although Prisma sends the same few SQL texts over and over: compiling the bench's single-post read takes about
 * 18 µs, a third of what running it through the adapter costs, and each native statement object is garbage for V8
 * to collect. `keepPreparedStatements` makes the connection's `prepare` hand out a stand-in for a statement
 * compiled once and kept (the `limit` most recently used texts), which runs it with its arguments bound for that one
 * call, as better-sqlite3's `run(...args)` does: a statement is reset and its bindings cleared after every call,
 * whether it succeeded or failed.
 *
 * What is kept: statements whose text starts with a data or transaction keyword (SELECT, INSERT, UPDATE, DELETE,
 * REPLACE, WITH, BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT, RELEASE), up to `MAX_SQL_LENGTH` characters, with no `*`
 * but in `COUNT(*)`. SQLite compiles a kept statement again by itself when the schema has changed, but only when it
 * runs: the column names and declared types better-sqlite3 reports before that (`columns()`, which the adapter
 * reads first) are those of the old schema. So a `SELECT *` (whose columns are the table's) is never kept, a
 * statement that changes the schema on this connection (CREATE, ALTER, DROP, ATTACH, DETACH, or anything sent
 * through `exec`) drops every kept statement, and so does a new `defaultSafeIntegers` setting (statements take it
 * when compiled). Prisma's own statements name every column they read. What remains: after another process changes
 * a table's declared column types, the first run of each kept statement reading it reports the old types (without
 * the cache, SQLite does the same for the first statement the connection compiles after the change).
 * PRAGMA and EXPLAIN statements (rare, and partly worked out while compiling) are compiled every time, and so is
 * everything on a closed connection.
 *
 * The stand-in serves the calls the adapter makes from the kept statement. Any other use (`iterate`,
 * `safeIntegers`, a second `bind`, arguments to a bound statement, a mode on a statement that returns no rows)
 * moves it to a statement of its own, compiled for it, so better-sqlite3 behaves, and fails, exactly as without
 * the cache.
 */

/** The part of a better-sqlite3 statement the stand-in uses. */
interface Statement {
    readonly reader: boolean;
    readonly readonly: boolean;
    readonly busy: boolean;
    readonly source: string;
    readonly database: unknown;
    bind(...params: unknown[]): Statement;
    run(...params: unknown[]): unknown;
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    iterate(...params: unknown[]): IterableIterator<unknown>;
    columns(): unknown[];
    raw(toggle?: boolean): Statement;
    pluck(toggle?: boolean): Statement;
    expand(toggle?: boolean): Statement;
    safeIntegers(toggle?: boolean): Statement;
}

/** The part of a better-sqlite3 `Database` the cache uses. */
interface Database {
    readonly open: boolean;
    prepare(sql: string): Statement;
    defaultSafeIntegers(toggle?: boolean): unknown;
    exec?(sql: string): unknown;
}

/** Statements longer than this (a filter of thousands of values, say) are compiled each time, not kept. */
export const MAX_SQL_LENGTH = 16_384;

/** How many statements a connection keeps unless told otherwise. */
export const DEFAULT_PREPARED_STATEMENTS = 256;

const KEPT = /^\s*(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|WITH|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
const CHANGES_SCHEMA = /^\s*(?:CREATE|ALTER|DROP|ATTACH|DETACH)\b/i;
const COUNT_ALL = /\bCOUNT\(\*\)/gi;

/** Whether a statement's text may be kept (see above). */
export function keepable(sql: string): boolean {
    return sql.length <= MAX_SQL_LENGTH && KEPT.test(sql) && (!sql.includes('*') || !sql.replace(COUNT_ALL, '').includes('*'));
}

type Mode = 'raw' | 'pluck' | 'expand' | undefined;

/** A kept statement and the output mode it was last left in. */
interface Entry {
    statement: Statement;
    mode: Mode;
}

const INSTALLED = Symbol.for('zenstack-api.preparedStatements');

function isDatabase(value: unknown): value is Database {
    const db = value as Partial<Database> | null;
    return typeof db?.prepare === 'function' && typeof db.defaultSafeIntegers === 'function' && typeof db.open === 'boolean';
}

/**
 * Makes `db.prepare` (a better-sqlite3 `Database`) hand out kept statements, at most `limit` of them. Returns false,
 * changing nothing, when `db` is not such a database, `limit` is not a positive integer, or it is installed already.
 */
export function keepPreparedStatements(db: unknown, limit: number = DEFAULT_PREPARED_STATEMENTS): boolean {
    if (!isDatabase(db) || !Number.isSafeInteger(limit) || limit <= 0) return false;
    const target = db as unknown as Record<string | symbol, unknown>;
    if (target[INSTALLED]) return false;
    const compile = db.prepare.bind(db);
    const setDefault = db.defaultSafeIntegers.bind(db);
    const exec = typeof db.exec === 'function' ? db.exec.bind(db) : undefined;
    const kept = new Map<string, Entry>();
    const prepare = (sql: string): Statement => {
        if (!db.open) {
            kept.clear();
            return compile(sql);
        }
        let entry = kept.get(sql);
        if (entry) {
            // most recently used last, so that the first is the one to drop
            kept.delete(sql);
        } else if (typeof sql !== 'string' || !keepable(sql)) {
            if (typeof sql === 'string' && CHANGES_SCHEMA.test(sql)) kept.clear();
            return compile(sql);
        } else {
            entry = { statement: compile(sql), mode: undefined };
            if (kept.size >= limit) kept.delete(kept.keys().next().value as string);
        }
        kept.set(sql, entry);
        return new KeptStatement(entry, () => compile(sql)) as unknown as Statement;
    };
    const define = (name: string | symbol, value: unknown) => Object.defineProperty(target, name, { value, configurable: true, writable: true });
    define('prepare', prepare);
    define('defaultSafeIntegers', (...args: [boolean?]) => {
        kept.clear();
        setDefault(...args);
        return db;
    });
    if (exec) {
        define('exec', (sql: string) => {
            kept.clear();
            exec(sql);
            return db;
        });
    }
    define(INSTALLED, true);
    return true;
}

/** Sets a kept statement's output mode (better-sqlite3 keeps one of raw, pluck and expand, or none). */
function setMode(entry: Entry, mode: Mode): void {
    if (entry.mode === mode) return;
    if (mode) entry.statement[mode](true);
    else if (entry.mode) entry.statement[entry.mode](false);
    entry.mode = mode;
}

/** What `prepare` hands out: a kept statement, run with this stand-in's arguments and mode. */
class KeptStatement {
    private params: unknown[] | undefined;
    private mode: Mode;
    /** The statement of its own, once a use the kept one cannot serve has come. */
    private own: Statement | undefined;

    constructor(
        private readonly entry: Entry,
        private readonly compile: () => Statement,
    ) {}

    /** The statement this stand-in reads its properties from: its own once it has one, else the kept one. */
    private get current(): Statement {
        return this.own ?? this.entry.statement;
    }

    get reader(): boolean {
        return this.current.reader;
    }

    get readonly(): boolean {
        return this.current.readonly;
    }

    get busy(): boolean {
        return this.own ? this.own.busy : false;
    }

    get source(): string {
        return this.current.source;
    }

    get database(): unknown {
        return this.current.database;
    }

    /** A statement of its own, in the state this stand-in is in. */
    private detach(): Statement {
        if (!this.own) {
            const own = this.compile();
            if (this.params) own.bind(...this.params);
            if (this.mode) own[this.mode](true);
            this.own = own;
        }
        return this.own;
    }

    /**
     * Runs `method` with `args` on the kept statement (never busy: it is never iterated), in this stand-in's mode
     * and with its bound parameters, or on a statement of its own when the call is one the kept one cannot serve.
     */
    private call<M extends 'run' | 'get' | 'all'>(method: M, args: unknown[]): ReturnType<Statement[M]> {
        if (this.own || (this.params && args.length > 0)) return this.detach()[method](...args) as ReturnType<Statement[M]>;
        const { statement } = this.entry;
        if (statement.reader) setMode(this.entry, this.mode);
        return statement[method](...(this.params ?? args)) as ReturnType<Statement[M]>;
    }

    bind(...params: unknown[]): this {
        if (this.own || this.params) this.detach().bind(...params);
        else this.params = params;
        return this;
    }

    run(...args: unknown[]): unknown {
        return this.call('run', args);
    }

    get(...args: unknown[]): unknown {
        return this.call('get', args);
    }

    all(...args: unknown[]): unknown[] {
        return this.call('all', args);
    }

    iterate(...args: unknown[]): IterableIterator<unknown> {
        // an iterator holds its statement until it is done: never the kept one
        return this.detach().iterate(...args);
    }

    columns(): unknown[] {
        return this.current.columns();
    }

    raw(toggle = true): this {
        return this.toggle('raw', toggle);
    }

    pluck(toggle = true): this {
        return this.toggle('pluck', toggle);
    }

    expand(toggle = true): this {
        return this.toggle('expand', toggle);
    }

    safeIntegers(toggle = true): this {
        this.detach().safeIntegers(toggle);
        return this;
    }

    private toggle(mode: Exclude<Mode, undefined>, on: boolean): this {
        if (this.own || !this.entry.statement.reader) {
            // better-sqlite3 refuses a mode for a statement that returns no rows: its own statement says so
            this.detach()[mode](on);
        } else if (on) {
            this.mode = mode;
        } else if (this.mode === mode) {
            this.mode = undefined;
        }
        return this;
    }
}
