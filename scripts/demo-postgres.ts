/**
 * The demo on PostgreSQL (`DEMO_DATABASE_URL=postgresql://… npm start`): the blog schema generated for
 * PostgreSQL, its database created and seeded, and the clients the demo serves it with.
 *
 * The database is the demo's own: set-up creates it when missing, keeps it when it holds the demo's
 * tables, and refuses to touch one that holds any other table (a `DATABASE_URL` meant for something
 * else must never receive the demo's tables, nor lose its own with `DEMO_RESET=1`).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import path from 'node:path';
import { Client } from 'pg';
import { withTransactionCleanup } from '../src/driver/transaction-cleanup';
import { BLOG_SCHEMA_TEXT } from '../tests/support/blog-text';
import { generateSchema, type GeneratedSchema } from '../tests/support/generate';

/** A set-up the demo refuses, with what to do instead (printed without a stack). */
export class DemoSetupError extends Error {
    override readonly name = 'DemoSetupError';
}

interface DemoDatabase {
    /** The database's name (from the URL's path). */
    name: string;
    url: string;
    /** The same server's `postgres` database, to create and drop the demo's. */
    adminUrl: string;
}

const EXAMPLE_URL = 'postgresql://postgres@127.0.0.1:5432/zenstack_demo';
const SHARED_DATABASES = new Set(['postgres', 'template0', 'template1']);

function parseUrl(raw: string): DemoDatabase {
    let url: URL;
    try {
        url = new URL(raw);
    } catch {
        throw new DemoSetupError(`DEMO_DATABASE_URL is not a URL; expected one like ${EXAMPLE_URL}`);
    }
    if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
        throw new DemoSetupError(`DEMO_DATABASE_URL must be a postgresql:// URL (like ${EXAMPLE_URL}); without it the demo runs on SQLite`);
    }
    const name = decodeURIComponent(url.pathname.slice(1));
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
        throw new DemoSetupError(`DEMO_DATABASE_URL must name a database of letters, digits and _ (like ${EXAMPLE_URL})`);
    }
    if (SHARED_DATABASES.has(name)) {
        throw new DemoSetupError(`the demo keeps its tables in a database of its own, not in "${name}": name another one (like ${EXAMPLE_URL})`);
    }
    const admin = new URL(url.href);
    admin.pathname = '/postgres';
    return { name, url: url.href, adminUrl: admin.href };
}

/** The blog schema generated for PostgreSQL (cached by the schema's hash, as for the tests). */
function artifacts(): GeneratedSchema {
    return generateSchema(BLOG_SCHEMA_TEXT, 'postgresql');
}

/** The tables the schema's DDL creates. */
function tablesOf(ddl: string): string[] {
    return [...ddl.matchAll(/CREATE TABLE "([^"]+)"/g)].map((m) => m[1]);
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
        await client.connect();
    } catch (err) {
        const { host, port } = new URL(url);
        throw new DemoSetupError(`cannot connect to PostgreSQL at ${host || 'localhost'}${port ? '' : ':5432'}: ${(err as Error).message}`);
    }
    try {
        return await fn(client);
    } finally {
        await client.end();
    }
}

async function tablesIn(url: string): Promise<string[]> {
    return withClient(url, async (client) => {
        const { rows } = await client.query<{ name: string }>(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
        );
        return rows.map((r) => r.name);
    });
}

/**
 * Creates (or with `reset`, recreates) and seeds the demo's database; keeps one that already holds
 * the demo's tables. Returns what it did, for the log.
 */
export async function setupPostgres(rawUrl: string, reset: boolean): Promise<string> {
    const db = parseUrl(rawUrl);
    const gen = artifacts();
    const demoTables = tablesOf(gen.ddl);
    const exists = await withClient(db.adminUrl, async (admin) => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name])).rowCount! > 0);
    const present = exists ? await tablesIn(db.url) : [];
    const foreign = present.filter((t) => !demoTables.includes(t));
    if (foreign.length > 0) {
        throw new DemoSetupError(
            `database "${db.name}" holds tables that are not the demo's (${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', …' : ''}); ` +
                'the demo leaves it alone: name a new database in DEMO_DATABASE_URL',
        );
    }
    if (!reset && present.length === demoTables.length) {
        return `using existing database "${db.name}" (DEMO_RESET=1 recreates it)`;
    }
    if (!reset && present.length > 0) {
        throw new DemoSetupError(`database "${db.name}" holds only some of the demo's tables: DEMO_RESET=1 recreates it`);
    }
    await withClient(db.adminUrl, async (admin) => {
        if (exists && reset) await admin.query(`DROP DATABASE "${db.name}" WITH (FORCE)`);
        if (!exists || reset) await admin.query(`CREATE DATABASE "${db.name}"`);
    });
    // one simple query: PostgreSQL runs its statements as one transaction, so a failure leaves no table behind
    await withClient(db.url, (client) => client.query(gen.ddl));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { seedWith } = require('./seed-demo.js') as { seedWith: (prisma: unknown) => Promise<void> };
    const prisma = rawClient(gen, db.url);
    try {
        await seedWith(prisma);
    } finally {
        await prisma.$disconnect();
    }
    return `created and seeded database "${db.name}"`;
}

type PrismaLike = { $disconnect(): Promise<void> };

function rawClient(gen: GeneratedSchema, url: string, adapterOptions: Record<string, unknown> = {}, clientOptions: Record<string, unknown> = {}): PrismaLike {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PrismaClient } = require(path.join(gen.dir, 'prisma-client')) as { PrismaClient: new (options: unknown) => PrismaLike };
    return new PrismaClient({ ...clientOptions, adapter: withTransactionCleanup(new PrismaPg({ connectionString: url, ...adapterOptions })) });
}

/** The demo's client on PostgreSQL and the enhancer generated with it. */
export function openPostgres(rawUrl: string): { prisma: PrismaLike; enhance: (prisma: unknown, context: { user?: unknown }) => unknown; name: string } {
    const db = parseUrl(rawUrl);
    const gen = artifacts();
    // a pool per instance; an unresponsive server gives 503s after 5 s instead of hanging requests
    const prisma = rawClient(gen, db.url, { max: 10, connectionTimeoutMillis: 5000 }, { transactionOptions: { maxWait: 5000, timeout: 10_000 } });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { enhance } = require(path.join(gen.dir, 'zenstack', 'enhance.js')) as { enhance: (prisma: unknown, context: { user?: unknown }) => unknown };
    return { prisma, enhance, name: db.name };
}
