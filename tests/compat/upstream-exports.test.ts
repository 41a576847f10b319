import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT, TS_REGISTER } from '../support/generate';
import type { ExportKinds } from './support/export-kinds';

/**
 * "Only the import path changes": every module path `@zenstackhq/server` 2.22.3 publishes has a
 * `zenstack-api` counterpart under the same subpath, and each value 2.x exports from it is exported by
 * ours under the same name and of the same kind (a function stays a function), and every name its type
 * declarations export (types too) is exported by ours, so `require`s and named imports written for 2.x
 * resolve and type-check. (Option types are compared by `tsc` in `upstream-options.ts`.)
 * Ours is read from the source file its published entry is built from (`dist/x.js` ← `src/x.ts`). The
 * values of both are loaded by a plain Node process, which can require Nest's ES modules where jest cannot.
 */

type ExportMap = Record<string, string | { types?: string; default?: string }>;

const readExports = (file: string): ExportMap => (JSON.parse(fs.readFileSync(file, 'utf8')) as { exports: ExportMap }).exports;

const upstreamRoot = path.dirname(require.resolve('@zenstackhq/server/package.json'));
const upstream = readExports(path.join(upstreamRoot, 'package.json'));
const ours = readExports(path.join(PROJECT_ROOT, 'package.json'));

/** The subpaths 2.x publishes a module at (not its package.json). */
const SUBPATHS = Object.keys(upstream).filter((subpath) => !subpath.endsWith('.json'));

/** The source file our published entry for `subpath` is compiled from, or undefined when it names none. */
function ourSource(subpath: string): string | undefined {
    const entry = ours[subpath];
    const target = typeof entry === 'string' ? entry : entry?.default;
    if (!target?.startsWith('./dist/') || !target.endsWith('.js')) return undefined;
    return path.join(PROJECT_ROOT, 'src', `${target.slice('./dist/'.length, -'.js'.length)}.ts`);
}

const upstreamId = (subpath: string) => `@zenstackhq/server${subpath.slice(1)}`;

/** The declaration file of 2.x's module at `subpath`. */
function upstreamDeclarations(subpath: string): string {
    const entry = upstream[subpath];
    const target = typeof entry === 'string' ? entry : entry.default!;
    return path.join(upstreamRoot, target.replace(/\.js$/, '.d.ts'));
}

let loaded: Record<string, ExportKinds>;
let declared: (file: string) => string[];

beforeAll(() => {
    const ids = SUBPATHS.flatMap((subpath) => [upstreamId(subpath), ourSource(subpath)].filter((id): id is string => id !== undefined));
    const child = spawnSync(process.execPath, ['-r', TS_REGISTER, path.join(__dirname, 'support', 'export-kinds.ts'), ...ids], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`loading the modules failed (${child.status}):\n${child.stderr}`);
    loaded = JSON.parse(child.stdout) as Record<string, ExportKinds>;

    // the names each module's declarations export, values and types alike, as the TypeScript compiler sees them
    const files = SUBPATHS.flatMap((subpath) => [upstreamDeclarations(subpath), ourSource(subpath)!]);
    const program = ts.createProgram(files, { skipLibCheck: true, noEmit: true, experimentalDecorators: true, esModuleInterop: true });
    const checker = program.getTypeChecker();
    declared = (file) => {
        const source = program.getSourceFile(file);
        const symbol = source && checker.getSymbolAtLocation(source);
        if (!symbol) throw new Error(`${file} is not a module the compiler read`);
        return checker.getExportsOfModule(symbol).map((exported) => exported.getName());
    };
});

/** What `id` exports; a module that fails to load fails the test with its error. */
function exportsOf(id: string): Record<string, string> {
    const result = loaded[id];
    if (!result || 'error' in result) throw new Error(`${id} did not load: ${result ? result.error : 'not asked for'}`);
    return result.exports;
}

describe('every module path of @zenstackhq/server 2.22.3 exists in zenstack-api', () => {
    it('publishes the module paths 2.x publishes', () => {
        // a guard on the comparison itself: 2.x's handlers and adapters are all there to compare
        expect(SUBPATHS).toEqual(expect.arrayContaining(['./api', './api/rest', './api/rpc', './express', './fastify', './next', './nestjs', './types']));
        expect(SUBPATHS.filter((subpath) => !(subpath in ours))).toEqual([]);
    });

    describe.each(SUBPATHS)('%s', (subpath) => {
        it('has a published entry with types beside it, built from a source file that exists', () => {
            const entry = ours[subpath];
            expect(typeof entry).toBe('object');
            const { types, default: main } = entry as { types?: string; default?: string };
            expect(types?.replace(/\.d\.ts$/, '')).toBe(main?.replace(/\.js$/, ''));
            const source = ourSource(subpath);
            expect(source).toBeDefined();
            expect(fs.existsSync(source!)).toBe(true);
        });

        it('exports every value 2.x exports from it, of the same kind', () => {
            const theirs = exportsOf(upstreamId(subpath));
            const mine = exportsOf(ourSource(subpath)!);
            // the comparison is not vacuous: every 2.x module but the type-only one exports values
            if (subpath !== './types') expect(Object.keys(theirs).length).toBeGreaterThan(0);
            const different = Object.entries(theirs)
                .filter(([name, kind]) => mine[name] !== kind)
                .map(([name, kind]) => `${name}: ${kind} in 2.x, ${mine[name] ?? 'absent'} here`);
            expect(different).toEqual([]);
        });

        it('exports every name 2.x declares there, types included', () => {
            const theirs = declared(upstreamDeclarations(subpath));
            const mine = new Set(declared(ourSource(subpath)!));
            expect(theirs.length).toBeGreaterThan(0);
            expect(theirs.filter((name) => !mine.has(name))).toEqual([]);
        });
    });
});
