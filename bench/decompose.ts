/**
 * `npm run bench:decompose`: where the CPU time of a read goes, measured in one process without
 * HTTP or a load generator. For each read scenario it times, one request after another on a fresh
 * enhanced client per request (as the servers do), every answer passed through JSON.stringify:
 *
 *   floor, upstream, ours     the three implementations as the bench servers run them
 *   ours: ORM calls           our handler's ORM calls alone, replayed on the same client
 *   ours: handler             our handler alone, its ORM calls answered from a recording
 *
 * "ours: ORM calls" against the floor (which makes upstream's calls) is the cost of the ORM work
 * our handler must do differently (e.g. page and count in one transaction), and "ours: handler" is
 * everything else we add. Their sum bounds how close to the floor ours can come.
 * Settings: BENCH_SCENARIOS, DECOMPOSE_ROUNDS (7), DECOMPOSE_MS (500 per variant and round;
 * each variant first runs three unmeasured batches).
 */
import os from 'node:os';
import { num } from './config';
import { answering, recording, replayCalls, type Recorded } from './replay';
import { openBench, parsedRequest, readScenarios, recordBlock, runScript, transcript } from './in-process';
import { median } from './report';

const VARIANTS = ['floor', 'upstream', 'ours', 'ours: ORM calls', 'ours: handler'] as const;
type Variant = (typeof VARIANTS)[number];

/** CPU time (user + system) per call in ms, over batches of about `ms` each; the median batch. */
async function cpuPerCall(run: () => Promise<void>, ms: number): Promise<number> {
    const t0 = Date.now();
    const c0 = process.cpuUsage();
    let n = 0;
    while (Date.now() - t0 < ms || n < 3) {
        await run();
        n++;
    }
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000 / n;
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

async function main(): Promise<void> {
    const rounds = Math.round(num('DECOMPOSE_ROUNDS', 7));
    const batchMs = num('DECOMPOSE_MS', 500);
    const scenarios = readScenarios();
    const { client, impls, close } = await openBench('decompose', ['floor', 'upstream', 'ours']);
    const { say, lines } = transcript();
    say(
        `In-process CPU time per request in ms (median of ${rounds} batches of ${batchMs} ms per variant; ${os.cpus()[0]?.model?.trim()}, ` +
            `Node ${process.version}; no HTTP, so absolute numbers are below the servers').\n`,
    );
    say('| Scenario | floor | upstream | ours | ours: ORM calls | ours: handler | ORM calls − floor | best ours/floor |');
    say('|---|--:|--:|--:|--:|--:|--:|--:|');
    try {
        for (const scenario of scenarios) {
            const { mount: m, req } = parsedRequest(scenario);
            const log: Recorded[] = [];
            const reply = await impls.ours[m](req, recording(client(), log));
            if (reply.status !== scenario.status) throw new Error(`${scenario.name}: ours answered ${reply.status}`);
            const runs: Record<Variant, () => Promise<void>> = {
                floor: async () => void JSON.stringify((await impls.floor[m](req, client())).body),
                upstream: async () => void JSON.stringify((await impls.upstream[m](req, client())).body),
                ours: async () => void JSON.stringify((await impls.ours[m](req, client())).body),
                'ours: ORM calls': () => replayCalls(client(), log),
                'ours: handler': async () => void JSON.stringify((await impls.ours[m](req, answering(log, client()))).body),
            };
            const times = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
            for (const v of VARIANTS) for (let w = 0; w < 3; w++) await cpuPerCall(runs[v], batchMs); // warm-up
            for (let r = 0; r < rounds; r++) {
                // a different variant first each round
                for (let k = 0; k < VARIANTS.length; k++) {
                    const v = VARIANTS[(k + r) % VARIANTS.length];
                    times[v].push(await cpuPerCall(runs[v], batchMs));
                }
            }
            const t = Object.fromEntries(VARIANTS.map((v) => [v, median(times[v])])) as Record<Variant, number>;
            const bound = t.floor / (t['ours: ORM calls'] + t['ours: handler']);
            say(
                `| ${scenario.name} | ${fmt(t.floor)} | ${fmt(t.upstream)} | ${fmt(t.ours)} | ${fmt(t['ours: ORM calls'])} | ${fmt(t['ours: handler'])} | ` +
                    `${t['ours: ORM calls'] - t.floor >= 0 ? '+' : ''}${fmt(t['ours: ORM calls'] - t.floor)} | ${bound.toFixed(2)}x |`,
            );
        }
    } finally {
        await close();
    }
    say(
        '\n"best ours/floor" = floor ÷ (ours: ORM calls + ours: handler): what ours would reach if the two shares cost no ' +
            'more together than apart. The floor includes JSON.stringify of its answer; "ORM calls − floor" is therefore ' +
            'slightly below the difference in ORM work alone.',
    );
    recordBlock('decompose', scenarios, lines);
}

runScript(main);
