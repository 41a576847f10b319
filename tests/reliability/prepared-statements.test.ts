import Database from 'better-sqlite3';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { withTransactionCleanup, type TransactionCleanupOptions } from '../../src';
import { withOverrides } from '../../src/driver/overrides';
import { keepable, keepPreparedStatements, MAX_SQL_LENGTH } from '../../src/driver/statement-cache';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * `withTransactionCleanup` keeps the statements `@prisma/adapter-better-sqlite3` compiles (it compiles every one
 * anew): what a request sends again is not compiled again, and every answer, error and value is what it is without.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Client = any;
type Db = Database.Database;

/**
 * Makes `db` count what it compiles, by SQL text, in `compiled`: an own `prepare`, which the cache installs over, so
 * what reaches better-sqlite3 is counted.
 */
function countCompiles(db: Db, compiled: Map<string, number>): void {
    const compile = db.prepare.bind(db);
    Object.defineProperty(db, 'prepare', {
        configurable: true,
        writable: true,
        value: (sql: string) => {
            compiled.set(sql, (compiled.get(sql) ?? 0) + 1);
            return compile(sql);
        },
    });
}

/** A client of `s` whose better-sqlite3 connection counts what it compiles, by SQL text. */
function compilingClient(s: TestSchema, options?: TransactionCleanupOptions): { client: Client; compiled: Map<string, number>; total: () => number } {
    const compiled = new Map<string, number>();
    const factory = new PrismaBetterSQLite3({ url: s.databaseUrl });
    const connect = async () => {
        const adapter = (await factory.connect()) as unknown as { client: Db };
        countCompiles(adapter.client, compiled);
        return adapter;
    };
    const client = s.createClient(withTransactionCleanup(withOverrides(factory, { connect }), options));
    const total = () => [...compiled.values()].reduce((a, b) => a + b, 0);
    return { client, compiled, total };
}

const rpc = RPCApiHandler();
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
const call = (s: TestSchema, prisma: Client, method: string, path: string, body?: unknown, query: Record<string, string> = {}) =>
    (path.startsWith('/rest') ? rest : rpc)({ method, path: path.replace(/^\/(rest|rpc)/, ''), query, requestBody: body, prisma, modelMeta: s.modelMeta, logger: null });

