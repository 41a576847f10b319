/**
 * What generating one test schema takes, in the process that runs it (`generate-child.ts` for one schema,
 * `generate-daemon.ts` for many; never imported by tests): `zenstack generate` through ZenStack's own generate
 * action, the DDL that creates its tables from an empty database, and the generated TypeScript transpiled to
 * CommonJS. A schema used to take three processes (the ZenStack CLI, `prisma migrate diff`, and the test worker
 * loading `typescript`); in a daemon the tools stay loaded from one schema to the next.
 */
import fs from 'node:fs';
import path from 'node:path';
import { prismaGenerateInProcess } from './prisma-generate';

export interface GenerateJob {
    projectRoot: string;
    /** The ZModel to generate. */
    schemaFile: string;
    /** ZenStack's output folder (enhancer, model metadata, zod schemas). */
    output: string;
    /** The Prisma schema ZenStack writes (its `prisma` plugin's output). */
    prismaSchema: string;
    /** Where the DDL goes. */
    ddlFile: string;
    /** A path written into the generated sources, and the one to write instead (the folder's final name). */
    rewrite: [string, string];
}

const fromProject = (job: GenerateJob, p: string) => path.join(job.projectRoot, 'node_modules', p);

/** An ES module, loaded as one: this file is compiled to CommonJS, where `import()` would become `require()`. */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;

type ExecPackage = (cmd: string, options?: unknown) => unknown;
let execHooked = false;

/**
 * ZenStack runs the Prisma CLI through `execPackage` (its `utils/exec-utils`, looked up at each call): `prisma
 * generate` runs in this process instead (`prisma-generate.ts`), anything else, or a generate that fails here, as
 * ZenStack would (the CLI then reports the error).
 */
function hookPrismaGenerate(job: GenerateJob): void {
    if (execHooked) return;
    execHooked = true;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const utils = require(fromProject(job, 'zenstack/utils/exec-utils')) as { execPackage: ExecPackage };
    const viaCli = utils.execPackage;
    utils.execPackage = async (cmd, options) => {
        try {
            if (await prismaGenerateInProcess(job.projectRoot, cmd)) return;
        } catch {
            // the CLI runs it again below, and says what is wrong
        }
        return viaCli(cmd, options);
    };
}

let formattingSkipped = false;

/**
 * ZenStack formats every TypeScript file it writes with ts-morph's `formatText` (TypeScript's formatter, through a
 * language service), and for a schema with `@@delegate` the whole Prisma `index.d.ts` too: about a quarter of a
 * test schema's generation, for whitespace in files only tools read. Here it formats nothing.
 */
function skipFormatting(job: GenerateJob): void {
    if (formattingSkipped) return;
    formattingSkipped = true;
    const zenstackDir = path.dirname(require.resolve(fromProject(job, 'zenstack/package.json')));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const tsMorph = require(require.resolve('ts-morph', { paths: [zenstackDir] })) as { Node: { prototype: object }; SourceFile: { prototype: object } };
    for (const proto of [tsMorph.Node.prototype, tsMorph.SourceFile.prototype]) {
        Object.defineProperty(proto, 'formatText', { value: () => undefined, configurable: true, writable: true });
    }
}

async function zenstackGenerate(job: GenerateJob): Promise<void> {
    hookPrismaGenerate(job);
    skipFormatting(job);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generate } = require(fromProject(job, 'zenstack/cli/actions/generate')) as {
        generate: (projectPath: string, options: Record<string, unknown>) => Promise<void>;
    };
    // the options the CLI passes for `generate --schema … --output … --no-version-check --offline`
    await generate(job.projectRoot, {
        schema: job.schemaFile,
        output: job.output,
        versionCheck: false,
        offline: true,
        dependencyCheck: true,
        defaultPlugins: true,
        compile: true,
    });
}

interface SchemaEngine {
    diff(params: Record<string, unknown>): Promise<{ exitCode: number; stdout: string | null }>;
    free(): void;
}

interface LoadedEngine {
    Engine: { new: (options: unknown, log: () => void, adapter: unknown) => Promise<SchemaEngine> };
    adapter: unknown;
}
let loaded: Promise<LoadedEngine> | undefined;

