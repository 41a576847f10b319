import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `dist/` as `npm run build` leaves it, built here when it is missing or older than its sources. CI (`.ci/run`)
 * builds before `npm test`, so there the test reuses it; locally an edit under `src/` is picked up without a
 * manual build.
 */

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const SRC = path.join(PROJECT_ROOT, 'src');
const DIST = path.join(PROJECT_ROOT, 'dist');
/** What `tsconfig.build.json` leaves out of the build (the demo server). */
const NOT_BUILT = [path.join(SRC, 'server')];

function filesUnder(dir: string): string[] {
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** The files the build writes for the sources it compiles (`src/a/b.ts` → `dist/a/b.js`, `dist/a/b.d.ts`). */
export function expectedOutputs(): string[] {
    const sources = filesUnder(SRC).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !NOT_BUILT.some((dir) => file.startsWith(dir + path.sep)));
    return sources.flatMap((file) => {
        const base = path.join(DIST, path.relative(SRC, file)).slice(0, -'.ts'.length);
        return [`${base}.js`, `${base}.d.ts`];
    });
}

/** Why `dist/` is not what a build of the current sources writes, or undefined when it is. */
export function staleReason(): string | undefined {
    const expected = expectedOutputs();
    const present = new Set(filesUnder(DIST));
    const missing = expected.find((file) => !present.has(file));
    if (missing) return `${path.relative(PROJECT_ROOT, missing)} is missing`;
    const extra = [...present].find((file) => !expected.includes(file));
    if (extra) return `${path.relative(PROJECT_ROOT, extra)} has no source`;
    const inputs = [...filesUnder(SRC), path.join(PROJECT_ROOT, 'tsconfig.json'), path.join(PROJECT_ROOT, 'tsconfig.build.json')];
    const newestInput = Math.max(...inputs.map((file) => fs.statSync(file).mtimeMs));
    const oldest = expected.reduce((a, b) => (fs.statSync(a).mtimeMs <= fs.statSync(b).mtimeMs ? a : b));
    if (fs.statSync(oldest).mtimeMs < newestInput) return `${path.relative(PROJECT_ROOT, oldest)} is older than a source`;
    return undefined;
}

/** Runs `npm run build` unless `dist/` is fresh; returns what made it rebuild, if anything. */
export function ensureBuilt(): string | undefined {
    const reason = staleReason();
    if (reason) execFileSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
    return reason;
}
