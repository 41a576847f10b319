import fs from 'node:fs';
import path from 'node:path';
import { runNode } from './load-probe';

/**
 * One RPC and one JSON:API request served by the installed package, from an ES module of the application, through
 * the Fetch adapter and a real policy-enhanced client (`enhance` of a Prisma client on the seeded demo database,
 * for the demo's user 1). No `modelMeta` is passed, so the package loads the generated one itself
 * (`@zenstackhq/runtime/model-meta`), as it does for a user.
 */

const PROBE = `
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '@prisma/client';
import { enhance } from '@zenstackhq/runtime';
import { createFetchHandler } from 'zenstack-api/fetch';
import { RestApiHandler } from 'zenstack-api/api/rest';
const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: 'file:' + process.argv[2] }) });
const getPrisma = () => enhance(prisma, { user: { id: 1 } });
const rpc = createFetchHandler({ getPrisma, prefix: '/rpc' });
const rest = createFetchHandler({ getPrisma, prefix: '/rest', handler: RestApiHandler({ endpoint: 'http://localhost/rest' }) });
const answer = async (res) => ({ status: res.status, body: await res.json() });
const q = encodeURIComponent(JSON.stringify({ select: { id: true }, orderBy: { id: 'asc' } }));
const answers = {
    rpc: await answer(await rpc(new Request('http://localhost/rpc/post/findMany?q=' + q))),
    rest: await answer(await rest(new Request('http://localhost/rest/post?fields[post]=title'))),
};
await prisma.$disconnect();
process.stdout.write(JSON.stringify(answers));
`;

export type Answer = { status: number; body: { data?: unknown } };

/** The answers to an RPC `post/findMany` and a JSON:API `GET /post`, served in `dir` on the SQLite database `dbFile`. */
export function serveRequests(dir: string, dbFile: string): { rpc: Answer; rest: Answer } {
    fs.writeFileSync(path.join(dir, 'request-probe.mjs'), PROBE);
    return JSON.parse(runNode(dir, 'request-probe.mjs', [dbFile])) as { rpc: Answer; rest: Answer };
}
