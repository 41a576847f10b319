import type { DbClientContract, ModelMeta, ZodSchemas } from '@zenstackhq/runtime';
import path from 'node:path';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import type { Provider } from './generate';
import type { LoadOptions, TestSchema } from './schema';

/** Stands for zod schemas left unloaded: reading any of them throws. */
function notLoaded(dir: string): ZodSchemas {
    const refuse = (): never => {
        throw new Error(`the zod schemas of ${dir} were not loaded (zod: false)`);
    };
    return new Proxy({}, { get: refuse }) as ZodSchemas;
}

/**
 * The generated Prisma client class, enhancer, metadata and zod schemas in a folder `generate.ts` made. `zod = false`
 * leaves the zod module unloaded (reading `zodSchemas` then throws): ZenStack 2.22 writes one that cannot load for a
 * schema with a view that has no unique field.
 */
export function requireGenerated(dir: string, zod = true) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PrismaClient } = require(path.join(dir, 'prisma-client'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { enhance } = require(path.join(dir, 'zenstack', 'enhance.js'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const modelMeta = require(path.join(dir, 'zenstack', 'model-meta.js')).default as ModelMeta;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const zodSchemas = zod ? (require(path.join(dir, 'zenstack', 'zod', 'index.js')) as ZodSchemas) : notLoaded(dir);
    return {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        PrismaClient: PrismaClient as new (options: Record<string, unknown>) => any,
        enhance: enhance as (client: unknown, context: unknown) => DbClientContract,
        modelMeta,
        zodSchemas,
    };
}

/**
 * The clients of a database that `loadSchema` made in another process, from the generated folder `dir` of its
 * schema (`TestSchema.generatedDir`): for a second server process on the same database. `databaseUrl` says
 * which: `file:…` opens the same SQLite file with its own better-sqlite3 connection (`sqlite.timeout`: the
 * busy timeout in ms), anything else is PostgreSQL with its own pool; both behind `withTransactionCleanup`,
 * as `loadSchema` does. Imports nothing of the generator, so that it also runs bundled. `cleanup` only disconnects.
 */
export async function connectSchema(dir: string, databaseUrl: string, options: Pick<LoadOptions, 'transactionOptions' | 'sqlite'> = {}): Promise<TestSchema> {
    const { PrismaClient, enhance, modelMeta, zodSchemas } = requireGenerated(dir);
    const clientOptions = options.transactionOptions ? { transactionOptions: options.transactionOptions } : {};
    const provider = databaseUrl.startsWith('file:') ? 'sqlite' : 'postgresql';
    const prisma = new PrismaClient({ ...clientOptions, adapter: withTransactionCleanup(await driverAdapter(provider, databaseUrl, options.sqlite?.timeout)) });
    return {
        provider,
        prisma,
        generatedDir: dir,
        enhance: (user) => enhance(prisma, user ? { user } : {}),
        modelMeta,
        zodSchemas,
        dbFile: provider === 'sqlite' ? databaseUrl.slice('file:'.length) : undefined,
        databaseUrl,
        createClient: (adapter, clientOptions = {}) => new PrismaClient({ ...clientOptions, adapter }),
        enhanceClient: (client, user) => enhance(client, user ? { user } : {}),
        cleanup: () => prisma.$disconnect(),
    };
}

/** The driver adapter factory of a test database: better-sqlite3 on a `file:` URL (`timeout`: busy timeout, ms), node-postgres otherwise. */
export async function driverAdapter(provider: Provider, databaseUrl: string, timeout?: number) {
    if (provider === 'sqlite') {
        const { PrismaBetterSQLite3 } = await import('@prisma/adapter-better-sqlite3');
        return new PrismaBetterSQLite3(timeout === undefined ? { url: databaseUrl } : { url: databaseUrl, timeout });
    }
    const { PrismaPg } = await import('@prisma/adapter-pg');
    return new PrismaPg({ connectionString: databaseUrl });
}
