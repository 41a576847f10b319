import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Generates a ZModel into an isolated folder under `.zenstack-test/<hash>` (inside the project so
 * that the generated code resolves `@prisma/client` and `@zenstackhq/runtime` from our node_modules):
 * its own Prisma client, ZenStack output (transpiled to CommonJS) and the DDL script. Cached by the
 * hash of the schema text, provider and tool versions; safe when several jest workers race.
 */

export type Provider = 'sqlite' | 'postgresql';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');
const CACHE_ROOT = path.join(PROJECT_ROOT, '.zenstack-test');
const GENERATOR_VERSION = '2';

export interface GeneratedSchema {
    dir: string;
    provider: Provider;
    /** DDL that creates every table on an empty database. */
    ddl: string;
}

/** Removes datasource, generator and plugin blocks: the helper writes its own. */
export function stripConfigBlocks(zmodel: string): string {
    return zmodel.replace(/^\s*(datasource|generator|plugin)\s+\w+\s*\{[^}]*\}/gm, '');
}

/**
 * The config blocks of a test schema. `format = false` skips the `npx prisma format` ZenStack runs on the
 * Prisma schema it writes: one Prisma CLI start less per schema (about 3 of the 11 s a schema took on 2 cores;
 * a clean test run generates 47). The schema is read only by the tools, never by people.
 */
function header(dir: string, provider: Provider, previewFeatures: readonly string[]): string {
    const url = provider === 'sqlite' ? 'file:./unused.db' : 'postgresql://postgres@127.0.0.1:5432/unused';
    return `
datasource db {
  provider = "${provider}"
  url      = "${url}"
}

generator client {
  provider        = "prisma-client-js"
  engineType      = "client"
  previewFeatures = ${JSON.stringify(['driverAdapters', 'queryCompiler', ...previewFeatures])}
  output          = "${dir}/prisma-client"
}

plugin prisma {
  provider = '@core/prisma'
  output   = '${dir}/schema.prisma'
  format   = false
}

plugin zod {
  provider = '@core/zod'
}
`;
}

/**
 * Loaded when a schema is generated, not with this module: most test files find their schemas generated
 * already, and each test file loads its modules afresh (evaluating `typescript` took about 0.4 s per file).
 */
function typescript(): typeof import('typescript') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('typescript') as typeof import('typescript');
}

function transpileTree(dir: string, ts = typescript()): void {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            transpileTree(full, ts);
        } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
            const out = ts.transpileModule(fs.readFileSync(full, 'utf8'), {
                compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
                fileName: full,
            });
            fs.writeFileSync(full.replace(/\.ts$/, '.js'), out.outputText);
        }
    }
}

/**
 * A Prisma config naming this folder's schema. The CLI decides which engines it needs from the
 * schema its config names; with the project's config that is `prisma/schema.prisma`, which does not
 * exist before `npm run generate` (a fresh clone), and the CLI then tries to download a native
 * query engine (offline: ENOTFOUND). With this one it sees `engineType = "client"` and needs none.
 */
function writeCliConfig(workDir: string): string {
    const file = path.join(workDir, 'prisma.config.ts');
    fs.writeFileSync(
        file,
        [
            "import { defineConfig } from 'prisma/config';",
            "import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';",
            'export default defineConfig({',
            "    experimental: { adapter: true },",
            "    engine: 'js',",
            `    schema: ${JSON.stringify(path.join(workDir, 'schema.prisma'))},`,
            "    adapter: async () => new PrismaBetterSQLite3({ url: ':memory:' }),",
            '} as never);',
            '',
        ].join('\n'),
    );
    return file;
}

/**
 * A folder holding an `npx` that runs `npx prisma …` with the project's Prisma CLI directly, and anything else
 * with the real `npx`. ZenStack runs `npx prisma generate` through a shell for every schema; npm's own start
 * cost about 0.5 s of the 10-12 s a schema takes on 2 cores (a clean test run generates about 80). It lives in
 * the cache folder, written once (jest evaluates this module afresh for every test file).
 */
function npxShim(): string {
    const dir = path.join(CACHE_ROOT, 'npx-shim');
    const file = path.join(dir, 'npx');
    if (fs.existsSync(file)) return dir;
    const prismaCli = path.join(PROJECT_ROOT, 'node_modules/prisma/build/index.js');
    const realNpx = (process.env.PATH ?? '')
        .split(path.delimiter)
        .map((d) => path.join(d, 'npx'))
        .find((f) => fs.existsSync(f));
    const script = [
        '#!/bin/sh',
        `if [ "$1" = prisma ]; then shift; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(prismaCli)} "$@"; fi`,
        realNpx ? `exec ${JSON.stringify(realNpx)} "$@"` : 'echo "npx not found" >&2; exit 127',
        '',
    ].join('\n');
    fs.mkdirSync(dir, { recursive: true });
    // written whole under another name, then renamed: a worker racing this one never runs half a script
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, script, { mode: 0o755 });
    fs.renameSync(partial, file);
    return dir;
}

