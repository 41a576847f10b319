import fs from 'node:fs';
import { RestApiHandler } from '../../../src/api/rest';
import { RPCApiHandler } from '../../../src/api/rpc';
import { loadSchema } from '../../support/schema';

/**
 * Run in a child process by `compiler-broken.test.ts`: breaks Prisma's query compiler for good (panics
 * caused on purpose through the raw client, which the handlers no longer let requests do), then asks
 * both handlers for an ordinary read and prints what they answered and logged as one JSON line. A
 * process of its own, so that the broken WebAssembly instance (and whatever it throws later) cannot
 * touch the other test files of a jest worker.
 */
async function main(): Promise<void> {
    const s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ id: 1, title: 'one', published: true }] } } });
    let broken = false;
    let panics = 0;
    for (; panics < 400 && !broken; panics++) {
        await s.prisma.post.groupBy({ by: ['authorId'], having: {} }).catch(() => undefined);
        broken = await s.prisma.post.count().then(
            () => false,
            (err: Error) => /memory access out of bounds/.test(err.message),
        );
    }
    const logged: string[] = [];
    const logger = {
        error: () => logged.push('error'),
        warn: () => logged.push('warn'),
        info: () => undefined,
        debug: () => logged.push('debug'),
    };
    const ctx = { query: {}, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger };
    const rpc = await RPCApiHandler()({ ...ctx, method: 'GET', path: '/post/findMany', query: { q: '{}' } });
    const rest = await RestApiHandler({ endpoint: 'http://localhost/api' })({ ...ctx, method: 'GET', path: '/post' });
    // disconnecting frees the broken compiler, which throws the last panic's borrow error
    await s.prisma.$disconnect().catch(() => undefined);
    for (const f of [s.dbFile!, `${s.dbFile}-wal`, `${s.dbFile}-shm`, `${s.dbFile}-journal`]) fs.rmSync(f, { force: true });
    process.stdout.write(`${JSON.stringify({ broken, panics, statuses: [rpc.status, rest.status], bodies: [rpc.body, rest.body], logged })}\n`);
    process.exit(0);
}

main().catch((err) => {
    process.stdout.write(`${JSON.stringify({ error: String((err as Error)?.stack ?? err) })}\n`);
    process.exit(1);
});
