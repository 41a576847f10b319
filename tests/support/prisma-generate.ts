/**
 * `prisma generate` for a test schema without starting the Prisma CLI (used by `generate-job.ts` only, never by
 * tests): ZenStack runs `npx prisma generate --schema "…"` once per schema (twice for one with `@@delegate`), and
 * starting the CLI (a 2.8 MB bundle) was most of the 1.3 s that took on 2 cores, about a quarter of a schema's
 * generation. Here the client generator `@prisma/client` ships (the one the CLI runs for `prisma-client-js`) runs
 * in the process that generates the schema, through `@prisma/internals` at the CLI's own version. The output is the
 * CLI's, file for file (checked on 2026-12-01 with `diff -r` against the CLI's for a SQLite schema). Any other
 * command, an argument this does not know, or a version mismatch runs the real CLI.
 */
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

interface ClientGenerator {
    getManifest(config: unknown): Promise<unknown>;
    generate(options: unknown): Promise<void>;
}

interface PrismaInternals {
    loadSchemaContext(options: { schemaPathFromArg: string; allowNull: false }): Promise<unknown>;
    getGenerators(options: Record<string, unknown>): Promise<Array<{ generate(): Promise<void>; stop(): void }>>;
}

/** What `prisma generate` was asked, when this module can do it. */
interface GenerateCommand {
    schema: string;
    generatorNames: string[];
    noEngine: boolean;
}

/** `prisma generate --schema "<path>"`, then `--generator=<name>` and `--no-engine` in any order (what ZenStack 2.x runs). */
export function parseGenerateCommand(cmd: string): GenerateCommand | undefined {
    const m = /^prisma generate --schema "([^"]+)"((?: [^ ]+)*)$/.exec(cmd.trim());
    if (!m) return undefined;
    const command: GenerateCommand = { schema: m[1]!, generatorNames: [], noEngine: false };
    for (const arg of m[2]!.split(' ').filter(Boolean)) {
        const generator = /^--generator=([A-Za-z_][A-Za-z0-9_]*)$/.exec(arg);
        if (generator) command.generatorNames.push(generator[1]!);
        else if (arg === '--no-engine') command.noEngine = true;
        else return undefined;
    }
    return command;
}

const versionOf = (projectRoot: string, name: string): string | undefined => {
    try {
        return (JSON.parse(fs.readFileSync(path.join(projectRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
        return undefined;
    }
};

interface Loaded {
    internals: PrismaInternals;
    Generator: new () => ClientGenerator;
}
let loaded: Loaded | null | undefined;

/**
 * The generator class from `@prisma/client/generator-build`: that file starts it as a child process's RPC server
 * when run as a script, and does not export it, so it is compiled here as a module with one export added.
 */
function load(projectRoot: string): Loaded | null {
    if (loaded !== undefined) return loaded;
    const cli = versionOf(projectRoot, 'prisma');
    const same = cli !== undefined && versionOf(projectRoot, '@prisma/internals') === cli && versionOf(projectRoot, '@prisma/client') === cli;
    if (!same) return (loaded = null);
    const file = path.join(projectRoot, 'node_modules/@prisma/client/generator-build/index.js');
    const source = fs.readFileSync(file, 'utf8');
    if (!/^var PrismaClientJsGenerator = class \{/m.test(source)) return (loaded = null);
    const m = new Module(file) as Module & { _compile(code: string, filename: string): void; paths: string[] };
    m.filename = file;
    m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
    m._compile(`${source}\nmodule.exports.__zsapiClientGenerator = PrismaClientJsGenerator;\n`, file);
    const Generator = (m.exports as { __zsapiClientGenerator?: Loaded['Generator'] }).__zsapiClientGenerator;
    if (!Generator) return (loaded = null);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const internals = require(path.join(projectRoot, 'node_modules/@prisma/internals')) as PrismaInternals;
    return (loaded = { internals, Generator });
}

/** Runs `cmd` in this process when it is a `prisma generate` this module can do; false when the CLI must. */
export async function prismaGenerateInProcess(projectRoot: string, cmd: string): Promise<boolean> {
    const command = parseGenerateCommand(cmd);
    if (!command) return false;
    const tools = load(projectRoot);
    if (!tools) return false;
    const schemaContext = await tools.internals.loadSchemaContext({ schemaPathFromArg: command.schema, allowNull: false });
    const generators = await tools.internals.getGenerators({
        schemaContext,
        registry: { 'prisma-client-js': { type: 'in-process', generator: new tools.Generator() } },
        generatorNames: command.generatorNames,
        noEngine: command.noEngine,
        postinstall: false,
        printDownloadProgress: false,
        skipDownload: true,
    });
    try {
        for (const generator of generators) await generator.generate();
    } finally {
        for (const generator of generators) generator.stop();
    }
    return true;
}
