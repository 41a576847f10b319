/**
 * `npm run bench:cold`: what a serverless cold start costs on a large schema. For generated schemas of 50, 150
 * and 300 models (`cold-start-schema.ts`), each implementation (ours, @zenstackhq/server 2.22.3, and the floor:
 * the same ORM calls made directly) runs in fresh processes that load the generated code, construct the REST
 * and RPC handlers and answer their first requests: a REST list with include, a REST create, an RPC findMany
 * with include and an RPC create, first on one model (the first requests of the process), then on three more
 * (each a model's first requests on a process that has answered others). Then the same requests warm, and, in
 * one process per implementation on the largest schema, one REST list and one RPC findMany on every model
 * with the JavaScript heap measured after it. The handlers get no zod schemas; loading ZenStack's generated ones
 * is measured apart, per schema (the model schemas alone, and everything).
 *
 *   COLD_SIZES   comma-separated model counts (default 50,150,300)
 *   COLD_ROUNDS  processes per implementation and size (default 3; medians are reported)
 *   COLD_IMPLS   default ours,upstream,floor
 *   COLD_DEFAULT_ROUNDS  processes per case on the default generated output (default 1)
 *   COLD_WRITE   1 = write the tables into docs/performance.md (block `cold-start`)
 *   COLD_OURS_DIST  a compiled zenstack-api to measure as ours instead of building this tree (e.g. an older commit's)
 *
 * A schema is generated once (`tests/support/generate.ts` caches it under .zenstack-test: the first run of a
 * 300-model schema took 12 minutes on 2 cores, the zod plugin most of it), and its database seeded once into bench/.data.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generateSchema } from '../tests/support/generate';
import { coldStartModel, coldStartSchema } from './cold-start-schema';
import { DATA_DIR, describeMachine, OURS_DIST, PROJECT_ROOT } from './config';
import { PERFORMANCE_DOC, writeBlock } from './documents';
import type { ColdStartResult, Kind } from './server/cold-start-child';
import { buildOurs, buildServer } from './setup';

const KINDS: readonly Kind[] = ['rest-list-include', 'rest-create', 'rpc-findMany', 'rpc-create'];
const log = (message: string) => process.stdout.write(`${message}\n`);

const sizes = (process.env.COLD_SIZES ?? '50,150,300').split(',').map(Number);
const rounds = Number(process.env.COLD_ROUNDS ?? 3);
const impls = (process.env.COLD_IMPLS ?? 'ours,upstream,floor').split(',');
/** Processes per case on the default generated output (seconds before the fix, a fraction of one after: one is enough). */
const defaultRounds = Number(process.env.COLD_DEFAULT_ROUNDS ?? 1);

