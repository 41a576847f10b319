/**
 * A cold start on ZenStack's default generated output (`node_modules/.zenstack`), for the cold-start benchmark: run
 * with --preserve-symlinks in an application folder whose `node_modules/.zenstack` is the generated schema's output
 * and whose `node_modules/cold-start-ours` is the compiled package (`bench/cold-start.ts` makes it). With
 *   COLD_CASE   rest-enum: the REST handler without modelMeta or zodSchemas (the defaults, as the adapters pass them)
 *                          answers a list filtered by an enum field;
 *               adapter-zod: a Fetch adapter is created with `zodSchemas: true` and the REST handler, and answers a list
 *   COLD_DB     SQLite file
 *   COLD_GENERATED  the generated schema's folder (its Prisma client)
 *   COLD_MODEL  model name
 * prints `{ ms, heapMiB }`: CPU ms of creating the handler and answering, and the JavaScript heap after a full collection.
 */
/* eslint-disable @typescript-eslint/no-require-imports */

function env(name: string): string {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
}

const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
};

async function main(): Promise<void> {
    const type = env('COLD_MODEL').replace(/^./, (c) => c.toLowerCase());
    const { enhance } = require('.zenstack/enhance');
    const { PrismaBetterSQLite3 } = require('@prisma/adapter-better-sqlite3');
    const { RestApiHandler } = require('cold-start-ours/api/rest');
    const { createFetchHandler } = require('cold-start-ours/adapters/fetch');
    const { PrismaClient } = require(`${env('COLD_GENERATED')}/prisma-client`);
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${env('COLD_DB')}` }) });
    await prisma.$connect();
    const db = () => enhance(prisma, { user: { id: 1 } });
    await db()[type].count();
    (global as { gc?: () => void }).gc?.();

    const t = cpu();
    let status: number;
    if (env('COLD_CASE') === 'rest-enum') {
        const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
        const answer = await handle({ method: 'GET', path: `/${type}`, query: { 'filter[status]': 'LIVE' }, prisma: db(), logger: null });
        status = answer.status;
    } else {
        const handle = createFetchHandler({ zodSchemas: true, getPrisma: db, prefix: '/api', logger: null, handler: RestApiHandler({ endpoint: 'http://localhost/api' }) });
        const response = await handle(new Request(`http://localhost/api/${type}?filter[status]=LIVE`));
        status = response.status;
    }
    const ms = cpu() - t;
    if (status !== 200) throw new Error(`answered ${status}`);
    (global as { gc?: () => void }).gc?.();
    await prisma.$disconnect();
    process.stdout.write(`${JSON.stringify({ ms, heapMiB: process.memoryUsage().heapUsed / 1048576 })}\n`);
}

main().then(
    () => process.exit(0),
    (err: unknown) => {
        process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exit(1);
    },
);
