import fs from 'node:fs';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Enough panics of Prisma 6's WebAssembly query compiler (here caused on purpose through the raw client,
 * which the handlers no longer let requests do) corrupt its memory: every later query fails with "memory
 * access out of bounds" until the process restarts. That is the server's condition: both handlers answer
 * 500 and log an error, where the RPC handler answered 400 "the data layer rejected the request" and
 * logged only a debug line, so that a broken process looked like a stream of bad requests.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ id: 1, title: 'one', published: true }] } } });
    let broken = false;
    for (let i = 0; i < 400 && !broken; i++) {
        await s.prisma.post.groupBy({ by: ['authorId'], having: {} }).catch(() => undefined);
        broken = await s.prisma.post.count().then(
            () => false,
            (err: Error) => /memory access out of bounds/.test(err.message),
        );
    }
    expect(broken).toBe(true);
});

afterAll(async () => {
    // disconnecting frees the broken compiler, which throws the borrow error of the last panic: expected here
    await s.cleanup().catch((err: Error) => {
        expect(err.message).toMatch(/borrowed|memory access out of bounds/);
        for (const f of [s.dbFile!, `${s.dbFile}-wal`, `${s.dbFile}-shm`, `${s.dbFile}-journal`]) fs.rmSync(f, { force: true });
    });
});

it('both handlers answer 500 and log an error once the query compiler is broken', async () => {
    const lines: Array<[string, string | undefined]> = [];
    const logger = {
        error: (_m: string, code?: string) => lines.push(['error', code]),
        warn: () => undefined,
        info: () => undefined,
        debug: (_m: string, code?: string) => lines.push(['debug', code]),
    };
    const ctx = { query: {}, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger };
    const rpc = await RPCApiHandler()({ ...ctx, method: 'GET', path: '/post/findMany', query: { q: '{}' } });
    const rest = await RestApiHandler({ endpoint: 'http://localhost/api' })({ ...ctx, method: 'GET', path: '/post' });
    expect([rpc.status, rest.status]).toEqual([500, 500]);
    expect(JSON.stringify([rpc.body, rest.body])).not.toMatch(/memory|wasm/i);
    expect(lines.map(([level]) => level)).toEqual(['error', 'error']);
});