/** A SQLite file of the schema with one `User` and three rows per model (rows 2 and 3 children of the previous model's row 1). */
async function seededDatabase(generatedDir: string, ddl: string, count: number): Promise<string> {
    const file = path.join(DATA_DIR, `cold-${path.basename(generatedDir)}.db`);
    if (fs.existsSync(file)) return file;
    const tmp = `${file}.${process.pid}.tmp`;
    fs.rmSync(tmp, { force: true });
    /* eslint-disable @typescript-eslint/no-require-imports */
    const Database = require('better-sqlite3');
    const raw = new Database(tmp);
    raw.exec(ddl);
    raw.close();
    const { PrismaClient } = require(path.join(generatedDir, 'prisma-client'));
    const { PrismaBetterSQLite3 } = require('@prisma/adapter-better-sqlite3');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${tmp}` }) });
    try {
        await prisma.user.create({ data: { email: 'cold@example.com' } });
        for (let i = 0; i < count; i++) {
            const parentId = i === 0 ? undefined : 1;
            const rows = [1, 2, 3].map((n) => ({ title: `row ${n}`, code: `seed-${n}`, parentId: n === 1 ? undefined : parentId }));
            await prisma[`e${i}`].createMany({ data: rows });
        }
    } finally {
        await prisma.$disconnect();
    }
    fs.renameSync(tmp, file);
    return file;
}

function runChild(script: string, vars: Record<string, string>): Promise<ColdStartResult> {
    return new Promise((resolve, reject) => {
        execFile(
            process.execPath,
            ['--expose-gc', script],
            { cwd: PROJECT_ROOT, env: { ...process.env, NODE_ENV: 'production', ...vars }, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
            (err, stdout, stderr) => {
                if (err) return reject(new Error(`${vars.COLD_IMPL} failed: ${stderr || err.message}`));
                resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as ColdStartResult);
            },
        );
    });
}

/**
 * Loading ZenStack's generated zod schemas in a fresh process with Node's default stack: the model schemas (what the
 * REST handler reads), or all three parts as `@zenstackhq/runtime/zod` loads them (what the REST handler loaded for an
 * enum check before, and what `zodSchemas: true` loaded when an adapter was created). The input and object modules
 * require each other along the relations, deeper than that stack on large schemas: ZenStack's runtime then leaves
 * the part out (it catches the error), which `failed` names. CPU ms and JavaScript heap MiB after a full collection.
 */
function zodLoad(generatedDir: string, parts: readonly string[]): Promise<{ ms: number; heapMiB: number; failed: string[] }> {
    const dir = path.join(generatedDir, 'zenstack', 'zod');
    const code = `const cpu=()=>{const u=process.cpuUsage();return (u.user+u.system)/1000};const t=cpu();const failed=[];
        for (const p of ${JSON.stringify(parts)}) { try { require(${JSON.stringify(dir)}+'/'+p+'/index.js'); } catch { failed.push(p); } }
        const ms=cpu()-t;gc();console.log(JSON.stringify({ms,heapMiB:process.memoryUsage().heapUsed/1048576,failed}))`;
    return new Promise((resolve, reject) => {
        execFile(process.execPath, ['--expose-gc', '-e', code], { cwd: PROJECT_ROOT, timeout: 120_000 }, (err, stdout, stderr) => {
            if (err) return reject(new Error(`loading ${dir}: ${stderr || err.message}`));
            resolve(JSON.parse(stdout.trim()) as { ms: number; heapMiB: number; failed: string[] });
        });
    });
}

/**
 * An application folder in which ZenStack's default generated output (`node_modules/.zenstack`) is `generatedDir`'s
 * and `node_modules/cold-start-ours` is `oursDist` (not `zenstack-api`: inside the project that name is the project itself): every other entry of node_modules links to the project's. Run with
 * --preserve-symlinks, so that ZenStack's runtime finds that output. The defaults child is copied into it.
 */
function appFolder(generatedDir: string, oursDist: string, childScript: string): string {
    const app = path.join(DATA_DIR, `cold-app-${path.basename(generatedDir)}`);
    fs.rmSync(app, { recursive: true, force: true });
    const modules = path.join(app, 'node_modules');
    fs.mkdirSync(modules, { recursive: true });
    const projectModules = path.join(PROJECT_ROOT, 'node_modules');
    for (const entry of fs.readdirSync(projectModules)) {
        if (entry !== '.zenstack') fs.symlinkSync(path.join(projectModules, entry), path.join(modules, entry));
    }
    fs.symlinkSync(path.join(generatedDir, 'zenstack'), path.join(modules, '.zenstack'));
    fs.symlinkSync(oursDist, path.join(modules, 'cold-start-ours'));
    fs.copyFileSync(childScript, path.join(app, 'cold-start-defaults.js'));
    return app;
}

/** One run of the defaults child (`COLD_CASE`) in `app`. */
function runDefaults(app: string, vars: Record<string, string>): Promise<{ ms: number; heapMiB: number }> {
    return new Promise((resolve, reject) => {
        execFile(
            process.execPath,
            ['--expose-gc', '--preserve-symlinks', 'cold-start-defaults.js'],
            { cwd: app, env: { ...process.env, NODE_ENV: 'production', ...vars }, timeout: 120_000 },
            (err, stdout, stderr) => {
                if (err) return reject(new Error(`${vars.COLD_CASE} failed: ${stderr || err.message}`));
                resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as { ms: number; heapMiB: number });
            },
        );
    });
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

interface Measured {
    size: number;
    impl: string;
    runs: ColdStartResult[];
}

/** A row of medians over the runs: construction, the first requests of the process, a model's first requests later, warm. */
function row(m: Measured): string {
    const med = (pick: (r: ColdStartResult) => number) => ms(median(m.runs.map(pick)));
    const firstOfProcess = KINDS.map((k) => med((r) => r.first[0].ms[k]));
    const laterModels = KINDS.map((k) => med((r) => median(r.first.slice(1).map((f) => f.ms[k]))));
    const warm = KINDS.map((k) => med((r) => r.warmMs[k]));
    return `| ${m.size} | ${m.impl} | ${med((r) => r.requireMs)} | ${med((r) => r.constructMs)} | ${firstOfProcess.join(' / ')} | ${laterModels.join(' / ')} | ${warm.join(' / ')} |`;
}

async function main(): Promise<void> {
    const started = Date.now();
    // generating the 300-model schema takes longer than the test helper's default bound
    process.env.ZSAPI_GENERATE_TIMEOUT_MS ??= String(60 * 60_000);
    fs.mkdirSync(DATA_DIR, { recursive: true });
    const oursDist = process.env.COLD_OURS_DIST || OURS_DIST;
    if (!process.env.COLD_OURS_DIST) buildOurs();
    const script = path.join(path.dirname(buildServer()), 'cold-start-child.js');
    const measured: Measured[] = [];
    const memory: ColdStartResult[] = [];
    let loadGenerated = '';
    const zodRows: string[] = [];
    const defaultRows: string[] = [];
    for (const size of sizes) {
        log(`schema of ${size} models: generating (cached) and seeding ...`);
        const gen = generateSchema(coldStartSchema(size), 'sqlite');
        const template = await seededDatabase(gen.dir, gen.ddl, size);
        // the first requests of the process on a model in the middle, then three others
        const models = [Math.floor(size / 2), Math.floor(size / 3), Math.floor((2 * size) / 3), size - 2].map(coldStartModel).join(',');
        const modelSchemas = await zodLoad(gen.dir, ['models']);
        const whole = await zodLoad(gen.dir, ['models', 'input', 'objects']);
        const cell = (v: { ms: number; heapMiB: number; failed: string[] }) =>
            `${ms(v.ms)} ms, ${v.heapMiB.toFixed(0)} MiB${v.failed.length ? ` (${v.failed.join(' and ')} failed: stack overflow)` : ''}`;
        zodRows.push(`| ${size} | ${cell(modelSchemas)} | ${cell(whole)} |`);
        if (impls.includes('ours')) {
            const app = appFolder(gen.dir, oursDist, path.join(path.dirname(script), 'cold-start-defaults.js'));
            const cases: Record<string, Array<{ ms: number; heapMiB: number }>> = { 'rest-enum': [], 'adapter-zod': [] };
            for (let round = 0; round < defaultRounds; round++) {
                for (const kase of Object.keys(cases)) {
                    const db = path.join(DATA_DIR, `cold-run-${process.pid}.db`);
                    fs.copyFileSync(template, db);
                    try {
                        cases[kase].push(await runDefaults(app, { COLD_CASE: kase, COLD_DB: db, COLD_GENERATED: gen.dir, COLD_MODEL: coldStartModel(Math.floor(size / 2)) }));
                    } finally {
                        fs.rmSync(db, { force: true });
                    }
                }
            }
            fs.rmSync(app, { recursive: true, force: true });
            const cellOf = (runs: Array<{ ms: number; heapMiB: number }>) => `${ms(median(runs.map((r) => r.ms)))} ms, ${median(runs.map((r) => r.heapMiB)).toFixed(0)} MiB`;
            defaultRows.push(`| ${size} | ${cellOf(cases['rest-enum'])} | ${cellOf(cases['adapter-zod'])} |`);
        }
        const bySize = new Map(impls.map((impl) => [impl, [] as ColdStartResult[]]));
        for (let round = 0; round < rounds; round++) {
            // rotated, so that no implementation always runs after the same one
            const order = impls.map((_, i) => impls[(i + round) % impls.length]);
            for (const impl of order) {
                const db = path.join(DATA_DIR, `cold-run-${process.pid}.db`);
                fs.copyFileSync(template, db);
                try {
                    const touchAll = size === Math.max(...sizes) && round === 0;
                    const result = await runChild(script, {
                        COLD_IMPL: impl,
                        COLD_GENERATED: gen.dir,
                        COLD_DB: db,
                        COLD_OURS_DIST: oursDist,
                        COLD_MODELS: models,
                        COLD_TOUCH_ALL: touchAll ? '1' : '0',
                    });
                    bySize.get(impl)?.push(result);
                    if (touchAll) memory.push(result);
                } finally {
                    fs.rmSync(db, { force: true });
                }
            }
        }
        for (const [impl, runs] of bySize) measured.push({ size, impl, runs });
        const loads = [...bySize.values()].flat().map((r) => r.loadGeneratedMs);
        loadGenerated += `${size} models: ${ms(median(loads))} ms; `;
    }

    const machine = describeMachine();
    const lines = [
        `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ` +
            `SQLite; median of ${rounds} fresh processes per implementation and size (\`npm run bench:cold\`, ${Math.round((Date.now() - started) / 1000)} s). ` +
            `Times in ms of the process's CPU time (user + system). Loading the generated Prisma client, enhancer and model metadata and connecting (the app's cost, the same for all): ${loadGenerated.trim()}`,
        '',
        'Request kinds, in this order: REST list with include / REST create / RPC findMany with include / RPC create.',
        '',
        '| models | impl | load handler modules | construct both handlers | first requests of the process | first requests on a further model | warm |',
        '|--:|---|--:|--:|--:|--:|--:|',
        ...measured.map(row),
    ];
    if (memory.length > 0) {
        lines.push(
            '',
            `JavaScript heap after a full collection (MiB) on the ${Math.max(...sizes)}-model schema, and the time of a REST list and an RPC findMany on every model (first touch):`,
            '',
            '| impl | after loading | after constructing | after the first requests | after every model | touching every model, ms |',
            '|---|--:|--:|--:|--:|--:|',
            ...memory.map(
                (r) =>
                    `| ${r.impl} | ${r.heapMiB.loaded.toFixed(1)} | ${r.heapMiB.constructed.toFixed(1)} | ${r.heapMiB.afterFirst.toFixed(1)} | ${r.heapMiB.afterAll?.toFixed(1) ?? ''} | ${ms(r.touchAllMs ?? 0)} |`,
            ),
        );
    }
    lines.push(
        '',
        "Loading ZenStack's generated zod schemas in a fresh process with Node's default stack (CPU time, and JavaScript heap after a full collection): the model schemas alone, which the REST handler reads, and everything `@zenstackhq/runtime/zod` loads, which the REST handler loaded for an enum check before and the adapters' `zodSchemas: true` loaded when created. ZenStack's runtime leaves out a part that fails to load.",
        '',
        '| models | model schemas | everything |',
        '|--:|--:|--:|',
        ...zodRows,
    );
    if (defaultRows.length > 0) {
        lines.push(
            '',
            "Ours on ZenStack's default generated output (`node_modules/.zenstack` is the schema's), no `modelMeta` passed (CPU time from creating the handler " +
                `to the first answer, and JavaScript heap after it; median of ${defaultRounds} process(es)): the REST handler without zod schemas answering a list ` +
                'filtered by an enum field, and a Fetch adapter with `zodSchemas: true` and the REST handler created and answering the same.',
            '',
            '| models | REST enum filter, no zod schemas | adapter with `zodSchemas: true`, REST |',
            '|--:|--:|--:|',
            ...defaultRows,
        );
    }
    const text = lines.join('\n');
    log(`\n${text}\n`);
    if (process.env.COLD_WRITE === '1') writeBlock(PERFORMANCE_DOC, 'cold-start', text);
}

main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
});
