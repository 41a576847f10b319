import os from 'node:os';
import path from 'node:path';

/** Paths and run settings of the benchmark, read once from the environment. */

export const PROJECT_ROOT = path.resolve(__dirname, '..');
export const BENCH_DIR = path.join(PROJECT_ROOT, 'bench');
export const DATA_DIR = path.join(BENCH_DIR, '.data');
/** Compiled code lives outside the source tree (linters skip node_modules) and resolves our node_modules. */
export const BUILD_DIR = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'zenstack-api-bench');
/** Our package, compiled with tsconfig.build.json (what users run). */
export const OURS_DIST = path.join(BUILD_DIR, 'dist');
/** The bench server, transpiled to plain JavaScript so the measured processes carry no TypeScript hook. */
export const SERVER_BUILD = path.join(BUILD_DIR, 'server');

/** The implementations the issue compares. */
export const IMPLS = ['ours', 'upstream', 'floor'] as const;
/** For information: a floor that makes our handler's ORM calls, measured on the scenarios marked `oursCallsFloor`. */
export const OURS_CALLS_FLOOR = 'floor-ours';
export const ALL_IMPLS = [...IMPLS, OURS_CALLS_FLOOR] as const;
export type Impl = (typeof ALL_IMPLS)[number];

/** A positive number from the environment, or `fallback` when unset. */
export function num(name: string, fallback: number): number {
    const raw = process.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
        throw new Error(`${name} must be a positive number, got "${raw}"`);
    }
    return value;
}

function list(name: string): string[] | undefined {
    const raw = process.env[name];
    if (!raw) return undefined;
    return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

export interface BenchConfig {
    /** Seconds of measured load per run (whole seconds). */
    duration: number;
    /** Seconds of unmeasured load before each run. */
    warmup: number;
    /** Seconds of each read scenario a fresh server process serves before anything is measured on it. */
    processWarmup: number;
    rounds: number;
    connections: number;
    /** Scenario names to run (undefined = all). */
    scenarios?: string[];
    impls: Impl[];
    /** Implementation to run under `--cpu-prof` instead of benchmarking. */
    profile?: Impl;
    /** How many functions the profile summary lists. */
    profileTop: number;
    /** 'auto' writes RESULTS.md and docs/performance.md only after a complete, clean run. */
    write: 'auto' | 'always' | 'never';
}

export function readConfig(): BenchConfig {
    const impls = (list('BENCH_IMPLS') ?? [...ALL_IMPLS]) as Impl[];
    for (const impl of impls) {
        if (!ALL_IMPLS.includes(impl)) throw new Error(`BENCH_IMPLS: unknown implementation "${impl}" (use ${ALL_IMPLS.join(', ')})`);
    }
    const profile = process.env.BENCH_PROFILE as Impl | undefined;
    if (profile && !ALL_IMPLS.includes(profile)) {
        throw new Error(`BENCH_PROFILE: unknown implementation "${profile}" (use ${ALL_IMPLS.join(', ')})`);
    }
    const write = process.env.BENCH_WRITE === '1' ? 'always' : process.env.BENCH_WRITE === '0' ? 'never' : 'auto';
    return {
        // autocannon measures in whole seconds
        duration: Math.ceil(num('BENCH_DURATION', 2)),
        warmup: num('BENCH_WARMUP', 0.5),
        processWarmup: num('BENCH_PROCESS_WARMUP', 2),
        rounds: Math.round(num('BENCH_ROUNDS', 4)),
        connections: Math.round(num('BENCH_CONNECTIONS', 10)),
        scenarios: list('BENCH_SCENARIOS'),
        impls,
        profile: profile || undefined,
        profileTop: Math.round(num('BENCH_PROFILE_TOP', 25)),
        write,
    };
}

/** What the results are worth: the machine they were measured on. */
export function describeMachine(): { cpus: number; cpuModel: string; memoryGiB: string; node: string; os: string } {
    const cpus = os.cpus();
    return {
        cpus: os.availableParallelism?.() ?? cpus.length,
        cpuModel: cpus[0]?.model?.trim() || 'unknown',
        memoryGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
        node: process.version,
        os: `${os.type()} ${os.release()}`,
    };
}
