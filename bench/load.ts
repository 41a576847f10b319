import autocannon from 'autocannon';
import type { Scenario } from './scenarios';
import { SCENARIOS, USER_HEADER } from './scenarios';

/** One measured run of one scenario against one server. */
export interface LoadResult {
    reqPerSec: number;
    /**
     * Server CPU time (user + system) per finished request, in ms: far less sensitive than req/s to
     * other processes competing for the machine.
     */
    cpuMsPerRequest: number;
    /** Latency percentiles in milliseconds. */
    p50: number;
    p99: number;
    completed: number;
    /** Answers with a status other than the scenario's (non-2xx included). */
    wrongStatus: number;
    non2xx: number;
    /** Connection errors and timeouts. */
    errors: number;
    statusCounts: Record<string, number>;
}

export interface LoadOptions {
    connections: number;
    /** Whole seconds: autocannon stops on its one-second sample ticks. */
    duration: number;
}

function fire(url: string, scenario: Scenario, options: LoadOptions): Promise<autocannon.Result> {
    let n = 0;
    return autocannon({
        url,
        connections: options.connections,
        duration: options.duration,
        // fail fast rather than hang on a wedged server
        timeout: 30,
        requests: [
            {
                setupRequest: (req) => {
                    const r = scenario.request(n++);
                    return {
                        ...req,
                        method: r.method as autocannon.Request['method'],
                        path: r.path,
                        headers: { ...USER_HEADER, ...(r.body === undefined ? {} : { 'content-type': 'application/json' }) },
                        body: r.body === undefined ? undefined : JSON.stringify(r.body),
                    };
                },
            },
        ],
    });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the server reports about itself: requests in flight and finished, CPU time used (µs). */
interface ServerStats {
    inflight: number;
    handled: number;
    cpuUs: number;
}

async function serverStats(url: string): Promise<ServerStats> {
    const res = await fetch(`${url}/__bench/stats`);
    return (await res.json()) as ServerStats;
}

/**
 * Waits until the server has finished every request: when a run ends autocannon drops its in-flight
 * requests, but the server still works on them, and that work must not overlap the next measurement.
 */
export async function drain(url: string, timeoutMs = 120_000): Promise<ServerStats> {
    const until = Date.now() + timeoutMs;
    for (;;) {
        const stats = await serverStats(url);
        const inflight = stats.inflight;
        if (inflight === 0) return stats;
        if (Date.now() > until) throw new Error(`server at ${url} still has ${inflight} request(s) in flight`);
        await pause(20);
    }
}

/**
 * Unmeasured load before a measurement: `connections` loops sending the scenario's requests until
 * `seconds` have passed (autocannon only stops on whole seconds, this stops on time), each loop
 * finishing its last request.
 */
export async function warmUp(url: string, scenario: Scenario, connections: number, seconds: number): Promise<void> {
    const deadline = Date.now() + seconds * 1000;
    let n = 0;
    const loop = async () => {
        while (Date.now() < deadline) {
            const r = scenario.request(n++);
            const res = await fetch(url + r.path, {
                method: r.method,
                headers: { ...USER_HEADER, ...(r.body === undefined ? {} : { 'content-type': 'application/json' }) },
                body: r.body === undefined ? undefined : JSON.stringify(r.body),
            });
            await res.arrayBuffer();
        }
    };
    await Promise.all(Array.from({ length: connections }, loop));
    await drain(url);
}

export async function runLoad(url: string, scenario: Scenario, options: LoadOptions, warmup: number): Promise<LoadResult> {
    if (warmup > 0) await warmUp(url, scenario, options.connections, warmup);
    const before = await serverStats(url);
    const result = await fire(url, scenario, options);
    // the requests autocannon dropped at the end are finished (and counted) before the reading
    const after = await drain(url);
    const statusCounts: Record<string, number> = {};
    // statusCodeStats exists at runtime in autocannon 9 but is missing from its type definitions
    const stats = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
    for (const [code, { count }] of Object.entries(stats)) statusCounts[code] = count;
    const completed = result.requests.total;
    const right = statusCounts[String(scenario.status)] ?? 0;
    return {
        reqPerSec: completed / result.duration,
        cpuMsPerRequest: after.handled > before.handled ? (after.cpuUs - before.cpuUs) / 1000 / (after.handled - before.handled) : NaN,
        p50: result.latency.p50,
        p99: result.latency.p99,
        completed,
        wrongStatus: completed - right,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        statusCounts,
    };
}

/**
 * Unmeasured load on a fresh server process: `seconds` of every small read scenario. A fresh process
 * takes seconds of load before its JIT and Prisma's WebAssembly query compiler run at full speed;
 * warmed this way it is like a server that has been up for a while.
 */
export async function warmProcess(url: string, connections: number, seconds: number): Promise<void> {
    for (const scenario of SCENARIOS) {
        if (!scenario.write && !scenario.large) await warmUp(url, scenario, connections, seconds);
    }
}
