/**
 * The demo on PostgreSQL (`DEMO_DATABASE_URL=postgresql://… npm start`): the blog schema generated for
 * PostgreSQL, its database created and seeded, and the clients the demo serves it with.
 *
 * The database is the demo's own, and the demo only ever drops or fills a database it can tell is its
 * own: one it marked (the table `_zenstack_api_demo`, written with the schema and set to `ready` once the
 * seed is complete), or an empty one. A database holding anything else is refused, also with
 * `DEMO_RESET=1`: a URL meant for something else must never receive the demo's tables, nor lose its own.
 * Set-up holds an advisory lock, so instances started at once set the database up once.
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
    let name: string;
    try {
        name = decodeURIComponent(url.pathname.slice(1));
    } catch {
        name = '';
    }
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

/** The demo's mark in its database: `seeding` from the moment its tables exist, `ready` once seeded. */
const MARKER = '_zenstack_api_demo';

/** What a database holds besides PostgreSQL's own catalogs (relations of any kind in any schema, schemas, types, functions): at most 6 names. */
async function contentsOf(client: Client): Promise<string[]> {
    const { rows } = await client.query<{ name: string }>(
        `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
         UNION ALL SELECT format('schema %I', nspname) FROM pg_namespace
           WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\\_%'
         UNION ALL SELECT format('type %I.%I', n.nspname, t.typname) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
           WHERE n.nspname = 'public' AND t.typrelid = 0 AND t.typelem = 0
         UNION ALL SELECT format('function %I.%I', n.nspname, p.proname) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = 'public'
         LIMIT 6`,
    );
    return rows.map((r) => r.name);
}

/** The demo's mark in the database (`seeding` or `ready`), or undefined when it has none. */
async function markOf(client: Client): Promise<string | undefined> {
    const { rows } = await client.query<{ marked: string | null }>(`SELECT to_regclass('public.${MARKER}')::text AS marked`);
    if (!rows[0]?.marked) return undefined;
    const state = await client.query<{ state: string }>(`SELECT state FROM public.${MARKER} LIMIT 1`);
    return state.rows[0]?.state ?? 'seeding';
}

type Found = { kind: 'missing' } | { kind: 'empty' } | { kind: 'demo'; state: string } | { kind: 'foreign'; contents: string[] };

async function inspect(db: DemoDatabase, admin: Client): Promise<Found> {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name])).rowCount! > 0;
    if (!exists) return { kind: 'missing' };
    return withClient(db.url, async (client): Promise<Found> => {
        const state = await markOf(client);
        if (state) return { kind: 'demo', state };
        const contents = await contentsOf(client);
        return contents.length === 0 ? { kind: 'empty' } : { kind: 'foreign', contents };
    });
}

/** Creates the tables and the mark in one transaction (one simple query), then seeds and marks the database ready. */
async function fill(db: DemoDatabase, gen: GeneratedSchema): Promise<void> {
    await withClient(db.url, (client) =>
        client.query(`${gen.ddl}\nCREATE TABLE public.${MARKER} (state text NOT NULL);\nINSERT INTO public.${MARKER} VALUES ('seeding');`),
    );
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { seedWith } = require('./seed-demo.js') as { seedWith: (prisma: unknown) => Promise<void> };
    const prisma = rawClient(gen, db.url);
    try {
        await seedWith(prisma);
    } finally {
        await prisma.$disconnect();
    }
    await withClient(db.url, (client) => client.query(`UPDATE public.${MARKER} SET state = 'ready'`));
}

/**
 * Creates (or with `reset`, recreates) and seeds the demo's database; keeps one the demo set up before.
 * Returns what it did, for the log.
 */
export async function setupPostgres(rawUrl: string, reset: boolean): Promise<string> {
    const db = parseUrl(rawUrl);
    const gen = artifacts();
    return withClient(db.adminUrl, async (admin) => {
        // one set-up at a time per database name, for instances started together (released with the connection)
        await admin.query('SELECT pg_advisory_lock(hashtext($1))', [`zenstack-api demo ${db.name}`]);
        const found = await inspect(db, admin);
        if (found.kind === 'foreign') {
            throw new DemoSetupError(
                `database "${db.name}" holds what the demo did not create (${found.contents.join(', ')}); ` +
                    'the demo leaves it alone, also with DEMO_RESET=1: name a new database in DEMO_DATABASE_URL',
            );
        }
        if (found.kind === 'demo' && !reset) {
            if (found.state === 'ready') return `using existing database "${db.name}" (DEMO_RESET=1 recreates it)`;
            throw new DemoSetupError(`the demo's set-up of database "${db.name}" did not finish: DEMO_RESET=1 recreates it`);
        }
        if (found.kind === 'demo') await admin.query(`DROP DATABASE "${db.name}" WITH (FORCE)`);
        if (found.kind !== 'empty') await admin.query(`CREATE DATABASE "${db.name}"`);
        await fill(db, gen);
        return `${found.kind === 'demo' ? 'recreated' : 'created'} and seeded database "${db.name}"`;
    });
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