describe('kept statements through Prisma and the handlers', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema();
        await s.prisma.user.create({ data: { id: 1, email: 'a@x', posts: { create: [{ id: 1, title: 'one', published: true }] } } });
    });
    afterAll(() => s.cleanup());

    it('a request sent again compiles nothing new; with preparedStatements: 0 every statement is compiled', async () => {
        const kept = compilingClient(s);
        const fresh = compilingClient(s, { preparedStatements: 0 });
        try {
            const read = (c: Client) => call(s, s.enhanceClient(c, { id: 1 }), 'GET', '/rpc/post/findUnique', undefined, { q: JSON.stringify({ where: { id: 1 }, include: { comments: true } }) });
            const first = await read(kept.client);
            expect(first.status).toBe(200);
            const [keptBefore, freshBefore] = [kept.total(), (await read(fresh.client), fresh.total())];
            for (let i = 0; i < 20; i++) {
                expect(await read(kept.client)).toEqual(first);
                expect(await read(fresh.client)).toEqual(first);
            }
            expect(kept.total()).toBe(keptBefore);
            expect(fresh.total() - freshBefore).toBeGreaterThanOrEqual(20 * 2);
        } finally {
            await kept.client.$disconnect();
            await fresh.client.$disconnect();
        }
    });

    it('a statement that failed runs again, failing or not, without being compiled again', async () => {
        const kept = compilingClient(s);
        try {
            const db = s.enhanceClient(kept.client, { id: 1 });
            const create = (email: string) => call(s, db, 'POST', '/rpc/user/create', { data: { email } });
            const dup = [await create('a@x'), await create('a@x')];
            expect(dup.map((r) => r.status)).toEqual([400, 400]);
            expect(dup[1].body).toEqual(dup[0].body);
            const made = await create('b@x');
            expect(made.status).toBe(201);
            const inserts = [...kept.compiled].filter(([sql]) => /^INSERT INTO `main`\.`User`/.test(sql));
            expect(inserts).toHaveLength(1);
            expect(inserts[0][1]).toBe(1);
        } finally {
            await kept.client.$disconnect();
        }
    });

    it('after a table is made again with another column type on the connection, the kept read reports the new type', async () => {
        const kept = compilingClient(s);
        try {
            const c = kept.client;
            const read = () => c.$queryRawUnsafe('SELECT a FROM "Remade"') as Promise<{ a: unknown }[]>;
            await c.$executeRawUnsafe('CREATE TABLE "Remade" (a INTEGER)');
            await c.$executeRawUnsafe('INSERT INTO "Remade" (a) VALUES (7)');
            expect(Number((await read())[0].a)).toBe(7);
            expect(typeof (await read())[0].a).not.toBe('string');
            await c.$executeRawUnsafe('DROP TABLE "Remade"');
            await c.$executeRawUnsafe('CREATE TABLE "Remade" (a TEXT)');
            await c.$executeRawUnsafe(`INSERT INTO "Remade" (a) VALUES ('7')`);
            // a statement compiled before would still declare INTEGER, and the adapter would turn '7' into 7
            expect(await read()).toEqual([{ a: '7' }]);
        } finally {
            await kept.client.$disconnect();
        }
    });

    it('a SELECT * is never kept: once the connection has seen a column another connection added, it shows', async () => {
        const kept = compilingClient(s);
        const other = new Database(s.dbFile as string);
        try {
            const c = kept.client;
            const columns = async () => Object.keys(((await c.$queryRawUnsafe('SELECT * FROM "Widened"')) as object[])[0]);
            await c.$executeRawUnsafe('CREATE TABLE "Widened" (a INTEGER)');
            await c.$executeRawUnsafe('INSERT INTO "Widened" (a) VALUES (1)');
            expect(await columns()).toEqual(['a']);
            expect(await columns()).toEqual(['a']);
            other.exec('ALTER TABLE "Widened" ADD COLUMN b INTEGER DEFAULT 2');
            // SQLite compiles against the schema the connection last read (so, cache or not, the first statement
            // after another connection's change reports the old columns); any read brings it up to date
            await c.user.count();
            expect(await columns()).toEqual(['a', 'b']);
            expect(kept.compiled.get('SELECT * FROM "Widened"')).toBe(3);
        } finally {
            other.close();
            await kept.client.$disconnect();
        }
    });

    it('the option is checked', () => {
        const factory = new PrismaBetterSQLite3({ url: s.databaseUrl });
        for (const preparedStatements of [-1, 1.5, Number.NaN]) {
            expect(() => withTransactionCleanup(factory, { preparedStatements })).toThrow(TypeError);
        }
        expect(() => withTransactionCleanup(factory, { preparedStatements: 0 })).not.toThrow();
    });
});