function run(args: string[]): string {
    return execFileSync(process.execPath, args, {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        // DATABASE_URL: the Prisma CLI opens prisma.config.ts's adapter; keep it off the demo's dev.db
        env: {
            ...process.env,
            PATH: `${npxShim()}${path.delimiter}${process.env.PATH ?? ''}`,
            ZENSTACK_DISABLE_TELEMETRY: '1',
            DO_NOT_TRACK: '1',
            CHECKPOINT_DISABLE: '1',
            DATABASE_URL: ':memory:',
        },
        maxBuffer: 64 * 1024 * 1024,
    });
}

/** The tools whose output is cached: upgrading one of them (`npm install` keeps `.zenstack-test`) regenerates. */
const TOOLS = ['zenstack', '@zenstackhq/runtime', 'prisma', '@prisma/client'];
let toolVersions: string | undefined;

function installedToolVersions(): string {
    toolVersions ??= TOOLS.map((name) => {
        const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
        return `${name}@${manifest.version}`;
    }).join(',');
    return toolVersions;
}

export function schemaHash(zmodel: string, provider: Provider, previewFeatures: readonly string[] = []): string {
    const extra = previewFeatures.length > 0 ? `preview:${[...previewFeatures].sort().join(',')}\n` : '';
    const key = `${GENERATOR_VERSION}\n${installedToolVersions()}\n${provider}\n${extra}${stripConfigBlocks(zmodel)}`;
    return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * Generates (or reuses) the artifacts of a schema for a provider; `previewFeatures` are added to the
 * generator's (e.g. `fullTextSearchPostgres`).
 */
export function generateSchema(zmodel: string, provider: Provider = 'sqlite', previewFeatures: readonly string[] = []): GeneratedSchema {
    const hash = schemaHash(zmodel, provider, previewFeatures);
    const finalDir = path.join(CACHE_ROOT, `${provider}-${hash}`);
    const ddlFile = path.join(finalDir, 'schema.sql');
    if (fs.existsSync(ddlFile)) {
        return { dir: finalDir, provider, ddl: fs.readFileSync(ddlFile, 'utf8') };
    }

    const workDir = path.join(CACHE_ROOT, `tmp-${hash}-${process.pid}-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(workDir, { recursive: true });
    // paths baked into the generated code must be the final ones: generate with the final dir name
    // in the schema, in a temporary folder, then move the folder into place
    const text = header(finalDir, provider, previewFeatures) + stripConfigBlocks(zmodel);
    const schemaFile = path.join(workDir, 'schema.zmodel');
    fs.writeFileSync(schemaFile, text.split(finalDir).join(workDir));
    try {
        run([
            path.join(PROJECT_ROOT, 'node_modules/zenstack/bin/cli'),
            'generate',
            '--schema',
            schemaFile,
            '--output',
            path.join(workDir, 'zenstack'),
            '--no-version-check',
            '--offline',
        ]);
    } catch (err) {
        const e = err as { stdout?: string; stderr?: string };
        throw new Error(`zenstack generate failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    const cliConfig = writeCliConfig(workDir);
    const ddl = run([
        path.join(PROJECT_ROOT, 'node_modules/prisma/build/index.js'),
        'migrate',
        'diff',
        '--config',
        cliConfig,
        '--from-empty',
        '--to-schema-datamodel',
        path.join(workDir, 'schema.prisma'),
        '--script',
    ]);
    fs.rmSync(cliConfig);
    // the generated sources import the client by absolute path: point them at the final folder
    for (const file of walk(path.join(workDir, 'zenstack'))) {
        const content = fs.readFileSync(file, 'utf8');
        if (content.includes(workDir)) {
            fs.writeFileSync(file, content.split(workDir).join(finalDir));
        }
    }
    transpileTree(path.join(workDir, 'zenstack'));
    fs.writeFileSync(path.join(workDir, 'schema.sql'), ddl);
    try {
        fs.renameSync(workDir, finalDir);
    } catch {
        // another worker finished first: keep its copy
        fs.rmSync(workDir, { recursive: true, force: true });
    }
    return { dir: finalDir, provider, ddl: fs.readFileSync(ddlFile, 'utf8') };
}

function* walk(dir: string): Generator<string> {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            yield* walk(full);
        } else {
            yield full;
        }
    }
}
