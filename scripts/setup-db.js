// Creates and seeds the demo SQLite database (dev.db) from the generated Prisma schema.
// Used by `npm start` (prestart); safe to run again: an existing database is kept.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dbFile = path.join(root, process.env.DEMO_DB ?? 'dev.db');

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

if (process.env.DEMO_RESET !== '1' && hasSchema(dbFile)) {
    console.log(`[setup-db] using existing ${path.relative(root, dbFile)} (DEMO_RESET=1 recreates it)`);
    process.exit(0);
}
fs.rmSync(dbFile, { force: true });
const ddl = execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/prisma/build/index.js'), 'migrate', 'diff', '--from-empty', '--to-schema-datamodel', path.join(root, 'prisma/schema.prisma'), '--script'],
    // the CLI opens prisma.config.ts's adapter: keep it off the demo's file
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DATABASE_URL: ':memory:' } },
);
const Database = require('better-sqlite3');
const db = new Database(dbFile);
db.pragma('journal_mode = WAL');
db.exec(ddl);
db.close();
console.log(`[setup-db] created ${path.relative(root, dbFile)}`);
require('./seed-demo.js').seed(dbFile).then(
    () => console.log('[setup-db] seeded demo data'),
    (err) => {
        console.error(err);
        process.exit(1);
    },
);
