/**
 * `npm run bench:alloc`: JavaScript heap allocated per request, by implementation, for each read
 * scenario, measured in one process without HTTP (the answer passed through JSON.stringify, as a server
 * would). Unlike peak RSS, which moves with the garbage collector's timing and the request rate, the
 * bytes a request allocates repeat from run to run and do not depend on what else the machine is doing.
 *
 * Each sample is one request on a fresh enhanced client, between a full collection and the end of the
 * request; collections during the request are accounted for with v8.GCProfiler (what each collection
 * freed is added back). Memory outside the JavaScript heap (the query compiler's WebAssembly memory,
 * SQLite's) is not counted. Settings: BENCH_SCENARIOS, ALLOC_SAMPLES (15 per implementation and scenario,
 * after 20 unmeasured requests each).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { num } from './config';
import { openBench, parsedRequest, readScenarios, recordBlock, runScript, transcript } from './in-process';
import { median } from './report';

const IMPLS = ['ours', 'upstream', 'floor'] as const;

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

interface GcEvent {
    beforeGC: { heapStatistics: { usedHeapSize: number } };
    afterGC: { heapStatistics: { usedHeapSize: number } };
}

/** Bytes of JavaScript heap `run` allocates: growth of the used heap, plus what collections freed meanwhile. */
async function allocatedBy(run: () => Promise<void>): Promise<number> {
    collect();
    const profiler = new v8.GCProfiler();
    const start = v8.getHeapStatistics().used_heap_size;
    profiler.start();
    await run();
    const end = v8.getHeapStatistics().used_heap_size;
    const events = (profiler.stop()?.statistics ?? []) as GcEvent[];
    let total = 0;
    let used = start;
    for (const e of events) {
        total += e.beforeGC.heapStatistics.usedHeapSize - used;
        used = e.afterGC.heapStatistics.usedHeapSize;
    }
    return total + (end - used);
}

const mib = (bytes: number) => (bytes / 1048576).toFixed(2);
const kb = (chars: number) => (chars < 10_000 ? (chars / 1000).toFixed(1) : (chars / 1000).toFixed(0));

async function main(): Promise<void> {
    const samples = Math.round(num('ALLOC_SAMPLES', 15));
    const scenarios = readScenarios();
    const { client, impls, close } = await openBench('allocation', IMPLS);
    const { say, lines } = transcript();
    say(`JavaScript heap allocated per request in MiB (median of ${samples} requests; in one process, no HTTP; lower is better).\n`);
    say('| Scenario | ours | upstream | floor | upstream ÷ ours | answer KB ours / upstream / floor |');
    say('|---|--:|--:|--:|--:|--:|');
    try {
        for (const scenario of scenarios) {
            const { mount: m, req } = parsedRequest(scenario);
            const bytes: Record<string, number[]> = {};
            const size: Record<string, number> = {};
            const runs = Object.fromEntries(
                IMPLS.map((impl) => [
                    impl,
                    async () => {
                        const reply = await impls[impl][m](req, client());
                        if (reply.status !== scenario.status) throw new Error(`${scenario.name}: ${impl} answered ${reply.status}`);
                        size[impl] = JSON.stringify(reply.body).length;
                    },
                ]),
            );
            for (const impl of IMPLS) for (let i = 0; i < 20; i++) await runs[impl]();
            for (let i = 0; i < samples; i++) {
                // a different implementation first each time
                for (let k = 0; k < IMPLS.length; k++) {
                    const impl = IMPLS[(k + i) % IMPLS.length];
                    (bytes[impl] ??= []).push(await allocatedBy(runs[impl]));
                }
            }
            const med = Object.fromEntries(IMPLS.map((i) => [i, median(bytes[i])]));
            say(
                `| ${scenario.title} | ${mib(med.ours)} | ${mib(med.upstream)} | ${mib(med.floor)} | ${(med.upstream / med.ours).toFixed(2)}x | ` +
                    `${IMPLS.map((i) => kb(size[i])).join(' / ')} |`,
            );
        }
    } finally {
        await close();
    }
    recordBlock('allocation', scenarios, lines);
}

runScript(main);
