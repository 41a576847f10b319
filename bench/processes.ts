import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { OURS_DIST, PROJECT_ROOT, type Impl } from './config';
import { copyDatabase } from './database';
import type { BenchSetup } from './setup';

/** A running bench server in its own process, on its own copy of the seeded database. */
export interface ServerProcess {
    impl: Impl;
    pid: number;
    url: string;
    /** What the process wrote to stderr (errors are reported from here). */
    stderr: () => string;
    stop: () => Promise<void>;
}

export interface StartOptions {
    impl: Impl;
    setup: BenchSetup;
    serverScript: string;
    /** Names this process's database copy. */
    tag: string;
    nodeArgs?: string[];
    env?: Record<string, string>;
}

/** Servers still running: killed if the benchmark itself exits early (Ctrl-C, crash). */
const live = new Set<ChildProcess>();
process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
});
// on Ctrl-C bench/database.ts drops the run's PostgreSQL databases and exits; the servers go at once
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
        for (const child of live) child.kill('SIGKILL');
    });
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
    const db = await copyDatabase(options.setup.provider, options.setup.seed, `${options.impl}-${options.tag}`);

    const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), options.serverScript], {
        cwd: PROJECT_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
            ...process.env,
            NODE_ENV: 'production',
            BENCH_IMPL: options.impl,
            BENCH_DB: db.location,
            BENCH_GENERATED: options.setup.generatedDir,
            BENCH_OURS_DIST: OURS_DIST,
            ...options.env,
        },
    });
    live.add(child);
    child.once('exit', () => live.delete(child));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
    });

    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const port = await new Promise<number>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`${options.impl} server did not start in 60 s\n${stderr}`)), 60_000);
        child.stdout?.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            const match = /listening (\d+)/.exec(out);
            if (match) {
                clearTimeout(timer);
                resolve(Number(match[1]));
            }
        });
        child.once('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`${options.impl} server exited with code ${code} before listening\n${stderr}`));
        });
    }).catch(async (err: unknown) => {
        child.kill('SIGKILL');
        await exited;
        await db.remove();
        throw err;
    });

    return {
        impl: options.impl,
        pid: child.pid as number,
        url: `http://127.0.0.1:${port}`,
        stderr: () => stderr,
        stop: async () => {
            if (child.exitCode === null && child.signalCode === null) {
                child.kill('SIGTERM');
                const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
                await exited;
                clearTimeout(timer);
            }
            await db.remove();
        },
    };
}

/** Peak resident set size of a process so far (VmHWM), in MiB. */
export function peakRssMiB(pid: number): number | undefined {
    try {
        const match = /VmHWM:\s+(\d+)\s*kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        return match ? Number(match[1]) / 1024 : undefined;
    } catch {
        return undefined;
    }
}

/** Resets VmHWM to the current RSS (Linux: write 5 to clear_refs). False when not possible. */
export function resetPeakRss(pid: number): boolean {
    try {
        fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
        return true;
    } catch {
        return false;
    }
}

/** Starts one server per implementation at once (idle servers cost nothing); all or none. */
export async function startServers(impls: Impl[], options: Omit<StartOptions, 'impl'>): Promise<Map<Impl, ServerProcess>> {
    const settled = await Promise.allSettled(impls.map((impl) => startServer({ ...options, impl })));
    const servers = new Map<Impl, ServerProcess>();
    const failures: string[] = [];
    settled.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') servers.set(impls[i], outcome.value);
        else failures.push(String((outcome.reason as Error)?.message ?? outcome.reason));
    });
    if (failures.length) {
        for (const server of servers.values()) await server.stop();
        throw new Error(failures.join('\n'));
    }
    return servers;
}
