import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT, TS_REGISTER } from '../support/generate';

/**
 * Enough panics of Prisma 6's WebAssembly query compiler corrupt its memory: every later query fails with
 * "memory access out of bounds" until the process restarts. That is the server's condition: both handlers
 * answer 500 and log an error, where they answered 400 "the data layer rejected the request" (the RPC
 * handler logging only a debug line), so that a broken process looked like a stream of bad requests.
 * The compiler is broken in a child process (`support/broken-compiler-child.ts`).
 */

it('both handlers answer 500 and log an error once the query compiler is broken', async () => {
    const child = path.join(__dirname, 'support', 'broken-compiler-child.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', TS_REGISTER, child], {
        cwd: PROJECT_ROOT,
        maxBuffer: 16 * 1024 * 1024,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(result.error).toBeUndefined();
    expect(result.broken).toBe(true);
    expect(result.statuses).toEqual([500, 500]);
    expect(JSON.stringify(result.bodies)).not.toMatch(/memory|wasm/i);
    expect(result.logged).toEqual(['error', 'error']);
}, 120_000);
