/**
 * `npm run bench`: our handlers vs @zenstackhq/server 2.22.3 vs the ORM floor, side by side.
 * Settings (environment): BENCH_DURATION (s, 2), BENCH_WARMUP (s, 0.5), BENCH_ROUNDS (4),
 * BENCH_PROCESS_WARMUP (s, 2),
 * BENCH_CONNECTIONS (10), BENCH_SCENARIOS (comma list), BENCH_IMPLS (comma list),
 * BENCH_PROFILE=ours|upstream|floor|floor-ours (profile instead of benchmark), BENCH_WRITE=1|0, BENCH_NOTE,
 * BENCH_DB=sqlite|postgresql (the database; PostgreSQL at TEST_PG_URL, 127.0.0.1:5432 by default).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DATA_DIR, IMPLS, OURS_CALLS_FLOOR, PROJECT_ROOT, describeMachine, readConfig, type BenchConfig, type Impl } from './config';
import { describeDatabase } from './database';
import { PERFORMANCE_DOC, README_FILE, RESULTS_FILE, writeBlock } from './documents';
import { runLoad, warmProcess, warmUp } from './load';
import { callDifferences, preflight, type PreflightResult } from './preflight';
import { peakRssMiB, resetPeakRss, startServer, startServers, type ServerProcess } from './processes';
import { runProfile } from './profile';
import { cpuTable, oursCallsFloorTable, rssTable, statusFailures, summarize, targetLines, throughputTable, type Run } from './report';
import { SCENARIOS, selectScenarios, type Scenario } from './scenarios';
import { buildOurs, buildServer, prepareData, type BenchSetup } from './setup';

const t0 = Date.now();
const say = (message: string) => process.stdout.write(`${message}\n`);
/** Seconds since start, for the progress lines. */
const clock = () => `[${((Date.now() - t0) / 1000).toFixed(0).padStart(3)} s]`;

/** Round r starts with a different implementation, so no one always runs first or last. */
function rotate<T>(items: T[], by: number): T[] {
    const k = by % items.length;
    return [...items.slice(k), ...items.slice(0, k)];
}

/** The implementations measured on a scenario: the floor making our calls only where the scenario asks for it. */
function implsFor(impls: Impl[], scenario: Scenario): Impl[] {
    return impls.filter((impl) => impl !== OURS_CALLS_FLOOR || scenario.oursCallsFloor === true);
}

function line(run: Run): string {
    const rss = run.peakRss === undefined ? '' : `  peak RSS ${run.peakRss.toFixed(0)} MiB`;
    const bad = run.wrongStatus || run.errors ? `  WRONG STATUS ${run.wrongStatus} ERRORS ${run.errors}` : '';
    const cpu = `${run.cpuMsPerRequest.toFixed(2).padStart(7)} ms CPU/req`;
    return `  ${run.impl.padEnd(10)} ${run.reqPerSec.toFixed(0).padStart(7)} req/s  p99 ${run.p99.toFixed(1).padStart(7)} ms ${cpu}${rss}${bad}`;
}

async function measureRegular(config: BenchConfig, setup: BenchSetup, serverScript: string, scenarios: Scenario[], runs: Run[]): Promise<void> {
    const options = { connections: config.connections, duration: config.duration };
    // one long-lived process per implementation, on its own database copy: a fresh process takes
    // seconds of load before its JIT (and Prisma's WebAssembly query compiler) runs at full speed,
    // and short runs on cold processes would measure that rather than the handlers
    const used = config.impls.filter((impl) => scenarios.some((s) => implsFor(config.impls, s).includes(impl)));
    const servers = await startServers(used, { setup, serverScript, tag: 'regular' });
    try {
        say(`${clock()} warm-up: ${config.processWarmup} s of each read scenario per implementation`);
        for (const server of servers.values()) await warmProcess(server.url, config.connections, config.processWarmup);
        // every round of reads before any write, so every implementation reads the same rows
        for (const phase of [scenarios.filter((s) => !s.write), scenarios.filter((s) => s.write)]) {
            for (let round = 1; round <= config.rounds && phase.length > 0; round++) {
                say(`\n${clock()} ${phase[0].write ? 'writes' : 'reads'}, round ${round}/${config.rounds}`);
                for (const scenario of phase) {
                    const order = rotate(implsFor(config.impls, scenario), round - 1);
                    say(`${clock()} ${scenario.name} (order: ${order.join(', ')})`);
                    for (const impl of order) {
                        const server = servers.get(impl) as ServerProcess;
                        const result = await runLoad(server.url, scenario, options, config.warmup);
                        const run: Run = { ...result, scenario: scenario.name, impl, round };
                        runs.push(run);
                        say(line(run));
                    }
                }
            }
        }
    } finally {
        for (const server of servers.values()) await server.stop();
    }
}

