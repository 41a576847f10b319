/**
 * A tiny summarizer for V8 `.cpuprofile` files (what `node --cpu-prof` writes): self time per
 * function and per area (our code, upstream, ZenStack runtime, Prisma, driver, node, GC).
 */

export interface CpuProfile {
    nodes: {
        id: number;
        callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
        children?: number[];
    }[];
    /** µs on the monotonic clock (`process.hrtime`). */
    startTime: number;
    samples: number[];
    timeDeltas: number[];
}

/** Only samples taken in [from, to] (µs, monotonic clock) count; default: the whole profile. */
export interface Window {
    from?: number;
    to?: number;
}

export interface FunctionTime {
    name: string;
    location: string;
    area: string;
    selfMs: number;
    /** Share of busy (non-idle) time. */
    share: number;
}

export interface ProfileSummary {
    busyMs: number;
    idleMs: number;
    functions: FunctionTime[];
    /** Self time per area, built-ins and node internals charged to the code that called them. */
    areas: { area: string; selfMs: number; share: number }[];
}

/** Where a frame's code comes from, first match wins. */
const AREAS: [RegExp, string][] = [
    [/zenstack-api-bench\/dist\//, 'ours (zenstack-api)'],
    [/\/src\/api\//, 'ours (zenstack-api)'],
    [/@zenstackhq\/server\//, 'upstream (@zenstackhq/server)'],
    [/zenstack-api-bench\/server\//, 'bench server (HTTP, JSON.stringify of the answer)'],
    [/@zenstackhq\/runtime\/|\/zenstack\/(enhance|policy|model-meta)/, 'ZenStack runtime (policy)'],
    [/prisma-client\/|@prisma\/client\//, 'Prisma client (query compiler, result mapping)'],
    [/@prisma\/adapter-|@prisma\/driver-adapter|better-sqlite3/, 'SQLite driver + adapter'],
    [/node_modules\/superjson\//, 'superjson'],
    [/node_modules\/zod\//, 'zod'],
    [/node_modules\/decimal\.js\//, 'decimal.js'],
    [/node_modules\/autocannon\//, 'autocannon'],
    [/^wasm:/, 'Prisma client (query compiler, result mapping)'],
];

/** Areas whose time is charged to their caller in the per-area table. */
const BUILTIN = 'built-ins (JSON, RegExp, Promise, native)';
const NODE = 'node internals (http, streams, timers)';
const CHARGED_TO_CALLER = new Set([BUILTIN, NODE]);

const SPECIAL: Record<string, string> = {
    '(garbage collector)': 'garbage collector',
    '(program)': 'native / V8 (program)',
    '(idle)': 'idle',
    '(root)': 'native / V8 (program)',
};

export function areaOf(url: string, functionName: string): string {
    if (SPECIAL[functionName]) return SPECIAL[functionName];
    for (const [pattern, area] of AREAS) if (pattern.test(url)) return area;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return pkg[1];
    if (url === '') return BUILTIN;
    if (url.startsWith('node:') || !url.includes('/')) return NODE;
    return 'other';
}

function shortLocation(url: string, line: number): string {
    if (!url) return '';
    const clean = url.replace(/^file:\/\//, '');
    const build = clean.indexOf('zenstack-api-bench/');
    const nm = clean.lastIndexOf('node_modules/');
    const rel =
        build >= 0
            ? clean.slice(build + 'zenstack-api-bench/'.length)
            : nm >= 0
              ? clean.slice(nm + 'node_modules/'.length)
              : clean.replace(/^.*\/\.zenstack-test\/[^/]+\//, 'generated/').replace(/^.*?\/(bench|src)\//, '$1/');
    return `${rel}:${line + 1}`;
}

export function summarizeProfile(profile: CpuProfile, top = 25, window: Window = {}): ProfileSummary {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const areaOfNode = (id: number) => {
        const frame = byId.get(id)?.callFrame;
        return frame ? areaOf(frame.url, frame.functionName) : 'other';
    };
    // built-ins and node internals are charged to the nearest caller from a known area
    const owner = new Map<number, string>();
    const ownerOf = (id: number): string => {
        const known = owner.get(id);
        if (known !== undefined) return known;
        const own = areaOfNode(id);
        const up = parent.get(id);
        const result = CHARGED_TO_CALLER.has(own) && up !== undefined && byId.get(up)?.callFrame.functionName !== '(root)' ? ownerOf(up) : own;
        owner.set(id, result);
        return result;
    };

    const selfUs = new Map<number, number>();
    const from = window.from ?? -Infinity;
    const to = window.to ?? Infinity;
    // sample i is taken at startTime + Σ timeDeltas[0..i] and lasts until sample i+1
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
        at += profile.timeDeltas[i] ?? 0;
        if (at < from || at > to) continue;
        const dt = Math.max(profile.timeDeltas[i + 1] ?? 0, 0);
        selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
    }
    const functions = new Map<string, FunctionTime>();
    const areas = new Map<string, number>();
    let idleUs = 0;
    let busyUs = 0;
    for (const [id, us] of selfUs) {
        const frame = byId.get(id)?.callFrame;
        if (!frame) continue;
        const area = areaOf(frame.url, frame.functionName);
        if (area === 'idle') {
            idleUs += us;
            continue;
        }
        busyUs += us;
        const charged = ownerOf(id);
        areas.set(charged, (areas.get(charged) ?? 0) + us);
        const name = frame.functionName || '(anonymous)';
        const location = shortLocation(frame.url, frame.lineNumber);
        const key = `${name}@${location}`;
        const entry = functions.get(key) ?? { name, location, area, selfMs: 0, share: 0 };
        entry.selfMs += us / 1000;
        functions.set(key, entry);
    }
    const share = (us: number) => (busyUs ? us / busyUs : 0);
    return {
        busyMs: busyUs / 1000,
        idleMs: idleUs / 1000,
        functions: [...functions.values()]
            .map((f) => ({ ...f, share: share(f.selfMs * 1000) }))
            .sort((a, b) => b.selfMs - a.selfMs)
            .slice(0, top),
        areas: [...areas.entries()]
            .map(([area, us]) => ({ area, selfMs: us / 1000, share: share(us) }))
            .sort((a, b) => b.selfMs - a.selfMs),
    };
}

const pct = (v: number) => `${(v * 100).toFixed(1).padStart(5)}%`;

export function formatSummary(title: string, summary: ProfileSummary): string {
    const lines = [
        title,
        `busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms (shares below are of busy time)`,
        '',
        'self time by area (built-ins and node internals charged to their caller):',
        ...summary.areas.map((a) => `  ${pct(a.share)}  ${a.area}`),
        '',
        `top ${summary.functions.length} functions by self time:`,
        ...summary.functions.map((f) => `  ${pct(f.share)}  ${f.name.padEnd(36)} ${f.location}  [${f.area}]`),
    ];
    return lines.join('\n');
}
