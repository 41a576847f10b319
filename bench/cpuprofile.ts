/**
 * A tiny summarizer for V8 `.cpuprofile` files (what `node --cpu-prof` writes): self time per
 * function and per area (our code, upstream, ZenStack runtime, Prisma, driver, node, GC).
 */

export interface CpuProfile {
    nodes: {
        id: number;
        callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    }[];
    samples: number[];
    timeDeltas: number[];
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
    areas: { area: string; selfMs: number; share: number }[];
}

/** Where a frame's code comes from, first match wins. */
const AREAS: [RegExp, string][] = [
    [/zenstack-api-bench\/dist\//, 'ours (zenstack-api)'],
    [/\/src\/api\//, 'ours (zenstack-api)'],
    [/@zenstackhq\/server\//, 'upstream (@zenstackhq/server)'],
    [/zenstack-api-bench\/server\//, 'bench server (shared by all three)'],
    [/@zenstackhq\/runtime\/|\/zenstack\/(enhance|policy|model-meta)/, 'ZenStack runtime (policy)'],
    [/prisma-client\/|@prisma\/client\//, 'Prisma client (query compiler, result mapping)'],
    [/@prisma\/adapter-|@prisma\/driver-adapter|better-sqlite3/, 'SQLite driver + adapter'],
    [/node_modules\/superjson\//, 'superjson'],
    [/node_modules\/zod\//, 'zod'],
    [/node_modules\/decimal\.js\//, 'decimal.js'],
    [/node_modules\/autocannon\//, 'autocannon'],
];

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
    if (url.startsWith('node:') || url === '' || !url.includes('/')) return 'node internals';
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
              : clean.replace(/^.*?\/(bench|src)\//, '$1/');
    return `${rel}:${line + 1}`;
}

export function summarizeProfile(profile: CpuProfile, top = 25): ProfileSummary {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const selfUs = new Map<number, number>();
    // sample i lasts until sample i+1
    for (let i = 0; i < profile.samples.length; i++) {
        const dt = profile.timeDeltas[i + 1] ?? 0;
        selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + Math.max(dt, 0));
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
        areas.set(area, (areas.get(area) ?? 0) + us);
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
        'self time by area:',
        ...summary.areas.map((a) => `  ${pct(a.share)}  ${a.area}`),
        '',
        `top ${summary.functions.length} functions by self time:`,
        ...summary.functions.map((f) => `  ${pct(f.share)}  ${f.name.padEnd(36)} ${f.location}  [${f.area}]`),
    ];
    return lines.join('\n');
}