/**
 * 1,000-row reads: a fresh process per implementation and scenario (nothing else has run in it), warmed
 * once and kept for that scenario's rounds; its peak RSS is reset before every measured round, so each
 * round's peak is its own. (Until commit `fdd67d0` every round started its own process: 24 starts,
 * which took a slow machine past the 10 minutes the bench has.)
 */
async function measureLarge(config: BenchConfig, setup: BenchSetup, serverScript: string, scenarios: Scenario[], runs: Run[]): Promise<void> {
    const options = { connections: config.connections, duration: config.duration };
    for (const scenario of scenarios) {
        const impls = implsFor(config.impls, scenario);
        say(`${clock()} ${scenario.name}: a fresh process per implementation, warmed`);
        const servers = new Map<Impl, ServerProcess>();
        try {
            for (const impl of impls) {
                const server = await startServer({ impl, setup, serverScript, tag: scenario.name });
                servers.set(impl, server);
                await warmProcess(server.url, config.connections, config.warmup);
                if (config.warmup > 0) await warmUp(server.url, scenario, config.connections, 2 * config.warmup);
            }
            for (let round = 1; round <= config.rounds; round++) {
                const order = rotate(impls, round - 1);
                say(`${clock()} ${scenario.name}, round ${round}/${config.rounds} (order: ${order.join(', ')})`);
                for (const impl of order) {
                    const server = servers.get(impl) as ServerProcess;
                    const reset = resetPeakRss(server.pid);
                    const result = await runLoad(server.url, scenario, options, 0);
                    const run: Run = { ...result, scenario: scenario.name, impl, round, peakRss: peakRssMiB(server.pid) };
                    if (!reset) say('  (could not reset VmHWM: peak RSS includes start-up, warm-up and earlier rounds)');
                    runs.push(run);
                    say(line(run));
                    const errors = server.stderr().trim();
                    if (errors) say(`  ${impl} stderr: ${errors.slice(0, 500)}`);
                }
            }
        } finally {
            for (const server of servers.values()) await server.stop();
        }
    }
}

async function measure(config: BenchConfig, setup: BenchSetup, serverScript: string, scenarios: Scenario[]): Promise<Run[]> {
    const runs: Run[] = [];
    const regular = scenarios.filter((s) => !s.large);
    const large = scenarios.filter((s) => s.large);
    if (regular.length) await measureRegular(config, setup, serverScript, regular, runs);
    if (large.length) await measureLarge(config, setup, serverScript, large, runs);
    return runs;
}

const fmtCount = (n: number) => n.toLocaleString('en-US');

function gitCommit(): string {
    try {
        const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
        return sha;
    } catch {
        return 'unknown';
    }
}

/**
 * The generated results. `internal` (bench/RESULTS.md) adds the targets and where our ORM calls differ
 * from upstream's; the user documentation gets the measurements only.
 */
function resultsBlock(
    config: BenchConfig,
    setup: BenchSetup,
    runs: Run[],
    scenarios: Scenario[],
    pre: PreflightResult,
    loadBefore: number[],
    started: Date,
    internal: boolean,
): string {
    const machine = describeMachine();
    const summaries = summarize(scenarios, config.impls, runs);
    const rss = rssTable(summaries);
    const oursCalls = oursCallsFloorTable(summaries);
    const targets = targetLines(summaries);
    const diffs = callDifferences(pre);
    const loadAfter = os.loadavg();
    const parts = [
        `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC at commit \`${gitCommit()}\` on ` +
            `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, Node ${machine.node}, ${machine.os}, ` +
            `on ${describeDatabase(setup.provider)}. ` +
            `${config.rounds} round(s) × ${config.duration} s per implementation and scenario (after ${config.warmup} s warm-up), ` +
            `on server processes first warmed with ${config.processWarmup} s of each read scenario, ` +
            `${config.connections} connections; load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after.`,
        process.env.BENCH_NOTE ? `> ${process.env.BENCH_NOTE}` : '',
        `Every answer was checked: ${fmtCount(runs.reduce((n, r) => n + r.completed, 0))} answers, ` +
            `${runs.reduce((n, r) => n + r.non2xx, 0)} non-2xx, ${runs.reduce((n, r) => n + r.wrongStatus, 0)} with an unexpected status, ` +
            `${runs.reduce((n, r) => n + r.errors, 0)} connection errors or timeouts.`,
        'Median req/s over the rounds (higher is better) and median p99 latency:',
        throughputTable(summaries),
        'Server CPU time per request in ms (user + system of the server process over the requests it finished, median over ' +
            'the rounds; lower is better, and much less disturbed than req/s by other processes on the machine):',
        cpuTable(summaries),
        rss ? `Peak RSS of the server process while serving the 1,000-row scenarios (VmHWM, median over rounds):\n\n${rss}` : '',
        internal && targets.length ? `Targets:\n\n${targets.join('\n')}` : '',
        internal && oursCalls
            ? 'For information (not one of the issue\'s comparisons): ours against a second floor that makes *our* handler\'s ORM ' +
              'calls (`bench/server/floor-ours.ts`, checked against ours in the pre-flight), on the lists where those calls ' +
              'differ from upstream\'s. This is the cost of our handler alone, without the ORM work the read issue asks for:' +
              `\n\n${oursCalls}`
            : '',
        internal && diffs.length
            ? `Where our ORM calls differ from upstream's (one request, from the pre-flight):\n\n` +
              diffs.map((d) => `- ${d.scenario}: ours \`${d.ours.join(' ; ')}\`; upstream \`${d.upstream.join(' ; ')}\``).join('\n')
            : '',
    ];
    return parts.filter(Boolean).join('\n\n');
}

