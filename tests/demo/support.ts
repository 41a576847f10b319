import { spawn } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT, TS_REGISTER } from '../support/generate';

/**
 * Runs the demo as `npm start` does after `npm run generate` (which the test run's `pretest` did):
 * `scripts/setup-db.js`, then `src/server/main.ts`, as child processes with their own environment.
 */

export type DemoEnv = Record<string, string>;

/** Runs the demo's database set-up; resolves with its exit code and output. */
export function setupDemoDb(env: DemoEnv): Promise<{ status: number | null; output: string }> {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/setup-db.js')], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`the set-up did not finish within 110 s:\n${output}`));
        }, 110_000);
        // 'close': after the output has been read to its end
        child.once('close', (status) => {
            clearTimeout(timer);
            resolve({ status, output });
        });
    });
}

export interface RunningDemo {
    /** `http://localhost:<port>` */
    url: string;
    /** What it printed on start-up. */
    banner: string;
    /** SIGTERM; resolves with the exit code. */
    stop: () => Promise<number | null>;
}

/** Starts the demo server on a free port and resolves once it listens. */
export function startDemo(env: DemoEnv): Promise<RunningDemo> {
    const child = spawn(process.execPath, ['-r', TS_REGISTER, path.join(PROJECT_ROOT, 'src/server/main.ts')], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, PORT: '0', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let output = '';
    return new Promise<RunningDemo>((resolve, reject) => {
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`the demo did not start within 100 s:\n${output}`));
        }, 100_000);
        const onData = (chunk: Buffer) => {
            output += chunk.toString();
            const match = /demo on (http:\/\/localhost:\d+)/.exec(output);
            if (match) {
                clearTimeout(timer);
                resolve({
                    url: match[1],
                    banner: output.trim(),
                    stop: () => {
                        child.kill('SIGTERM');
                        return exited;
                    },
                });
            }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        void exited.then((code) => {
            clearTimeout(timer);
            reject(new Error(`the demo exited with ${code} before listening:\n${output}`));
        });
    });
}

/** A request to the demo as one of its seeded users (`x-user-id`), or anonymous; bodies are sent as `contentType` (JSON by default). */
export async function call(
    url: string,
    init: { method?: string; user?: number; body?: unknown; contentType?: string } = {},
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the JSON bodies they expect
): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = { 'content-type': init.contentType ?? 'application/json' };
    if (init.user !== undefined) headers['x-user-id'] = String(init.user);
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