describe('the same answers with and without kept statements', () => {
    let kept: TestSchema;
    let fresh: TestSchema;
    let freshClient: Client;
    beforeAll(async () => {
        [kept, fresh] = [await loadSchema(), await loadSchema()];
        freshClient = fresh.createClient(withTransactionCleanup(new PrismaBetterSQLite3({ url: fresh.databaseUrl }), { preparedStatements: 0 }));
    });
    afterAll(async () => {
        await freshClient?.$disconnect();
        await kept?.cleanup();
        await fresh?.cleanup();
    });

    // requests that repeat statements with other arguments, fail, write in transactions and read typed values
    const script: [string, string, unknown?, Record<string, string>?][] = [
        ['POST', '/rest/user', { data: { type: 'user', attributes: { email: 'u1@x', name: 'One' } } }],
        ['POST', '/rest/user', { data: { type: 'user', attributes: { email: 'u1@x' } } }],
        ['POST', '/rest/user', { data: { type: 'user', attributes: { email: 'u2@x', role: 'ADMIN' } } }],
        ['POST', '/rpc/post/create', { data: { title: 'first', published: true, createdAt: '2024-01-01T00:00:00.000Z', author: { connect: { id: 1 } } } }],
        ['POST', '/rpc/post/create', { data: { title: 'second', createdAt: '2024-01-02T00:00:00.000Z', author: { connect: { id: 1 } } } }],
        ['POST', '/rpc/post/create', { data: { title: '', author: { connect: { id: 1 } } } }],
        ['POST', '/rpc/comment/createMany', { data: [{ content: 'c1', postId: 1 }, { content: 'c2', postId: 1 }, { content: 'c3', postId: 2 }] }],
        ['GET', '/rest/post', undefined, { include: 'author,comments', sort: '-id' }],
        ['PATCH', '/rest/post/1', { data: { type: 'post', id: '1', attributes: { viewCount: 5 } } }],
        ['PATCH', '/rest/post/2', { data: { type: 'post', id: '2', attributes: { viewCount: 9, title: 'x'.repeat(300) } } }],
        ['GET', '/rest/post', undefined, { 'filter[viewCount$gt]': '1', 'page[limit]': '1' }],
        ['GET', '/rpc/post/aggregate', undefined, { q: JSON.stringify({ _count: { _all: true }, _sum: { viewCount: true }, _max: { createdAt: true } }) }],
        ['GET', '/rpc/post/groupBy', undefined, { q: JSON.stringify({ by: ['published'], _count: { _all: true }, orderBy: { published: 'asc' } }) }],
        [
            'POST',
            '/rpc/allTypes/create',
            {
                data: { id: 'a1', bigInt: '9007199254740993', decimal: '1.25', dateTime: '2024-05-05T00:00:00.000Z', bytes: 'AQID', json: { k: [1, 2] } },
                meta: { serialization: { values: { 'data.bigInt': ['bigint'], 'data.decimal': ['Decimal'], 'data.dateTime': ['Date'], 'data.bytes': ['Bytes'] } } },
            },
        ],
        ['GET', '/rpc/allTypes/findMany', undefined, {}],
        ['POST', '/rpc/$transaction/sequential', [{ model: 'post', op: 'update', args: { where: { id: 1 }, data: { viewCount: { increment: 1 } } } }, { model: 'post', op: 'delete', args: { where: { id: 999 } } }]],
        ['GET', '/rpc/post/findMany', undefined, { q: JSON.stringify({ include: { _count: { select: { comments: true } } }, orderBy: { id: 'asc' } }) }],
        ['DELETE', '/rest/post/2'],
        ['GET', '/rpc/comment/count', undefined, {}],
        ['DELETE', '/rpc/comment/deleteMany', undefined, { q: JSON.stringify({ where: { content: { startsWith: 'c' } } }) }],
        ['GET', '/rest/user', undefined, { include: 'posts' }],
    ];

    it('every request of a script answers the same on a database with kept statements and one without', async () => {
        for (const [method, path, body, query] of script) {
            const a = await call(kept, kept.enhanceClient(kept.prisma, { id: 1 }), method, path, body, query);
            const b = await call(fresh, fresh.enhanceClient(freshClient, { id: 1 }), method, path, body, query);
            expect({ path, status: a.status, body: a.body }).toEqual({ path, status: b.status, body: b.body });
        }
        // the script ran writes that failed, and succeeded
        expect(await kept.prisma.post.count()).toBe(1);
        expect(await kept.prisma.user.count()).toBe(2);
    });
});

