import fs from 'node:fs';
import path from 'node:path';
import { runNode } from './load-probe';

/**
 * One RPC and one JSON:API request served by the installed package, from an ES module of the application, through
 * the Fetch adapter and a stand-in client whose `post.findMany` returns one row (its `$transaction` runs the callback on itself). No `modelMeta` is passed, so the
 * package loads the generated one itself (`@zenstackhq/runtime/model-meta`, from the application's
 * `node_modules/.zenstack`), as it does for a user.
 */

const PROBE = `
import { createFetchHandler } from 'zenstack-api/fetch';
import { RestApiHandler } from 'zenstack-api/api/rest';
const row = { id: 1, title: 'installed', published: true, authorId: 1, createdAt: new Date(0), updatedAt: new Date(0) };
const client = { post: { findMany: async () => [row], count: async () => 1 }, $transaction: async (read) => read(client) };
const getPrisma = () => client;
const rpc = createFetchHandler({ getPrisma, prefix: '/rpc' });
const rest = createFetchHandler({ getPrisma, prefix: '/rest', handler: RestApiHandler({ endpoint: 'http://localhost/rest' }) });
const answer = async (res) => ({ status: res.status, body: await res.json() });
process.stdout.write(JSON.stringify({
    rpc: await answer(await rpc(new Request('http://localhost/rpc/post/findMany'))),
    rest: await answer(await rest(new Request('http://localhost/rest/post'))),
}));
`;

export type Answer = { status: number; body: { data?: unknown } };

/** The answers to `GET /rpc/post/findMany` and `GET /rest/post`, served in `dir`. */
export function serveRequests(dir: string): { rpc: Answer; rest: Answer } {
    fs.writeFileSync(path.join(dir, 'request-probe.mjs'), PROBE);
    return JSON.parse(runNode(dir, 'request-probe.mjs')) as { rpc: Answer; rest: Answer };
}
