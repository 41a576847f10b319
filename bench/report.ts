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

export interface ScenarioSummary {
    scenario: Scenario;
    byImpl: Partial<Record<Impl, ImplSummary>>;
    oursVsUpstream?: number;
    oursVsFloor?: number;
    /** Lowest and highest ratio of one round (the implementations of a round run one after the other). */
    oursVsUpstreamRange?: [number, number];
    oursVsFloorRange?: [number, number];
    /** Server CPU per request: upstream's ÷ ours and floor's ÷ ours (above 1 = ours uses less). */
    cpuUpstreamOverOurs?: number;
    cpuFloorOverOurs?: number;
    /** Against the floor that makes our ORM calls (scenarios marked `oursCallsFloor`): req/s ratio, its rounds, CPU ratio. */
    oursVsOursCallsFloor?: number;
    oursVsOursCallsFloorRange?: [number, number];
    cpuOursCallsFloorOverOurs?: number;
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
        const ours = byImpl.ours?.reqPerSec;
        const oursCpu = byImpl.ours?.cpuMs;
        const mine = runs.filter((r) => r.scenario === scenario.name);
        const oursCalls = byImpl[OURS_CALLS_FLOOR];
        return {
            scenario,
            byImpl,
            oursVsUpstream: ours && byImpl.upstream ? ours / byImpl.upstream.reqPerSec : undefined,
            oursVsFloor: ours && byImpl.floor ? ours / byImpl.floor.reqPerSec : undefined,
            oursVsUpstreamRange: roundRange(mine, 'upstream'),
            oursVsFloorRange: roundRange(mine, 'floor'),
            cpuUpstreamOverOurs: oursCpu && byImpl.upstream ? byImpl.upstream.cpuMs / oursCpu : undefined,
            cpuFloorOverOurs: oursCpu && byImpl.floor ? byImpl.floor.cpuMs / oursCpu : undefined,
            oursVsOursCallsFloor: ours && oursCalls ? ours / oursCalls.reqPerSec : undefined,
            oursVsOursCallsFloorRange: roundRange(mine, OURS_CALLS_FLOOR),
            cpuOursCallsFloorOverOurs: oursCpu && oursCalls ? oursCalls.cpuMs / oursCpu : undefined,
        };
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
                `${ratio(s.oursVsUpstream)} | ${ratio(s.oursVsFloor)} | ${fmt(b.ours?.p99)} / ${fmt(b.upstream?.p99)} / ${fmt(b.floor?.p99)} |`,
        );
    }
    const gmUp = geomean(summaries.map((s) => s.oursVsUpstream).filter((v): v is number => v !== undefined));
    const gmFloor = geomean(summaries.map((s) => s.oursVsFloor).filter((v): v is number => v !== undefined));
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
                `${ratio(s.cpuUpstreamOverOurs)} | ${ratio(s.cpuFloorOverOurs)} |`,
        );
    }
    const gmUp = geomean(summaries.map((s) => s.cpuUpstreamOverOurs).filter((v): v is number => v !== undefined));
    const gmFloor = geomean(summaries.map((s) => s.cpuFloorOverOurs).filter((v): v is number => v !== undefined));
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
    const measured = summaries.filter((s) => s.oursVsOursCallsFloor !== undefined);
    if (measured.length === 0) return undefined;
    const lines = [
        '| Scenario | ours req/s | floor with our calls req/s | ours ÷ it (rounds) | CPU ms ours / it | its CPU ÷ ours |',
        '|---|--:|--:|--:|--:|--:|',
    ];
    for (const s of measured) {
        const it = s.byImpl[OURS_CALLS_FLOOR];
        const r = s.oursVsOursCallsFloorRange;
        lines.push(
            `| ${s.scenario.title} | ${fmt(s.byImpl.ours?.reqPerSec)} | ${fmt(it?.reqPerSec)} | ` +
                `${ratio(s.oursVsOursCallsFloor)}${r ? ` (${r[0].toFixed(2)}–${r[1].toFixed(2)})` : ''} | ` +
                `${fmt(s.byImpl.ours?.cpuMs, 2)} / ${fmt(it?.cpuMs, 2)} | ${ratio(s.cpuOursCallsFloorOverOurs)} |`,
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
        if (s.oursVsFloor === undefined || s.oursVsUpstream === undefined) continue;
        const upTarget = SPECIAL_TARGETS[s.scenario.name] ?? 1;
        const range = (r: [number, number] | undefined) => (r ? `, rounds ${r[0].toFixed(2)}–${r[1].toFixed(2)}` : '');
        const parts = [
            `ours/floor ${ratio(s.oursVsFloor)} (target ≥ 0.90x: ${mark(s.oursVsFloor >= 0.9)}${range(s.oursVsFloorRange)})`,
            `ours/upstream ${ratio(s.oursVsUpstream)} (target ≥ ${upTarget.toFixed(2)}x: ${mark(s.oursVsUpstream >= upTarget)}${range(s.oursVsUpstreamRange)})`,
        ];
        if (s.oursVsOursCallsFloor !== undefined) {
            parts.push(`for information, ours ÷ the floor making our ORM calls ${ratio(s.oursVsOursCallsFloor)}${range(s.oursVsOursCallsFloorRange)}`);
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
