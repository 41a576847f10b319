import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, expectedOutputs, PROJECT_ROOT } from './support/built-dist';
import { exportTarget, installPacked, linkIntoApp, specifier, subpaths, type ConsumerApp } from './support/consumer-app';
import { setupDemoDb } from '../demo/support';
import { consumerSource, importedSpecifiers } from './support/consumer-source';
import { loadAll, namedImportsModule, runNode, type Loaded } from './support/load-probe';
import { packagesReached } from './support/module-graph';
import { serveRequests } from './support/request-probe';
import { TYPE_CHECK_MODES, typeCheck } from './support/type-check';

/**
 * The package as a user receives it: `npm run build`, `npm pack`, the tarball extracted into an application's
 * `node_modules` beside the package's dependencies and peers only (`support/consumer-app.ts`). Its files, the
 * entry points `package.json` names, the packages each module path needs, every module path loaded by `require`
 * and by native `import` (named imports included) next to `@zenstackhq/server` 2.22.3's, and a consumer file
 * type-checked under each `moduleResolution` a TypeScript application may use.
 */

/** The optional peer each module path may need beyond the dependencies and the required peers; the others need none. */
const FRAMEWORK_PEERS: Record<string, string[]> = {
    './express': ['express'],
    './fastify': ['fastify'],
    './next': ['next'],
    './next/app-route-handler': ['next'],
    './next/pages-route-handler': ['next'],
    './sveltekit': ['@sveltejs/kit'],
    './nuxt': ['h3'],
    './hono': ['hono'],
    './elysia': ['elysia'],
    './nestjs': ['@nestjs/common', '@nestjs/core'],
};

const upstreamManifest = JSON.parse(fs.readFileSync(require.resolve('@zenstackhq/server/package.json'), 'utf8')) as { exports: Record<string, string> };
const UPSTREAM_SUBPATHS = Object.keys(upstreamManifest.exports).filter((subpath) => !subpath.endsWith('.json'));

let app: ConsumerApp;
beforeAll(() => {
    ensureBuilt();
    app = installPacked();
});
afterAll(() => app?.remove());

