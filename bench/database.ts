import fs from 'node:fs';
import path from 'node:path';
import { pgAdminQuery, PG_URL_BASE } from '../tests/support/postgres';
import { DATA_DIR } from './config';

/**
 * The database the benchmark runs on (BENCH_DB): `sqlite` (default; a file in WAL mode) or `postgresql`
 * (the server at TEST_PG_URL, 127.0.0.1:5432 by default). Every server process and in-process
 * measurement works on its own copy of the seeded data: a copy of the file, or a database created
 * from the seeded one as its template.
 */

export type BenchProvider = 'sqlite' | 'postgresql';

export function benchProvider(): BenchProvider {
    const raw = process.env.BENCH_DB ?? 'sqlite';
    if (raw !== 'sqlite' && raw !== 'postgresql') throw new Error(`BENCH_DB must be sqlite or postgresql, got "${raw}"`);
    return raw;
}

/** How the results name the database. */
export function describeDatabase(provider: BenchProvider): string {
    return provider === 'sqlite' ? 'SQLite (WAL, better-sqlite3 driver adapter)' : `PostgreSQL at ${new URL(PG_URL_BASE).host} (node-postgres driver adapter, pool of 10 per process)`;
}

export function postgresUrl(database: string): string {
    return `${PG_URL_BASE}/${database}`;
}

/** A database name PostgreSQL takes unquoted-safe: lower-case letters, digits and _ (at most 63 characters). */
export function pgName(...parts: string[]): string {
    return parts
        .join('_')
        .toLowerCase()
        .replace(/[^a-z0-9_]+/g, '_')
        .slice(0, 63);
}

export interface DatabaseCopy {
    /** What a server opens: the SQLite file's path, or the PostgreSQL database's URL. */
    location: string;
    remove: () => Promise<void>;
}

const RUN_DIR = path.join(DATA_DIR, 'run');

function removeSqlite(file: string): void {
    for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}

/** Databases this process made and has not removed yet (PostgreSQL databases, SQLite copies): removed on Ctrl-C too. */
const created = new Map<string, () => Promise<void>>();

/** Creates a PostgreSQL database (from `template` when given), dropping a leftover of the same name first. */
export async function createPgDatabase(name: string, template?: string): Promise<void> {
    await pgAdminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    created.set(name, () => dropPgDatabase(name));
    await pgAdminQuery(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
}

export async function dropPgDatabase(name: string): Promise<void> {
    await pgAdminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    created.delete(name);
}

// Ctrl-C (or SIGTERM) ends the run: the databases it made go first, within 10 s (PostgreSQL's FORCE cuts the
// servers' connections; bench/processes.ts kills the servers themselves)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
        const done = () => process.exit(130);
        setTimeout(done, 10_000).unref();
        void Promise.allSettled([...created.values()].map((remove) => remove())).then(done);
    });
}

/** PostgreSQL copies are made one at a time: a template database serves one CREATE DATABASE at once. */
let copying: Promise<unknown> = Promise.resolve();

/** A copy of the seeded data, named by `name` and this process (unique among one run's copies that exist at once). */
export async function copyDatabase(provider: BenchProvider, seed: string, name: string): Promise<DatabaseCopy> {
    if (provider === 'sqlite') {
        fs.mkdirSync(RUN_DIR, { recursive: true });
        const file = path.join(RUN_DIR, `${name}-${process.pid}.db`);
        removeSqlite(file);
        const remove = async () => {
            removeSqlite(file);
            created.delete(file);
        };
        created.set(file, remove);
        fs.copyFileSync(seed, file);
        return { location: file, remove };
    }
    const database = pgName('zsapi_bench', name, String(process.pid));
    const create = copying.then(() => createPgDatabase(database, seed));
    copying = create.catch(() => undefined);
    await create;
    return { location: postgresUrl(database), remove: () => dropPgDatabase(database) };
}
