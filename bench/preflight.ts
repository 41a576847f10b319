import { OURS_CALLS_FLOOR, type Impl } from './config';
import { startServers } from './processes';
import type { Scenario } from './scenarios';
import { USER_HEADER } from './scenarios';
import type { BenchSetup } from './setup';

/**
 * Before anything is measured: every implementation answers every scenario once, with the expected
 * status and a body that passes the scenario's check (a fast error is not a result). The servers run
 * with BENCH_LOG_CALLS=1 so the ORM calls each one makes are recorded: the floor must make exactly
 * upstream's calls, the floor-ours exactly ours', and where ours differs from upstream the report says so.
 */

export interface PreflightResult {
    problems: string[];
    /** scenario → impl → ORM calls made for one request. */
    calls: Record<string, Partial<Record<Impl, string[]>>>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function preflight(setup: BenchSetup, serverScript: string, impls: Impl[], scenarios: Scenario[]): Promise<PreflightResult> {
    const problems: string[] = [];
    const calls: PreflightResult['calls'] = {};
    let servers;
    try {
        servers = await startServers(impls, { setup, serverScript, tag: 'preflight', env: { BENCH_LOG_CALLS: '1' } });
    } catch (err) {
        return { problems: [(err as Error).message], calls };
    }
    for (const [impl, server] of servers) {
        try {
            for (const scenario of scenarios) {
                const r = scenario.request(0);
                const before = server.stderr().length;
                let status = 0;
                let text = '';
                try {
                    const res = await fetch(server.url + r.path, {
                        method: r.method,
                        headers: { ...USER_HEADER, ...(r.body === undefined ? {} : { 'content-type': 'application/json' }) },
                        body: r.body === undefined ? undefined : JSON.stringify(r.body),
                    });
                    status = res.status;
                    text = await res.text();
                } catch (err) {
                    problems.push(`${impl} ${scenario.name}: request failed (${(err as Error).message})`);
                    continue;
                }
                // stderr arrives through a pipe: give it a moment
                await pause(30);
                const log = server.stderr().slice(before);
                (calls[scenario.name] ??= {})[impl] = log
                    .split('\n')
                    .filter((line) => line.startsWith('  call '))
                    .map((line) => line.slice(7));
                if (status !== scenario.status) {
                    problems.push(`${impl} ${scenario.name}: status ${status}, expected ${scenario.status}: ${text.slice(0, 300)}`);
                    continue;
                }
                let body: unknown;
                try {
                    body = JSON.parse(text);
                } catch {
                    problems.push(`${impl} ${scenario.name}: body is not JSON`);
                    continue;
                }
                const problem = scenario.check(body);
                if (problem) problems.push(`${impl} ${scenario.name}: ${problem}`);
            }
        } catch (err) {
            problems.push(`${impl}: ${(err as Error).message}`);
        } finally {
            await server.stop();
        }
    }
    for (const scenario of scenarios) {
        const floor = calls[scenario.name]?.floor;
        const upstream = calls[scenario.name]?.upstream;
        if (floor && upstream && floor.join('\n') !== upstream.join('\n')) {
            problems.push(`floor ${scenario.name}: ORM calls differ from upstream's\n    floor:    ${floor.join('\n              ')}\n    upstream: ${upstream.join('\n              ')}`);
        }
        const floorOurs = calls[scenario.name]?.[OURS_CALLS_FLOOR];
        const ours = calls[scenario.name]?.ours;
        if (floorOurs && ours && floorOurs.join('\n') !== ours.join('\n')) {
            problems.push(
                `${OURS_CALLS_FLOOR} ${scenario.name}: ORM calls differ from ours (bench/server/floor-ours.ts is out of date)\n` +
                    `    ${OURS_CALLS_FLOOR}: ${floorOurs.join('\n                ')}\n    ours:       ${ours.join('\n                ')}`,
            );
        }
    }
    return { problems, calls };
}

/** Scenarios where our handler's ORM calls differ from upstream's (information for the report). */
export function callDifferences(result: PreflightResult): { scenario: string; ours: string[]; upstream: string[] }[] {
    const out: { scenario: string; ours: string[]; upstream: string[] }[] = [];
    for (const [scenario, byImpl] of Object.entries(result.calls)) {
        const ours = byImpl.ours;
        const upstream = byImpl.upstream;
        if (ours && upstream && ours.join('\n') !== upstream.join('\n')) out.push({ scenario, ours, upstream });
    }
    return out;
}
