import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, type BenchConfig } from './config';
import { formatSummary, summarizeProfile, type CpuProfile } from './cpuprofile';
import { RESULTS_FILE, writeBlock } from './documents';
import { runLoad, warmProcess, warmUp } from './load';
import { startServer } from './processes';
import type { Scenario } from './scenarios';
import type { BenchSetup } from './setup';

/**
 * BENCH_PROFILE=<impl>: runs that implementation's server under `node --cpu-prof` for each selected
 * scenario (default: the REST list with include), then prints where its CPU time went during the
 * measured load (start-up and warm-up, the same as the benchmark's, are left out using the server's clock).
 */
async function serverClock(url: string): Promise<number> {
    const res = await fetch(`${url}/__bench/now`);
    return ((await res.json()) as { now: number }).now;
}

export async function runProfile(config: BenchConfig, setup: BenchSetup, serverScript: string, scenarios: Scenario[]): Promise<void> {
    const impl = config.profile as NonNullable<BenchConfig['profile']>;
    const dir = path.join(DATA_DIR, 'profiles');
    fs.mkdirSync(dir, { recursive: true });
    const reports: string[] = [];
    for (const scenario of scenarios) {
        const name = `${impl}-${scenario.name}`;
        const file = path.join(dir, `${name}.cpuprofile`);
        fs.rmSync(file, { force: true });
        const server = await startServer({
            impl,
            setup,
            serverScript,
            tag: `profile-${scenario.name}`,
            nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', `${name}.cpuprofile`],
        });
        let result;
        const window: { from?: number; to?: number } = {};
        try {
            const load = { connections: config.connections, duration: config.duration };
            await warmProcess(server.url, config.connections, config.processWarmup);
            if (config.warmup > 0) await warmUp(server.url, scenario, config.connections, config.warmup);
            window.from = await serverClock(server.url);
            result = await runLoad(server.url, scenario, load, 0);
            window.to = await serverClock(server.url);
        } finally {
            await server.stop();
        }
        if (!fs.existsSync(file)) throw new Error(`no profile written to ${file}:\n${server.stderr()}`);
        const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
        const summary = summarizeProfile(profile, config.profileTop, window);
        const status = result.wrongStatus ? ` — WARNING: ${result.wrongStatus} answers with the wrong status` : '';
        const text = formatSummary(
            `${impl} / ${scenario.name}: ${result.reqPerSec.toFixed(0)} req/s under --cpu-prof${status}\nprofile: ${path.relative(process.cwd(), file)}`,
            summary,
        );
        fs.writeFileSync(path.join(dir, `${name}.txt`), `${text}\n`);
        process.stdout.write(`\n${text}\n`);
        reports.push(text);
    }
    if (config.write === 'always') {
        writeBlock(RESULTS_FILE, `profile-${impl}`, `\`\`\`text\n${reports.join('\n\n')}\n\`\`\``);
        process.stdout.write(`\nwrote the profile block of ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
    }
}
