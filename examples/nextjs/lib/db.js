import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '@prisma/client';
import { enhance } from '@zenstackhq/runtime';
import modelMeta from '@zenstackhq/runtime/model-meta';
import * as zodSchemas from '@zenstackhq/runtime/zod';
import { withTransactionCleanup } from 'zenstack-api';

/**
 * One raw client per server process: the policy-free one, never handed to an adapter. `withTransactionCleanup`
 * keeps one request's statements out of another's open transaction on SQLite's single connection.
 */
const globalForPrisma = globalThis;
const adapter = () => withTransactionCleanup(new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? 'file:./dev.db' }));
export const prisma = globalForPrisma.prisma ?? (globalForPrisma.prisma = new PrismaClient({ adapter: adapter() }));

/**
 * ZenStack's generated metadata and zod schemas, passed to the adapters explicitly: Next.js bundles server
 * code, so the handlers cannot find `node_modules/.zenstack` on their own.
 */
export const assets = { modelMeta, zodSchemas };

/**
 * The signed-in user of a request. A stand-in for real authentication that keeps the example small: it
 * trusts an `x-user-id` header. In an application, read the session instead (e.g. `await auth()` with
 * Auth.js) or verify a JWT from the `Authorization` header.
 * @param {Request} req
 */
export function currentUser(req) {
    const id = Number(req.headers.get('x-user-id'));
    return Number.isInteger(id) && id > 0 ? { id } : undefined;
}

/**
 * The policy-enforcing client for this request's user.
 * @param {Request} req
 */
export function getPrisma(req) {
    const user = currentUser(req);
    return enhance(prisma, user ? { user } : {});
}
