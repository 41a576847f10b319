import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { generateSchema } from '../tests/support/generate';
import { withPgDatabase } from '../tests/support/postgres';
import { BENCH_DIR, DATA_DIR, OURS_DIST, PROJECT_ROOT, SERVER_BUILD } from './config';
import { benchProvider, createPgDatabase, dropPgDatabase, pgName, postgresUrl, type BenchProvider } from './database';
import { SEED_VERSION, seedRows } from './seed';

/** Everything a server process needs to start: the generated schema and the seeded database. */
export interface BenchSetup {
    provider: BenchProvider;
    /** Folder of the generated Prisma client and ZenStack output (`tests/support/generate.ts`). */
    generatedDir: string;
    /**
     * The seeded data every copy starts from (`bench/database.ts`): the SQLite file, or the name of the
     * PostgreSQL database the copies are created from as their template.
     */
    seed: string;
    /** Removes what only this run needs (the PostgreSQL seed database; the SQLite file is kept for the next run). */
    release: () => Promise<void>;
}

const log = (message: string) => process.stdout.write(`${message}\n`);

type SeedClient = Record<string, { createMany(args: { data: unknown[] }): Promise<unknown> }>;

/** The data set's rows, in batches (the same rows on both databases). */
async function insertRows(prisma: SeedClient): Promise<void> {
    const rows = seedRows();
    await prisma.user.createMany({ data: rows.users });
    await prisma.profile.createMany({ data: rows.profiles });
    for (let i = 0; i < rows.posts.length; i += 500) {
        await prisma.post.createMany({ data: rows.posts.slice(i, i + 500) });
    }
    for (let i = 0; i < rows.comments.length; i += 1000) {
        await prisma.comment.createMany({ data: rows.comments.slice(i, i + 1000) });
    }
}

async function seedSqlite(generatedDir: string, ddl: string, file: string): Promise<void> {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.rmSync(tmp, { force: true });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3');
    const db = new Database(tmp);
    db.exec(ddl);
    // WAL is a property of the file: every copy starts in WAL mode (what production SQLite set-ups use)
    db.pragma('journal_mode = WAL');
    db.close();

    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PrismaClient } = require(path.join(generatedDir, 'prisma-client'));
    const { PrismaBetterSQLite3 } = await import('@prisma/adapter-better-sqlite3');
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${tmp}` }) });
    try {
        await insertRows(prisma);
    } finally {
        await prisma.$disconnect();
    }
    // fold the WAL into the main file so that copying the main file alone copies everything
    const check = new Database(tmp);
    check.pragma('wal_checkpoint(TRUNCATE)');
    check.close();
    for (const extra of ['-wal', '-shm']) fs.rmSync(`${tmp}${extra}`, { force: true });
    fs.renameSync(tmp, file);
}

/** Creates and seeds the PostgreSQL database the copies are made from (statistics included: copies inherit them). */
async function seedPostgres(generatedDir: string, ddl: string, database: string): Promise<void> {
    await createPgDatabase(database);
    await withPgDatabase(database, (client) => client.query(ddl));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PrismaClient } = require(path.join(generatedDir, 'prisma-client'));
    const { PrismaPg } = await import('@prisma/adapter-pg');
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: postgresUrl(database) }) });
    try {
        await insertRows(prisma);
    } finally {
        await prisma.$disconnect();
    }
    await withPgDatabase(database, async (client) => {
        // the rows were inserted with their ids: move each id sequence past them, for the create scenarios
        for (const table of ['User', 'Profile', 'Post', 'Comment']) {
            await client.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT MAX(id) FROM "${table}"))`);
        }
        await client.query('VACUUM ANALYZE');
    });
}

/**
 * Generates the project's schema for the bench's database (cached) and seeds the data set: on SQLite once
 * per schema and seed version (a file kept in bench/.data), on PostgreSQL once per run (a database dropped
 * by `release`).
 */
export async function prepareData(): Promise<BenchSetup> {
    const provider = benchProvider();
    fs.mkdirSync(DATA_DIR, { recursive: true });
    const zmodel = fs.readFileSync(path.join(PROJECT_ROOT, 'schema.zmodel'), 'utf8');
    const gen = generateSchema(zmodel, provider);
    if (provider === 'postgresql') {
        const seed = pgName('zsapi_bench_seed', path.basename(gen.dir), `v${SEED_VERSION}`, String(process.pid));
        const release = () => dropPgDatabase(seed);
        log(`seeding PostgreSQL database ${seed} ...`);
        await seedPostgres(gen.dir, gen.ddl, seed).catch(async (err: unknown) => {
            await release();
            throw err;
        });
        return { provider, generatedDir: gen.dir, seed, release };
    }
    const seed = path.join(DATA_DIR, `blog-${path.basename(gen.dir)}-v${SEED_VERSION}.db`);
    if (!fs.existsSync(seed)) {
        log(`seeding ${path.relative(PROJECT_ROOT, seed)} ...`);
        await seedSqlite(gen.dir, gen.ddl, seed);
    }
    return { provider, generatedDir: gen.dir, seed, release: async () => undefined };
}

/** Compiles our package with tsconfig.build.json into bench/.data/dist: the code users run. */
export function buildOurs(): void {
    log('building zenstack-api (tsc -p tsconfig.build.json) ...');
    fs.rmSync(OURS_DIST, { recursive: true, force: true });
    try {
        execFileSync(
            process.execPath,
            [path.join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', OURS_DIST, '--declaration', 'false'],
            { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
        );
    } catch (err) {
        // tsc still emits JavaScript on type errors; the pre-flight check decides whether it works
        const out = (err as { stdout?: string }).stdout ?? '';
        log(`warning: tsc reported errors (JavaScript was emitted anyway):\n${out.split('\n').slice(0, 10).join('\n')}`);
    }
}

/** Transpiles bench/server/*.ts to plain CommonJS so measured processes run without a TypeScript hook. */
export function buildServer(): string {
    fs.mkdirSync(SERVER_BUILD, { recursive: true });
    const sourceDir = path.join(BENCH_DIR, 'server');
    for (const name of fs.readdirSync(sourceDir)) {
        if (!name.endsWith('.ts')) continue;
        const source = fs.readFileSync(path.join(sourceDir, name), 'utf8');
        const out = ts.transpileModule(source, {
            compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2021, esModuleInterop: true },
            fileName: name,
        });
        fs.writeFileSync(path.join(SERVER_BUILD, name.replace(/\.ts$/, '.js')), out.outputText);
    }
    return path.join(SERVER_BUILD, 'main.js');
}