async function main(): Promise<void> {
    const config = readConfig();
    const started = new Date();
    const loadBefore = os.loadavg();
    const scenarios = selectScenarios(config.scenarios);
    const setup = await prepareData();
    try {
        await benchmark(config, setup, scenarios, started, loadBefore);
    } finally {
        await setup.release();
    }
}

async function benchmark(config: BenchConfig, setup: BenchSetup, scenarios: Scenario[], started: Date, loadBefore: number[]): Promise<void> {
    if (config.impls.includes('ours') || config.profile === 'ours') buildOurs();
    const serverScript = buildServer();

    if (config.profile) {
        await runProfile(config, setup, serverScript, config.scenarios ? scenarios : SCENARIOS.filter((s) => s.name === 'rest-list-include'));
        return;
    }

    say(`${clock()} pre-flight: ${config.impls.join(', ')} × ${scenarios.length} scenario(s) on ${describeDatabase(setup.provider)}`);
    const pre = await preflight(setup, serverScript, config.impls, scenarios);
    if (pre.problems.length) {
        say(`\npre-flight failed, nothing measured:\n- ${pre.problems.join('\n- ')}`);
        process.exitCode = 1;
        return;
    }

    const runs = await measure(config, setup, serverScript, scenarios);
    const block = resultsBlock(config, setup, runs, scenarios, pre, loadBefore, started, true);
    const publicBlock = resultsBlock(config, setup, runs, scenarios, pre, loadBefore, started, false);
    const failures = statusFailures(runs);
    // SQLite's results are the issue's; PostgreSQL's go beside them, in blocks and files of their own
    const suffix = setup.provider === 'sqlite' ? '' : `-${setup.provider}`;
    fs.writeFileSync(path.join(DATA_DIR, `last-run${suffix}.json`), JSON.stringify({ config, provider: setup.provider, started, runs }, null, 2));
    fs.writeFileSync(path.join(DATA_DIR, `last-run${suffix}.md`), `${block}\n`);
    say(`\n${block}\n`);

    const complete = scenarios.length === SCENARIOS.length && IMPLS.every((impl) => config.impls.includes(impl));
    if (failures.length) {
        say(`FAILED: answers with the wrong status (a fast error is not a result):\n- ${failures.join('\n- ')}`);
        process.exitCode = 1;
    }
    const write = config.write === 'always' || (config.write === 'auto' && complete && failures.length === 0);
    if (write) {
        const files = setup.provider === 'sqlite' ? [RESULTS_FILE, PERFORMANCE_DOC, README_FILE] : [RESULTS_FILE, PERFORMANCE_DOC];
        for (const file of files) writeBlock(file, `results${suffix}`, file === RESULTS_FILE ? block : publicBlock);
        say(`wrote the results into ${files.map((f) => path.relative(PROJECT_ROOT, f)).join(', ')}`);
    } else {
        say(`results in ${path.relative(PROJECT_ROOT, DATA_DIR)}/last-run${suffix}.md (RESULTS.md is written after a complete, clean run or with BENCH_WRITE=1)`);
    }
    say(`${clock()} done`);
}

main().catch((err) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
});
