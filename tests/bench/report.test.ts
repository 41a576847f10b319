import { geomean, median, statusFailures, summarize, targetLines, type Run } from '../../bench/report';
import type { Scenario } from '../../bench/scenarios';

/**
 * The benchmark's verdicts, from made-up runs: a run whose answers had the wrong status, connection errors or
 * no answer at all is invalid (a fast error is not a result), medians and ratios are taken over the rounds, and
 * each target is marked met or missed from those ratios.
 */

const scenario = (name: string, large = false): Scenario => ({
    name,
    title: name,
    status: 200,
    large,
    request: () => ({ method: 'GET', path: '/' }),
    check: () => undefined,
});

function run(scenarioName: string, impl: Run['impl'], round: number, reqPerSec: number, extra: Partial<Run> = {}): Run {
    return {
        scenario: scenarioName,
        impl,
        round,
        reqPerSec,
        cpuMsPerRequest: 1000 / reqPerSec,
        p50: 1,
        p99: 2,
        completed: reqPerSec * 2,
        wrongStatus: 0,
        non2xx: 0,
        errors: 0,
        statusCounts: { 200: reqPerSec * 2 },
        ...extra,
    } as Run;
}

describe('statusFailures', () => {
    it('passes clean runs and names every run with a wrong status, an error or no answer', () => {
        const clean = run('rest-get-one', 'ours', 1, 100);
        expect(statusFailures([clean])).toEqual([]);
        const failures = statusFailures([
            clean,
            run('rest-get-one', 'upstream', 1, 100, { wrongStatus: 3, non2xx: 3, statusCounts: { 200: 197, 500: 3 } }),
            run('rpc-create', 'floor', 2, 100, { errors: 1 }),
            run('rpc-update', 'ours', 3, 100, { completed: 0 }),
        ]);
        expect(failures).toHaveLength(3);
        expect(failures[0]).toContain('upstream rest-get-one round 1: 3 answer(s) with the wrong status');
        expect(failures[0]).toContain('"500":3');
        expect(failures[1]).toContain('floor rpc-create round 2: 0 answer(s) with the wrong status, 1 error(s)');
        expect(failures[2]).toContain('ours rpc-update round 3: no answer completed');
    });
});

describe('medians, ratios and targets', () => {
    it('takes the median of the rounds and the geometric mean of ratios', () => {
        expect(median([3, 1, 2])).toBe(2);
        expect(median([4, 1, 3, 2])).toBe(2.5);
        expect(geomean([2, 8])).toBeCloseTo(4);
        expect(geomean([])).toBeUndefined();
    });

    it('marks each target met or missed from the median ratios, with the spread of the rounds', () => {
        const scenarios = [scenario('rest-list-include'), scenario('rpc-create'), scenario('rest-list-1000', true)];
        const runs: Run[] = [];
        for (const round of [1, 2, 3]) {
            // list with include: ours 2.9x upstream (target 3x) and 0.95x the floor (target 0.9x)
            runs.push(run('rest-list-include', 'ours', round, 290), run('rest-list-include', 'upstream', round, 100), run('rest-list-include', 'floor', round, 290 / 0.95));
            // RPC create: ours 1.01x upstream, 0.85x the floor
            runs.push(run('rpc-create', 'ours', round, 101), run('rpc-create', 'upstream', round, 100), run('rpc-create', 'floor', round, 101 / 0.85));
            // 1,000 rows: ours 12x upstream; peak RSS ours over upstream's in the median
            runs.push(
                run('rest-list-1000', 'ours', round, 120, { peakRss: 300 }),
                run('rest-list-1000', 'upstream', round, 10, { peakRss: 250 }),
                run('rest-list-1000', 'floor', round, 40, { peakRss: 260 }),
            );
        }
        // one slow round of ours on the list with include moves the spread, not the median
        runs[0] = run('rest-list-include', 'ours', 1, 200);
        const summaries = summarize(scenarios, ['ours', 'upstream', 'floor'], runs);
        expect(summaries[0].vs.upstream?.ratio).toBeCloseTo(2.9);
        expect(summaries[0].vs.upstream?.range?.[0]).toBeCloseTo(2.0);
        expect(summaries[0].vs.upstream?.cpu).toBeCloseTo(2.9);
        const lines = targetLines(summaries);
        expect(lines[0]).toMatch(/^- rest-list-include: ours\/floor 0\.95x \(target ≥ 0\.90x: met, rounds 0\.66–0\.95\); ours\/upstream 2\.90x \(target ≥ 3\.00x: \*\*missed\*\*/);
        expect(lines[1]).toMatch(/ours\/floor 0\.85x \(target ≥ 0\.90x: \*\*missed\*\*.*ours\/upstream 1\.01x \(target ≥ 1\.00x: met/);
        expect(lines[2]).toContain('ours/upstream 12.00x (target ≥ 3.00x: met');
        expect(lines[2]).toContain('peak RSS 300 vs 250 MiB (target ≤ upstream: **missed**)');
    });
});