describe('the tarball', () => {
    it('holds the README, the licence, package.json, the documents the README links to and the compiled files of src/, nothing else', () => {
        const packed = app.files.map((file) => file.path).sort();
        const built = expectedOutputs().map((file) => path.relative(PROJECT_ROOT, file).split(path.sep).join('/'));
        const docs = fs.readdirSync(path.join(PROJECT_ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`);
        expect(packed).toEqual(['LICENSE', 'README.md', 'package.json', 'bench/RESULTS.md', ...docs, ...built].sort());
        const code = packed.filter((file) => !file.endsWith('.md'));
        expect(code.filter((file) => /(^|\/)(tests?|bench|__tests__)\/|\.test\.|\.map$|\.tsbuildinfo$|(^|\/)\.env|\.pem$|\.npmrc$/.test(file))).toEqual([]);
    });

    it('holds the file behind every relative link of its Markdown, so that the README read in node_modules has no dead link', () => {
        const packed = new Set(app.files.map((file) => file.path));
        const dead: string[] = [];
        for (const document of [...packed].filter((file) => file.endsWith('.md'))) {
            const text = fs.readFileSync(path.join(app.packageDir, document), 'utf8').replace(/```[\s\S]*?```/g, '');
            for (const [, target] of text.replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
                if (/^([a-z][a-z0-9+.-]*:|#)/i.test(target)) continue;
                const file = path.posix.normalize(path.posix.join(path.posix.dirname(document), target.split('#')[0]));
                if (!packed.has(file)) dead.push(`${document} → ${target}`);
            }
        }
        expect(dead).toEqual([]);
    });

    it('is of a sensible size', () => {
        expect(app.size).toBeLessThan(1024 * 1024);
        expect(app.files.reduce((sum, file) => sum + file.size, 0)).toBeLessThan(4 * 1024 * 1024);
    });
});

describe('npm pack (and so npm publish)', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

    it('builds dist/ first: a clean clone has none, and a tarball without it has nothing to load', () => {
        expect(scripts.prepack).toMatch(/^npm run build\b/);
    });

    it('builds into an empty dist/, so that files whose source is gone are not packed', () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zenstack-api-prebuild-'));
        try {
            fs.mkdirSync(path.join(dir, 'dist', 'gone'), { recursive: true });
            fs.writeFileSync(path.join(dir, 'dist', 'gone', 'index.js'), '');
            execFileSync('sh', ['-c', scripts.prebuild], { cwd: dir });
            expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});

describe('the entry points package.json names', () => {
    const exists = (target: string | undefined) => target !== undefined && fs.existsSync(path.join(app.packageDir, target));

    it('exist in the installed package: main, types, and each exports target', () => {
        const { manifest } = app;
        expect([manifest.main, manifest.types].filter((target) => !exists(target))).toEqual([]);
        const missing = subpaths(manifest).flatMap((subpath) =>
            (['types', 'default'] as const).filter((condition) => !exists(exportTarget(manifest, subpath, condition))).map((condition) => `${subpath} (${condition})`),
        );
        expect(missing).toEqual([]);
    });

    it('include every module path of @zenstackhq/server 2.22.3', () => {
        expect(UPSTREAM_SUBPATHS.filter((subpath) => !(subpath in app.manifest.exports))).toEqual([]);
    });

    it('give each module path the same declarations under typesVersions (moduleResolution node10) as under exports', () => {
        const mapped = app.manifest.typesVersions?.['*'] ?? {};
        const different = subpaths(app.manifest)
            .filter((subpath) => subpath !== '.')
            .filter((subpath) => `./${mapped[subpath.slice(2)]?.[0]}` !== exportTarget(app.manifest, subpath, 'types'));
        expect(different).toEqual([]);
    });
});

describe('the packages each module path needs', () => {
    const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {} } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    const required = [...Object.keys(dependencies), ...Object.keys(peerDependencies).filter((name) => !peerDependenciesMeta[name]?.optional)];

    it('are declared: each framework an optional peer dependency', () => {
        const frameworks = [...new Set(Object.values(FRAMEWORK_PEERS).flat())];
        expect(frameworks.filter((name) => !(name in peerDependencies) || !peerDependenciesMeta[name]?.optional)).toEqual([]);
    });

    it('are only the dependencies, the required peers and its own framework, at run time and in its types', () => {
        const outside = subpaths(app.manifest).flatMap((subpath) => {
            const allowed = new Set([...required, ...(FRAMEWORK_PEERS[subpath] ?? [])]);
            return (['default', 'types'] as const).flatMap((condition) =>
                [...packagesReached(path.join(app.packageDir, exportTarget(app.manifest, subpath, condition)!))]
                    .filter(([name]) => !allowed.has(name))
                    .map(([name, file]) => `${subpath}: ${path.relative(app.packageDir, file)} imports ${name}`),
            );
        });
        expect(outside).toEqual([]);
    });

    it('use every dependency (none is installed for nothing)', () => {
        const used = new Set(
            subpaths(app.manifest).flatMap((subpath) =>
                (['default', 'types'] as const).flatMap((condition) => [...packagesReached(path.join(app.packageDir, exportTarget(app.manifest, subpath, condition)!)).keys()]),
            ),
        );
        expect(Object.keys(dependencies).filter((name) => !used.has(name))).toEqual([]);
    });
});

describe('every module path, loaded by the application', () => {
    let ours: Record<string, Loaded>;
    let upstream: Record<string, Loaded>;

    beforeAll(() => {
        ours = loadAll(app.dir, subpaths(app.manifest).map((subpath) => specifier('zenstack-api', subpath)));
        // 2.22.3, from this project's node_modules (a development dependency here)
        const upstreamDir = path.join(app.dir, 'upstream');
        fs.mkdirSync(upstreamDir);
        fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(upstreamDir, 'node_modules'), 'dir');
        upstream = loadAll(upstreamDir, UPSTREAM_SUBPATHS.map((subpath) => specifier('@zenstackhq/server', subpath)));
    });

    const names = (loaded: Record<string, Loaded>, id: string): { cjs: string[]; esm: string[] } => {
        const result = loaded[id];
        if (!result || 'error' in result) throw new Error(`${id} did not load: ${result?.error ?? 'not asked for'}`);
        return result;
    };

    it('loads by require and by import, its ESM named exports those of its CommonJS module', () => {
        const wrong = subpaths(app.manifest).flatMap((subpath) => {
            const id = specifier('zenstack-api', subpath);
            const { cjs, esm } = names(ours, id);
            return cjs.filter((name) => !esm.includes(name)).map((name) => `${id}: ${name} is not a named export in ESM`);
        });
        expect(wrong).toEqual([]);
    });

    it.each(UPSTREAM_SUBPATHS)('%s exports what 2.22.3 exports there, to require and to import', (subpath) => {
        const theirs = names(upstream, specifier('@zenstackhq/server', subpath));
        const mine = names(ours, specifier('zenstack-api', subpath));
        expect(theirs.cjs.filter((name) => !mine.cjs.includes(name))).toEqual([]);
        expect(theirs.esm.filter((name) => !mine.esm.includes(name))).toEqual([]);
    });

    it('links an ES module with a named import of each of them', () => {
        const imports = Object.fromEntries(
            subpaths(app.manifest).map((subpath) => {
                const id = specifier('zenstack-api', subpath);
                return [id, names(ours, id).cjs];
            }),
        );
        // the names the documentation shows are among them
        expect(imports['zenstack-api/api']).toEqual(expect.arrayContaining(['RPCApiHandler', 'RestApiHandler']));
        expect(imports['zenstack-api/express']).toContain('ZenStackMiddleware');
        fs.writeFileSync(path.join(app.dir, 'named-imports.mjs'), namedImportsModule(imports));
        expect(() => runNode(app.dir, 'named-imports.mjs')).not.toThrow();
    });

    it('serves an RPC and a JSON:API request on a real database, finding the generated model metadata itself', async () => {
        // the application's own database packages, beside the installed package
        for (const name of ['@prisma/adapter-better-sqlite3', 'better-sqlite3']) linkIntoApp(app, name);
        const dbFile = path.join(app.dir, 'demo.db');
        expect((await setupDemoDb({ DEMO_DB: dbFile })).status).toBe(0);
        const { rpc, rest } = serveRequests(app.dir, dbFile);
        // the demo's user 1 reads the published posts and her own draft: 1, 2, 3 and 5
        expect(rpc).toEqual({ status: 200, body: { data: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 5 }] } });
        expect(rest.status).toBe(200);
        expect((rest.body.data as Array<{ type: string; id: number }>).map((r) => `${r.type}:${r.id}`)).toEqual(['post:1', 'post:2', 'post:3', 'post:5']);
    });
});

describe.each(TYPE_CHECK_MODES)('a TypeScript consumer, moduleResolution $name', (mode) => {
    it('type-checks against the installed declarations (skipLibCheck: false)', () => {
        const source = consumerSource({ nestjs: mode.nestjs });
        // the consumer covers every module path (but `nestjs` where the mode leaves it out)
        const covered = new Set(importedSpecifiers(source));
        const uncovered = subpaths(app.manifest)
            .map((subpath) => specifier('zenstack-api', subpath))
            .filter((id) => !covered.has(id) && (mode.nestjs || id !== 'zenstack-api/nestjs'));
        expect(uncovered).toEqual([]);
        expect(typeCheck(app.dir, app.packageDir, mode, source)).toEqual([]);
    });
});
