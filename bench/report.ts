import { OURS_CALLS_FLOOR, type Impl } from './config';
import type { LoadResult } from './load';
import type { Scenario } from './scenarios';

/** Turns the raw runs into the per-scenario summary and the markdown tables. */

export interface Run extends LoadResult {
    scenario: string;
    impl: Impl;
    round: number;
    /** Peak RSS during the measured load (1,000-row scenarios), MiB. */
    peakRss?: number;
}

export interface ImplSummary {
    reqPerSec: number;
    cpuMs: number;
    p99: number;
    wrongStatus: number;
    errors: number;
    peakRss?: number;
}

/** Ours against another implementation on one scenario. */
export interface Versus {
    /** ours ÷ it, median req/s. */
    ratio: number;
    /** Lowest and highest ratio of one round (the implementations of a round run one after the other). */
    range?: [number, number];
    /** Server CPU per request: its ÷ ours (above 1 = ours uses less). */
    cpu?: number;
}

export interface ScenarioSummary {
    scenario: Scenario;
    byImpl: Partial<Record<Impl, ImplSummary>>;
    /** Ours against each other implementation measured on the scenario. */
    vs: Partial<Record<Impl, Versus>>;
}

export function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function geomean(values: number[]): number | undefined {
    if (values.length === 0) return undefined;
    return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

/** ours ÷ other in req/s, round by round: the lowest and the highest. */
function roundRange(runs: Run[], other: Impl): [number, number] | undefined {
    const ratios: number[] = [];
    for (const r of runs) {
        if (r.impl !== 'ours') continue;
        const o = runs.find((x) => x.impl === other && x.round === r.round);
        if (o && o.reqPerSec > 0) ratios.push(r.reqPerSec / o.reqPerSec);
    }
    return ratios.length ? [Math.min(...ratios), Math.max(...ratios)] : undefined;
}

export function summarize(scenarios: Scenario[], impls: Impl[], runs: Run[]): ScenarioSummary[] {
    return scenarios.map((scenario) => {
        const byImpl: ScenarioSummary['byImpl'] = {};
        for (const impl of impls) {
            const mine = runs.filter((r) => r.scenario === scenario.name && r.impl === impl);
            if (mine.length === 0) continue;
            const rss = mine.map((r) => r.peakRss).filter((v): v is number => v !== undefined);
            byImpl[impl] = {
                reqPerSec: median(mine.map((r) => r.reqPerSec)),
                cpuMs: median(mine.map((r) => r.cpuMsPerRequest).filter((v) => Number.isFinite(v))),
                p99: median(mine.map((r) => r.p99)),
                wrongStatus: mine.reduce((sum, r) => sum + r.wrongStatus, 0),
                errors: mine.reduce((sum, r) => sum + r.errors, 0),
                peakRss: rss.length ? median(rss) : undefined,
            };
        }
        const ours = byImpl.ours;
        const mine = runs.filter((r) => r.scenario === scenario.name);
        const vs: ScenarioSummary['vs'] = {};
        for (const impl of impls) {
            const it = byImpl[impl];
            if (impl === 'ours' || !ours?.reqPerSec || !it) continue;
            vs[impl] = { ratio: ours.reqPerSec / it.reqPerSec, range: roundRange(mine, impl), cpu: ours.cpuMs ? it.cpuMs / ours.cpuMs : undefined };
        }
        return { scenario, byImpl, vs };
    });
}

const fmt = (v: number | undefined, digits = 0) => (v === undefined ? '–' : v.toFixed(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ','));
const ratio = (v: number | undefined) => (v === undefined ? '–' : `${v.toFixed(2)}x`);

export function throughputTable(summaries: ScenarioSummary[]): string {
    const lines = [
        '| Scenario | ours req/s | upstream req/s | floor req/s | ours/upstream | ours/floor | p99 ms ours / upstream / floor |',
        '|---|--:|--:|--:|--:|--:|--:|',
    ];
    for (const s of summaries) {
        const b = s.byImpl;
        lines.push(
            `| ${s.scenario.title} | ${fmt(b.ours?.reqPerSec)} | ${fmt(b.upstream?.reqPerSec)} | ${fmt(b.floor?.reqPerSec)} | ` +
                `${ratio(s.vs.upstream?.ratio)} | ${ratio(s.vs.floor?.ratio)} | ${fmt(b.ours?.p99)} / ${fmt(b.upstream?.p99)} / ${fmt(b.floor?.p99)} |`,
        );
    }
    const gmUp = geomean(summaries.map((s) => s.vs.upstream?.ratio).filter((v): v is number => v !== undefined));
    const gmFloor = geomean(summaries.map((s) => s.vs.floor?.ratio).filter((v): v is number => v !== undefined));
    lines.push(`| **geometric mean** | | | | **${ratio(gmUp)}** | **${ratio(gmFloor)}** | |`);
    return lines.join('\n');
}

export function cpuTable(summaries: ScenarioSummary[]): string {
    const lines = [
        '| Scenario | ours | upstream | floor | upstream ÷ ours | floor ÷ ours |',
        '|---|--:|--:|--:|--:|--:|',
    ];
    for (const s of summaries) {
        const b = s.byImpl;
        lines.push(
            `| ${s.scenario.title} | ${fmt(b.ours?.cpuMs, 2)} | ${fmt(b.upstream?.cpuMs, 2)} | ${fmt(b.floor?.cpuMs, 2)} | ` +
                `${ratio(s.vs.upstream?.cpu)} | ${ratio(s.vs.floor?.cpu)} |`,
        );
    }
    const gmUp = geomean(summaries.map((s) => s.vs.upstream?.cpu).filter((v): v is number => v !== undefined));
    const gmFloor = geomean(summaries.map((s) => s.vs.floor?.cpu).filter((v): v is number => v !== undefined));
    lines.push(`| **geometric mean** | | | | **${ratio(gmUp)}** | **${ratio(gmFloor)}** |`);
    return lines.join('\n');
}

export function rssTable(summaries: ScenarioSummary[]): string | undefined {
    const large = summaries.filter((s) => s.scenario.large);
    if (large.length === 0) return undefined;
    const lines = ['| Scenario | ours peak RSS | upstream peak RSS | floor peak RSS |', '|---|--:|--:|--:|'];
    for (const s of large) {
        const mib = (impl: Impl) => (s.byImpl[impl]?.peakRss === undefined ? '–' : `${fmt(s.byImpl[impl]?.peakRss)} MiB`);
        lines.push(`| ${s.scenario.title} | ${mib('ours')} | ${mib('upstream')} | ${mib('floor')} |`);
    }
    return lines.join('\n');
}

/** Ours against the floor that makes our ORM calls, where it was measured (undefined when nowhere). */
export function oursCallsFloorTable(summaries: ScenarioSummary[]): string | undefined {
    const measured = summaries.filter((s) => s.vs[OURS_CALLS_FLOOR] !== undefined);
    if (measured.length === 0) return undefined;
    const lines = [
        '| Scenario | ours req/s | floor with our calls req/s | ours ÷ it (rounds) | CPU ms ours / it | its CPU ÷ ours |',
        '|---|--:|--:|--:|--:|--:|',
    ];
    for (const s of measured) {
        const it = s.byImpl[OURS_CALLS_FLOOR];
        const vs = s.vs[OURS_CALLS_FLOOR];
        const r = vs?.range;
        lines.push(
            `| ${s.scenario.title} | ${fmt(s.byImpl.ours?.reqPerSec)} | ${fmt(it?.reqPerSec)} | ` +
                `${ratio(vs?.ratio)}${r ? ` (${r[0].toFixed(2)}–${r[1].toFixed(2)})` : ''} | ` +
                `${fmt(s.byImpl.ours?.cpuMs, 2)} / ${fmt(it?.cpuMs, 2)} | ${ratio(vs?.cpu)} |`,
        );
    }
    return lines.join('\n');
}

/** The issue's targets for our handlers, checked against this run (information, not a gate). */
const SPECIAL_TARGETS: Record<string, number> = {
    'rest-list-include': 3,
    'rest-filter-sort-page': 2,
    'rpc-findMany': 1.3,
    'rest-list-1000': 3,
};

export function targetLines(summaries: ScenarioSummary[]): string[] {
    const lines: string[] = [];
    const mark = (ok: boolean) => (ok ? 'met' : '**missed**');
    for (const s of summaries) {
        const { floor, upstream: up } = s.vs;
        const oursCalls = s.vs[OURS_CALLS_FLOOR];
        if (!floor || !up) continue;
        const upTarget = SPECIAL_TARGETS[s.scenario.name] ?? 1;
        const range = (r: [number, number] | undefined) => (r ? `, rounds ${r[0].toFixed(2)}–${r[1].toFixed(2)}` : '');
        const parts = [
            `ours/floor ${ratio(floor.ratio)} (target ≥ 0.90x: ${mark(floor.ratio >= 0.9)}${range(floor.range)})`,
            `ours/upstream ${ratio(up.ratio)} (target ≥ ${upTarget.toFixed(2)}x: ${mark(up.ratio >= upTarget)}${range(up.range)})`,
        ];
        if (oursCalls) {
            parts.push(`for information, ours ÷ the floor making our ORM calls ${ratio(oursCalls.ratio)}${range(oursCalls.range)}`);
        }
        const ours = s.byImpl.ours?.peakRss;
        const upstream = s.byImpl.upstream?.peakRss;
        if (s.scenario.large && ours !== undefined && upstream !== undefined) {
            parts.push(`peak RSS ${fmt(ours)} vs ${fmt(upstream)} MiB (target ≤ upstream: ${mark(ours <= upstream)})`);
        }
        lines.push(`- ${s.scenario.name}: ${parts.join('; ')}`);
    }
    return lines;
}

/** Problems that make the run invalid: answers with the wrong status, connection errors, or no answers at all. */
export function statusFailures(runs: Run[]): string[] {
    return runs
        .filter((r) => r.wrongStatus > 0 || r.errors > 0 || r.completed === 0)
        .map((r) =>
            r.completed === 0
                ? `${r.impl} ${r.scenario} round ${r.round}: no answer completed within the run (raise BENCH_DURATION)`
                : `${r.impl} ${r.scenario} round ${r.round}: ${r.wrongStatus} answer(s) with the wrong status, ` +
                  `${r.errors} error(s)/timeout(s); statuses ${JSON.stringify(r.statusCounts)}`,
        );
}