async function loadSchemaEngine(job: GenerateJob): Promise<LoadedEngine> {
    const dir = fromProject(job, '@prisma/schema-engine-wasm');
    const bindings = await importEsm(path.join(dir, 'schema_engine_bg.js'));
    const wasm = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm'))), {
        './schema_engine_bg.js': bindings as WebAssembly.ModuleImports,
    });
    (bindings.__wbg_set_wasm as (exports: WebAssembly.Exports) => void)(wasm.exports);
    (wasm.exports.__wbindgen_start as () => void)();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { bindMigrationAwareSqlAdapterFactory } = require(fromProject(job, '@prisma/driver-adapter-utils'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PrismaBetterSQLite3 } = require(fromProject(job, '@prisma/adapter-better-sqlite3'));
    return {
        Engine: bindings.SchemaEngine as LoadedEngine['Engine'],
        adapter: bindMigrationAwareSqlAdapterFactory(new PrismaBetterSQLite3({ url: ':memory:' })),
    };
}

/**
 * `prisma migrate diff --from-empty --to-schema-datamodel <schema> --script`, made in this process with the
 * WebAssembly schema engine the Prisma CLI itself loads (the CLI took about 2.4 s per schema, this about 0.15 s).
 * The engine needs a driver adapter to start, though a diff from the empty schema never connects; the DDL follows
 * the datamodel's provider whatever the adapter. The CLI prints the script with a final newline, and so do we.
 */
async function ddlFromEmpty(job: GenerateJob, prismaSchema: string): Promise<string> {
    try {
        return await diffFromEmpty(job, prismaSchema);
    } catch (err) {
        const reason = err instanceof Error ? (err.stack ?? err.message) : String(err);
        throw new Error(
            `the schema engine made no DDL (generate-job.ts drives @prisma/schema-engine-wasm's bindings itself: after a Prisma upgrade, check them against how the Prisma CLI loads them): ${reason}`,
        );
    }
}

async function diffFromEmpty(job: GenerateJob, prismaSchema: string): Promise<string> {
    const { Engine, adapter } = await (loaded ??= loadSchemaEngine(job));
    const engine = await Engine.new({ datamodels: [['schema.prisma', prismaSchema]] }, () => undefined, adapter);
    try {
        const result = await engine.diff({
            from: { tag: 'empty' },
            to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: prismaSchema }] },
            shadowDatabaseUrl: null,
            script: true,
            exitCode: null,
            filters: { externalTables: [], externalEnums: [] },
        });
        if (result.stdout === null) throw new Error('the schema engine returned no script');
        return `${result.stdout}\n`;
    } finally {
        engine.free();
    }
}

function* files(dir: string): Generator<string> {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* files(full);
        else yield full;
    }
}

/**
 * Points the generated sources at the folder's final name, and writes a CommonJS `.js` beside each `.ts` (300-500
 * files per schema) with one esbuild call: TypeScript's `transpileModule`, file by file, took about 2 s of a schema's
 * 4-6 s on 2 cores. No tsconfig applies (`tsconfigRaw`), as with `transpileModule` and explicit options.
 */
function finishSources(job: GenerateJob): void {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require(fromProject(job, 'esbuild')) as typeof import('esbuild');
    const [from, to] = job.rewrite;
    const sources: string[] = [];
    for (const file of [...files(job.output)]) {
        const content = fs.readFileSync(file, 'utf8');
        if (content.includes(from)) fs.writeFileSync(file, content.split(from).join(to));
        if (file.endsWith('.ts') && !file.endsWith('.d.ts')) sources.push(file);
    }
    if (sources.length === 0) return;
    esbuild.buildSync({
        entryPoints: sources,
        outdir: job.output,
        outbase: job.output,
        format: 'cjs',
        platform: 'node',
        target: 'es2020',
        tsconfigRaw: {},
        logLevel: 'silent',
    });
}

/** Generates the job's schema; throws what the tools threw. */
export async function runGenerateJob(job: GenerateJob): Promise<void> {
    await zenstackGenerate(job);
    fs.writeFileSync(job.ddlFile, await ddlFromEmpty(job, fs.readFileSync(job.prismaSchema, 'utf8')));
    finishSources(job);
}
