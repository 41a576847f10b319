// Creates and seeds the demo SQLite database (dev.db) from the generated Prisma schema.
// Used by `npm start` (prestart); safe to run again: an existing database is kept.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dbFile = path.join(root, process.env.DEMO_DB ?? 'dev.db');

if (fs.existsSync(dbFile) && process.env.DEMO_RESET !== '1') {
    console.log(`[setup-db] using existing ${path.relative(root, dbFile)} (DEMO_RESET=1 recreates it)`);
    process.exit(0);
}
fs.rmSync(dbFile, { force: true });
const ddl = execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/prisma/build/index.js'), 'migrate', 'diff', '--from-empty', '--to-schema-datamodel', path.join(root, 'prisma/schema.prisma'), '--script'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
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
