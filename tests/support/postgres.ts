import { Client } from 'pg';

export const PG_URL_BASE = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';

/** Runs `fn` on a connection of its own to `database` on the server at PG_URL_BASE, closed afterwards. */
export async function withPgDatabase<T>(database: string, fn: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: `${PG_URL_BASE}/${database}`, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
        return await fn(client);
    } finally {
        await client.end();
    }
}

/** Runs one statement on the server's `postgres` database (create/drop test databases). */
export async function pgAdminQuery(sql: string): Promise<void> {
    await withPgDatabase('postgres', (client) => client.query(sql));
}

let available: Promise<boolean> | undefined;

/** Whether PostgreSQL answers at PG_URL_BASE (checked once per worker). */
export function pgAvailable(): Promise<boolean> {
    available ??= pgAdminQuery('SELECT 1').then(
        () => true,
        () => false,
    );
    return available;
}

/**
 * `describe` for PostgreSQL suites. In CI (CI=true) a missing server is a failure; elsewhere the
 * suite is skipped with a visible message.
 */
export function describePg(name: string, fn: () => void): void {
    describe(`${name} [postgresql]`, () => {
        let ok = false;
        beforeAll(async () => {
            ok = await pgAvailable();
            if (!ok) {
                if (process.env.CI === 'true') {
                    throw new Error(`PostgreSQL is not reachable at ${PG_URL_BASE}: required in CI`);
                }
                // eslint-disable-next-line no-console
                console.warn(`SKIPPED: PostgreSQL is not reachable at ${PG_URL_BASE}; "${name}" did not run`);
            }
        });
        fn();
    });
}

/** Skips the test body when PostgreSQL is missing outside CI (describePg already reported it). */
export async function requirePg(): Promise<boolean> {
    const ok = await pgAvailable();
    if (!ok && process.env.CI === 'true') {
        throw new Error(`PostgreSQL is not reachable at ${PG_URL_BASE}: required in CI`);
    }
    return ok;
}
