import type { DbClientContract, ModelMeta, ZodSchemas } from '@zenstackhq/runtime';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import { generateSchemaAsync, PROJECT_ROOT, type Provider } from './generate';
import { pgAdminQuery, PG_URL_BASE, withPgDatabase } from './postgres';
import { BLOG_SCHEMA_TEXT } from './blog-text';
import { driverAdapter, requireGenerated } from './generated';

export type { Provider } from './generate';

/** The project's own schema (the demo's blog). */
export const BLOG_SCHEMA = BLOG_SCHEMA_TEXT;

/** What a test gets: a raw client, an enhancer, and the generated metadata. */
export interface TestSchema {
    provider: Provider;
    /** The raw (unenhanced) Prisma client: seed and inspect data with it, bypassing policies. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    prisma: any;
    /** The policy-enforcing client for a user (`undefined` = anonymous). */
    enhance: (user?: Record<string, unknown>) => DbClientContract;
    modelMeta: ModelMeta;
    zodSchemas: ZodSchemas;
    /** Disconnects and removes the database. */
    cleanup: () => Promise<void>;
    /** SQLite: the database file. */
    dbFile?: string;
    /** The folder of the schema's generated client and ZenStack output (for `connectSchema` in another process). */
    generatedDir: string;
    /** The connection URL of this test database (`file:…` for SQLite, `postgresql://…` for PostgreSQL). */
    databaseUrl: string;
    /**
     * Another raw client of this schema's generated Prisma client, over the given driver adapter
     * (e.g. a read-only SQLite connection, or PostgreSQL through a proxy). The caller disconnects it.
     */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    createClient: (adapter: unknown, options?: Record<string, unknown>) => any;
    /** The policy-enforcing client over any client of this schema (e.g. one from `createClient`). */
    enhanceClient: (client: unknown, user?: Record<string, unknown>) => DbClientContract;
}

export interface LoadOptions {
    provider?: Provider;
    /** Extra Prisma preview features for the generator (e.g. `fullTextSearchPostgres`). */
    previewFeatures?: string[];
    /**
     * SQLite only, for the returned `prisma`: `wal` switches the file to WAL journal mode (as the demo's
     * database), `timeout` is better-sqlite3's busy timeout in ms (the demo uses 5000).
     */
    sqlite?: { wal?: boolean; timeout?: number };
    /**
     * Prisma's `transactionOptions` for the returned `prisma` (e.g. a longer `maxWait` for a test that
     * queues many more transactions than the pool has connections, on a machine shared with other tests).
     */
    transactionOptions?: { maxWait?: number; timeout?: number };
    /** PostgreSQL only: extensions created in the new database before its tables (e.g. `citext` for `@db.Citext`). */
    pgExtensions?: string[];
    /** More lines of the datasource block, e.g. `schemas = ["public", "sales"]` (PostgreSQL's multiple schemas). */
    datasource?: string;
    /** `false`: the generated zod schemas are not loaded (see `requireGenerated`); `zodSchemas` throws when read. */
    zod?: boolean;
}

const SQLITE_DIR = path.join(PROJECT_ROOT, '.zenstack-test', 'db');

/**
 * Generates `zmodel` (cached by hash), creates a fresh database with its tables and returns the
 * clients. Each call gets its own database: a SQLite file copied from a per-schema template, or
 * a new PostgreSQL database.
 */
export async function loadSchema(zmodel: string = BLOG_SCHEMA, options: LoadOptions = {}): Promise<TestSchema> {
    const provider = options.provider ?? 'sqlite';
    const gen = await generateSchemaAsync(zmodel, provider, options.previewFeatures, undefined, options.datasource);
    const { PrismaClient, enhance, modelMeta, zodSchemas } = requireGenerated(gen.dir, options.zod ?? true);

    const id = randomBytes(6).toString('hex');
    const clientOptions = options.transactionOptions ? { transactionOptions: options.transactionOptions } : {};
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let prisma: any;
    let dropDb: () => Promise<void>;
    let dbFile: string | undefined;
    let databaseUrl: string;

    if (provider === 'sqlite') {
        fs.mkdirSync(SQLITE_DIR, { recursive: true });
        const template = path.join(gen.dir, 'template.db');
        if (!fs.existsSync(template)) {
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const Database = require('better-sqlite3');
            const tmp = `${template}.${process.pid}.${id}`;
            const db = new Database(tmp);
            db.exec(gen.ddl);
            db.close();
            fs.renameSync(tmp, template);
        }
        const file = path.join(SQLITE_DIR, `${id}.db`);
        fs.copyFileSync(template, file);
        if (options.sqlite?.wal) {
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const Database = require('better-sqlite3');
            const db = new Database(file);
            db.pragma('journal_mode = WAL');
            db.close();
        }
        dbFile = file;
        databaseUrl = `file:${file}`;
        // the set-up the README recommends: without the wrapper, statements outside a transaction run inside another open one
        prisma = new PrismaClient({ ...clientOptions, adapter: withTransactionCleanup(await driverAdapter(provider, databaseUrl, options.sqlite?.timeout)) });
        dropDb = async () => {
            for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
                fs.rmSync(f, { force: true });
            }
        };
    } else {
        const dbName = `zsapi_test_${id}`;
        await pgAdminQuery(`CREATE DATABASE "${dbName}"`);
        const extensions = (options.pgExtensions ?? []).map((e) => `CREATE EXTENSION IF NOT EXISTS "${e}";\n`).join('');
        try {
            await withPgDatabase(dbName, (client) => client.query(extensions + gen.ddl));
        } catch (err) {
            // a schema the server cannot create (a missing extension, say) leaves no empty database behind
            await pgAdminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
            throw err;
        }
        databaseUrl = `${PG_URL_BASE}/${dbName}`;
        prisma = new PrismaClient({ ...clientOptions, adapter: withTransactionCleanup(await driverAdapter(provider, databaseUrl)) });
        dropDb = async () => {
            await pgAdminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
        };
    }

    return {
        provider,
        prisma,
        enhance: (user) => enhance(prisma, user ? { user } : {}),
        modelMeta,
        zodSchemas,
        generatedDir: gen.dir,
        dbFile,
        databaseUrl,
        createClient: (adapter, clientOptions = {}) => new PrismaClient({ ...clientOptions, adapter }),
        enhanceClient: (client, user) => enhance(client, user ? { user } : {}),
        cleanup: async () => {
            await prisma.$disconnect();
            await dropDb();
        },
    };
}
