import path from 'node:path';
import { OURS_DIST } from './config';
import { copyDatabase } from './database';
import { RESULTS_FILE, writeBlock } from './documents';
import { SCENARIOS, selectScenarios, type Scenario } from './scenarios';
import { BENCH_USER_ID } from './seed';
import { parseQuery, splitUrl, type ParsedRequest } from './server/http';
import { mount, openDatabase, type Client, type Mounted } from './server/mount';
import { buildOurs, prepareData } from './setup';

/**
 * What the in-process measurements (`bench:decompose`, `bench:alloc`) share: the read scenarios chosen
 * with BENCH_SCENARIOS, a copy of the seeded database with the implementations mounted on it, each
 * scenario's request as the servers hand it over, and the results block they write with BENCH_WRITE=1.
 */

/** The read scenarios selected with BENCH_SCENARIOS (all of them by default). */
export function readScenarios(): Scenario[] {
    return selectScenarios(process.env.BENCH_SCENARIOS?.split(',').map((s) => s.trim())).filter((s) => !s.write);
}

export interface Bench {
    /** A fresh enhanced client, signed in as the bench user (one per request, as the servers do). */
    client: () => Client;
    impls: Record<string, Mounted>;
    /** Closes the database and removes the copy. */
    close: () => Promise<void>;
}

/** Builds ours, and opens a copy of the seeded database (reads only, but on a copy all the same) with `impls` mounted. */
export async function openBench(tag: string, impls: readonly string[]): Promise<Bench> {
    const setup = await prepareData();
    buildOurs();
    const copy = await copyDatabase(setup.provider, setup.seed, tag).catch(async (err: unknown) => {
        await setup.release();
        throw err;
    });
    const db = await openDatabase(setup.generatedDir, copy.location).catch(async (err: unknown) => {
        await copy.remove();
        await setup.release();
        throw err;
    });
    return {
        client: () => db.enhance(db.prisma, { user: { id: BENCH_USER_ID } }),
        impls: Object.fromEntries(impls.map((i) => [i, mount(i, db, OURS_DIST)])),
        close: async () => {
            await db.prisma.$disconnect();
            await copy.remove();
            await setup.release();
        },
    };
}

/** A scenario's request as the bench servers hand it to an implementation. */
export function parsedRequest(scenario: Scenario): { mount: keyof Mounted; req: ParsedRequest } {
    const r = scenario.request(0);
    const url = splitUrl(r.path);
    if (!url) throw new Error(`${scenario.name}: not an /api/rest or /api/rpc path`);
    return { mount: url.mount as keyof Mounted, req: { method: r.method, path: url.path, query: parseQuery(url.search), body: r.body, userId: BENCH_USER_ID } };
}

/** Prints lines as they come and keeps them for the results block. */
export function transcript(): { say: (text: string) => void; lines: string[] } {
    const lines: string[] = [];
    return {
        lines,
        say: (text) => {
            process.stdout.write(`${text}\n`);
            lines.push(text);
        },
    };
}

/** With BENCH_WRITE=1, and only when every read scenario was measured, replaces block `name` of bench/RESULTS.md. */
export function recordBlock(name: string, measured: readonly Scenario[], lines: readonly string[]): void {
    if (process.env.BENCH_WRITE !== '1' || measured.length !== SCENARIOS.filter((s) => !s.write).length) return;
    writeBlock(RESULTS_FILE, name, `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.\n\n${lines.join('\n')}`);
    process.stdout.write(`wrote the ${name} block of ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
}

/** Runs a script's main function; a failure prints its stack and exits 1. */
export function runScript(main: () => Promise<void>): void {
    main().catch((err) => {
        process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
        process.exit(1);
    });
}
