// Creates and seeds the demo database from the generated Prisma schema: the SQLite file dev.db, or with
// DEMO_DATABASE_URL the PostgreSQL database it names (scripts/demo-postgres.ts).
// Used by `npm start` (prestart); safe to run again: an existing database is kept (DEMO_RESET=1 recreates it).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const reset = process.env.DEMO_RESET === '1';

/** Whether the file is a database with the demo's tables (an empty file left by a tool does not count). */
function hasSchema(file) {
    if (!fs.existsSync(file)) return false;
    const Database = require('better-sqlite3');
    let db;
    try {
        db = new Database(file, { readonly: true, fileMustExist: true });
        return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Post'").get();
    } catch {
        return false;
    } finally {
        db?.close();
    }
}

/** A set-up refused with what to do instead: told in one line. */
function refusal(message) {
    return Object.assign(new Error(message), { name: 'DemoSetupError' });
}

async function setupSqlite() {
    const dbFile = path.resolve(root, process.env.DEMO_DB ?? 'dev.db');
    const name = path.relative(root, dbFile);
    if (!fs.existsSync(path.dirname(dbFile))) {
        throw refusal(`cannot create ${name}: the directory ${path.dirname(name)} does not exist (create it, or set DEMO_DB to a file in another one)`);
    }
    if (!reset && hasSchema(dbFile)) {
        return `using existing ${name} (DEMO_RESET=1 recreates it)`;
    }
    fs.rmSync(dbFile, { force: true });
    const ddl = execFileSync(
        process.execPath,
        [path.join(root, 'node_modules/prisma/build/index.js'), 'migrate', 'diff', '--from-empty', '--to-schema-datamodel', path.join(root, 'prisma/schema.prisma'), '--script'],
        // the CLI opens prisma.config.ts's adapter: keep it off the demo's file
        { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DATABASE_URL: ':memory:' } },
    );
    const Database = require('better-sqlite3');
    let db;
    try {
        db = new Database(dbFile);
        db.pragma('journal_mode = WAL');
        db.exec(ddl);
    } catch (err) {
        // e.g. a read-only directory or file system (SQLITE_CANTOPEN, SQLITE_READONLY)
        throw refusal(`cannot create ${name}: ${err.message} (${err.code ?? 'error'}); check that its directory is writable, or set DEMO_DB`);
    } finally {
        db?.close();
    }
    await require('./seed-demo.js').seed(dbFile);
    return `created and seeded ${name}`;
}

async function setupPostgres(url) {
    require('./ts-register.js');
    return require('./demo-postgres.ts').setupPostgres(url, reset);
}

const url = process.env.DEMO_DATABASE_URL;
(url ? setupPostgres(url) : setupSqlite()).then(
    (done) => console.log(`[setup-db] ${done}`),
    (err) => {
        // a refused set-up (DemoSetupError) is told in one line; anything else with its stack
        console.error(err?.name === 'DemoSetupError' ? `[setup-db] ${err.message}` : err);
        process.exit(1);
    },
);
