import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './built-dist';

/**
 * An application with `zenstack-api` installed from the tarball `npm pack` makes, as a user receives it. Its
 * `node_modules` holds the package (extracted) and links to this project's copies of what a user installs beside
 * it: the package's dependencies and peer dependencies (all of them, optional ones included) and the type packages
 * a TypeScript user adds (`@types/node`, `@types/express`). Nothing else: a module the package reaches for beyond
 * those (a development dependency) is not found, as it would not be in the user's application.
 */

export type Manifest = {
    name: string;
    main?: string;
    types?: string;
    exports: Record<string, string | Record<string, string>>;
    typesVersions?: Record<string, Record<string, string[]>>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

export type PackedFile = { path: string; size: number };

export type ConsumerApp = {
    /** The application's directory (its own `package.json`, no `"type"`: CommonJS). */
    dir: string;
    /** Where the package is installed: `<dir>/node_modules/zenstack-api`. */
    packageDir: string;
    manifest: Manifest;
    /** The tarball's files, as `npm pack --json` lists them. */
    files: PackedFile[];
    /** The tarball's size in bytes. */
    size: number;
    remove: () => void;
};

const TYPE_PACKAGES = ['@types/node', '@types/express'];

function link(nodeModules: string, name: string): void {
    const target = path.join(PROJECT_ROOT, 'node_modules', name);
    if (!fs.existsSync(target)) throw new Error(`${name} is not installed in this project`);
    const at = path.join(nodeModules, name);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(target, at, 'dir');
}

/** Packs the project (`dist/` must be built: `npm pack` runs with `--ignore-scripts`, so `prepack` does not build again). */
export function installPacked(): ConsumerApp {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zenstack-api-consumer-')));
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    const [packed] = JSON.parse(out) as { filename: string; size: number; files: PackedFile[] }[];
    const packageDir = path.join(dir, 'node_modules', 'zenstack-api');
    fs.mkdirSync(packageDir, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(dir, packed.filename), '-C', packageDir, '--strip-components=1']);
    const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as Manifest;
    const provided = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), ...TYPE_PACKAGES];
    for (const name of provided) link(path.join(dir, 'node_modules'), name);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer-app', private: true }));
    return { dir, packageDir, manifest, files: packed.files, size: packed.size, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Links one more of this project's packages into the application, as one of its own dependencies. */
export function linkIntoApp(app: ConsumerApp, name: string): void {
    if (!fs.existsSync(path.join(app.dir, 'node_modules', name))) link(path.join(app.dir, 'node_modules'), name);
}

/** The module paths the package publishes (`.`, `./api` …), without `./package.json`. */
export const subpaths = (manifest: Manifest): string[] => Object.keys(manifest.exports).filter((subpath) => !subpath.endsWith('.json'));

/** The specifier an application imports a subpath by: `./api` → `zenstack-api/api`. */
export const specifier = (name: string, subpath: string): string => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`);

/** The file an `exports` entry resolves to under `condition` (`types` or `default`). */
export function exportTarget(manifest: Manifest, subpath: string, condition: 'types' | 'default'): string | undefined {
    const entry = manifest.exports[subpath];
    if (typeof entry === 'string') return condition === 'default' ? entry : undefined;
    return entry?.[condition];
}
