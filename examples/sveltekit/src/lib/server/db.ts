import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '@prisma/client';
import { enhance } from '@zenstackhq/runtime';
import type { ModelMeta, ZodSchemas } from '@zenstackhq/runtime';
import { createRequire } from 'node:module';
import { withTransactionCleanup } from 'zenstack-api';

/**
 * One raw client per server process: the policy-free one, never handed to an adapter. `withTransactionCleanup`
 * keeps one request's statements out of another's open transaction on SQLite's single connection.
 */
export const prisma = new PrismaClient({
    adapter: withTransactionCleanup(new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? 'file:./dev.db' })),
});

/**
 * ZenStack's generated metadata and zod schemas (CommonJS modules under node_modules/.zenstack), passed to
 * the adapters explicitly since the server code is bundled.
 */
const require = createRequire(import.meta.url);
export const assets = {
    modelMeta: require('@zenstackhq/runtime/model-meta').default as ModelMeta,
    zodSchemas: require('@zenstackhq/runtime/zod') as ZodSchemas,
};

/** The policy-enforcing client for a user (`undefined`: anonymous). */
export function enhanced(user: { id: number } | undefined) {
    return enhance(prisma, user ? { user } : {});
}