describe('the stand-in for a kept statement, on better-sqlite3 itself', () => {
    let plain: Db;
    let kept: Db;
    let texts: Map<string, number>;
    /** Statements `kept` compiled, of every text. */
    const compiled = () => [...texts.values()].reduce((a, b) => a + b, 0);
    beforeEach(() => {
        plain = new Database(':memory:');
        kept = new Database(':memory:');
        for (const db of [plain, kept]) {
            db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)');
            db.exec(`INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), ('c', 3)`);
        }
        texts = new Map();
        countCompiles(kept, texts);
        expect(keepPreparedStatements(kept, 2)).toBe(true);
    });
    afterEach(() => {
        plain.close();
        if (kept.open) kept.close();
    });

    /** The outcome of `use` on both databases: the same value, or the same error. */
    const both = (use: (db: Db) => unknown) => {
        const outcome = (db: Db) => {
            try {
                return { value: use(db) };
            } catch (err) {
                return { error: `${(err as Error).name}: ${(err as Error).message}` };
            }
        };
        const [p, k] = [outcome(plain), outcome(kept)];
        expect(k).toEqual(p);
        return k;
    };

    it('answers as a statement of its own in every output mode, and no mode outlives the call that set it', () => {
        const sql = 'SELECT id, name FROM t WHERE n >= ? ORDER BY id';
        both((db) => db.prepare(sql).bind([2]).raw().all());
        both((db) => db.prepare(sql).all(1));
        both((db) => db.prepare(sql).pluck().all(1));
        both((db) => db.prepare(sql).get(3));
        both((db) => db.prepare(sql).expand().get(3));
        both((db) => db.prepare(sql).raw().raw(false).all(3));
        both((db) => [db.prepare(sql).reader, db.prepare(sql).readonly, db.prepare(sql).source, db.prepare(sql).columns().map((c) => c.name)]);
        both((db) => [...db.prepare(sql).iterate(1)]);
        both((db) => db.prepare(sql).safeIntegers().all(3));
        both((db) => db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').bind(['d', 4]).run());
        both((db) => db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('e', 5));
        both((db) => db.prepare('SELECT count(*) AS k FROM t').get());
        expect(compiled()).toBe(3 + 2); // three texts, and two statements of their own (iterate, safeIntegers)
    });

    it('fails where a statement of its own fails, with the same error', () => {
        const insert = 'INSERT INTO t (name, n) VALUES (?, ?)';
        const cases: ((db: Db) => unknown)[] = [
            (db) => db.prepare(insert).bind(['x', 1]).bind(['y', 2]),
            (db) => db.prepare(insert).bind(['x', 1]).run(['y', 2]),
            (db) => db.prepare(insert).raw(),
            (db) => db.prepare(insert).all('x', 1),
            (db) => db.prepare(insert).columns(),
            (db) => db.prepare(insert).run('only one'),
            (db) => db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'taken'),
            (db) => db.prepare('SELECT nope FROM t'),
        ];
        for (const use of cases) expect(both(use)).toHaveProperty('error');
        // and runs again after each
        both((db) => db.prepare(insert).run('z', 9));
        both((db) => db.prepare('SELECT name FROM t ORDER BY id').pluck().all());
    });

    it('serves a second caller while the first still iterates the same text', () => {
        const sql = 'SELECT id FROM t ORDER BY id';
        const iterator = kept.prepare(sql).pluck().iterate();
        expect(iterator.next().value).toBe(1);
        expect(kept.prepare(sql).pluck().all()).toEqual([1, 2, 3]);
        expect([...iterator]).toEqual([2, 3]);
        expect(kept.prepare(sql).all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
        expect(compiled()).toBe(2); // the kept statement, and the iterator's own
    });

    it('keeps the most recently used texts, as many as it is given', () => {
        const q = (n: number) => `SELECT ${n} AS v`;
        for (const n of [1, 2, 1, 2, 1]) kept.prepare(q(n)).get();
        expect(compiled()).toBe(2);
        kept.prepare(q(3)).get(); // drops 2, the least recently used
        kept.prepare(q(1)).get();
        expect(compiled()).toBe(3);
        kept.prepare(q(2)).get();
        expect(compiled()).toBe(4);
    });

    it('compiles anew what must not be kept', () => {
        const texts = ['PRAGMA user_version', 'EXPLAIN QUERY PLAN SELECT id FROM t', 'SELECT * FROM t', `SELECT id FROM t WHERE name = '${'x'.repeat(MAX_SQL_LENGTH)}'`];
        for (const sql of texts) {
            expect(keepable(sql)).toBe(false);
            kept.prepare(sql).all();
            kept.prepare(sql).all();
        }
        expect(compiled()).toBe(texts.length * 2);
        for (const sql of ['SELECT COUNT(*) FROM t', ' select id from t', 'WITH x AS (SELECT 1) SELECT * FROM x LIMIT 0', 'INSERT INTO t DEFAULT VALUES', 'BEGIN IMMEDIATE', 'COMMIT']) {
            expect([sql, keepable(sql)]).toEqual([sql, !sql.includes('SELECT *')]);
        }
    });

    it('takes a new integer setting, a schema change through exec, and a closed connection into account', () => {
        const sql = 'SELECT n FROM t WHERE id = 1';
        expect(kept.prepare(sql).pluck().get()).toBe(1);
        kept.defaultSafeIntegers(true);
        expect(kept.prepare(sql).pluck().get()).toBe(BigInt(1));
        kept.defaultSafeIntegers(false);
        expect(kept.prepare(sql).pluck().get()).toBe(1);
        expect(compiled()).toBe(3);
        kept.exec('CREATE INDEX t_n ON t (n)');
        kept.prepare(sql).get();
        expect(compiled()).toBe(4);
        kept.close();
        expect(() => kept.prepare(sql)).toThrow(/not open/);
    });

    it('installs once, on a better-sqlite3 connection, with a positive size', () => {
        expect(keepPreparedStatements(kept)).toBe(false);
        expect(keepPreparedStatements({ prepare: () => undefined })).toBe(false);
        expect(keepPreparedStatements(plain, 0)).toBe(false);
        expect(Object.prototype.hasOwnProperty.call(plain, 'prepare')).toBe(false);
    });
});
