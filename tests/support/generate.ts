import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import GENERATION_TOOLS from '../../scripts/generation-tools.json';
import type { GenerateJob } from './generate-job';
import { CACHE_ROOT, PROJECT_ROOT, runJob, runJobAsync } from './generator-processes';

/**
 * Generates a ZModel into an isolated folder under `.zenstack-test/<hash>` (inside the project so
 * that the generated code resolves `@prisma/client` and `@zenstackhq/runtime` from our node_modules):
 * its own Prisma client, ZenStack output (transpiled to CommonJS) and the DDL script. Cached by the
 * hash of the schema text, provider and tool versions; safe when several jest workers race. The
 * generation itself runs in another process (`generator-processes.ts`): while jest runs, a daemon per worker.
 */

export type Provider = 'sqlite' | 'postgresql';

export { PROJECT_ROOT, TS_REGISTER } from './generator-processes';
const GENERATOR_VERSION = '3';

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
function header(dir: string, provider: Provider, previewFeatures: readonly string[], datasource: string): string {
    const url = provider === 'sqlite' ? 'file:./unused.db' : 'postgresql://postgres@127.0.0.1:5432/unused';
    return `
datasource db {
  provider = "${provider}"
  url      = "${url}"
  ${datasource}
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

/** The tools whose output is cached: upgrading one of them (`npm install` keeps `.zenstack-test`) regenerates. */
const TOOLS: readonly string[] = GENERATION_TOOLS;
let toolVersions: string | undefined;

function installedToolVersions(): string {
    toolVersions ??= TOOLS.map((name) => {
        const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
        return `${name}@${manifest.version}`;
    }).join(',');
    return toolVersions;
}

export function schemaHash(zmodel: string, provider: Provider, previewFeatures: readonly string[] = [], datasource = ''): string {
    const extra = (previewFeatures.length > 0 ? `preview:${[...previewFeatures].sort().join(',')}\n` : '') + (datasource ? `datasource:${datasource}\n` : '');
    const key = `${GENERATOR_VERSION}\n${installedToolVersions()}\n${provider}\n${extra}${stripConfigBlocks(zmodel)}`;
    return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** A schema to generate, or the one generated already. */
type Plan =
    | { cached: GeneratedSchema }
    | {
          cached?: undefined;
          job: GenerateJob;
          /** Empties the job's folder but for its schema (before a second attempt). */
          reset: () => void;
          /** Removes the job's folder (after a failure). */
          discard: () => void;
          /** Moves the generated folder into place. */
          finish: () => GeneratedSchema;
      };

function plan(zmodel: string, provider: Provider, previewFeatures: readonly string[], datasource = ''): Plan {
    const hash = schemaHash(zmodel, provider, previewFeatures, datasource);
    const finalDir = path.join(CACHE_ROOT, `${provider}-${hash}`);
    const ddlFile = path.join(finalDir, 'schema.sql');
    const result = () => ({ dir: finalDir, provider, ddl: fs.readFileSync(ddlFile, 'utf8') });
    if (fs.existsSync(ddlFile)) return { cached: result() };

    const workDir = path.join(CACHE_ROOT, `tmp-${hash}-${process.pid}-${randomBytes(4).toString('hex')}`);
    // paths baked into the generated code must be the final ones: generate with the final dir name
    // in the schema, in a temporary folder, then move the folder into place
    const text = header(finalDir, provider, previewFeatures, datasource) + stripConfigBlocks(zmodel);
    const schemaFile = path.join(workDir, 'schema.zmodel');
    const discard = () => fs.rmSync(workDir, { recursive: true, force: true });
    const reset = () => {
        discard();
        fs.mkdirSync(workDir, { recursive: true });
        fs.writeFileSync(schemaFile, text.split(finalDir).join(workDir));
    };
    reset();
    const job: GenerateJob = {
        projectRoot: PROJECT_ROOT,
        schemaFile,
        output: path.join(workDir, 'zenstack'),
        prismaSchema: path.join(workDir, 'schema.prisma'),
        ddlFile: path.join(workDir, 'schema.sql'),
        // the generated sources import the client by absolute path: point them at the final folder
        rewrite: [workDir, finalDir],
    };
    const finish = () => {
        try {
            fs.renameSync(workDir, finalDir);
        } catch {
            // another worker finished first: keep its copy
            discard();
        }
        return result();
    };
    return { job, reset, discard, finish };
}

/**
 * Generates (or reuses) the artifacts of a schema for a provider; `previewFeatures` are added to the
 * generator's (e.g. `fullTextSearchPostgres`).
 */
export function generateSchema(zmodel: string, provider: Provider = 'sqlite', previewFeatures: readonly string[] = []): GeneratedSchema {
    const p = plan(zmodel, provider, previewFeatures);
    if (p.cached) return p.cached;
    try {
        runJob(p.job, p.reset);
    } catch (err) {
        p.discard();
        throw err;
    }
    return p.finish();
}

/**
 * The same without blocking the process (the daemons answer over a socket); `daemon` picks one by number;
 * `datasource`: more lines of the datasource block (e.g. PostgreSQL's `schemas = ["public", "sales"]`).
 */
export async function generateSchemaAsync(
    zmodel: string,
    provider: Provider = 'sqlite',
    previewFeatures: readonly string[] = [],
    daemon?: number,
    datasource = '',
): Promise<GeneratedSchema> {
    const p = plan(zmodel, provider, previewFeatures, datasource);
    if (p.cached) return p.cached;
    try {
        await runJobAsync(p.job, p.reset, daemon);
    } catch (err) {
        p.discard();
        throw err;
    }
    return p.finish();
}
