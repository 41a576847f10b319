import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { acked, checkResponses, checkState, runOps, summarize, type Outcome } from './support/load';
import { startApi } from './support/server';
import { buildOps, EXPECTATION, planCounts, prng, seedWorld, type Seed } from './support/workload';

/**
 * Many concurrent mixed requests (reads, creates, nested creates, counter increments, retitles,
 * relationship changes, deletes, transactions, denied and conflicting writes; RPC and REST) through the
 * Express adapter over loopback HTTP. Every answer must be a 2xx or a clean 4xx/503, and the final
 * tables must equal the sum of the acknowledged writes. Size: LOAD_REQUESTS (default 200, all in flight
 * at once), LOAD_CONCURRENCY, LOAD_SEED (the shuffle); `npm run load` runs the long version.
 */
const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 200);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? Math.min(REQUESTS, 200));
const SEED = Number(process.env.LOAD_SEED ?? 20240611);
const TIMEOUT = Math.max(120_000, REQUESTS * 200);

/**
 * Breaks the final state the way a faulty stack would (an acknowledged create lost, another stored
 * twice, a lost increment, a relationship change undone) and returns what the state check reports:
 * proof that the check can fail.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function tamper(prisma: any, seed: Seed, outcomes: Outcome[]): Promise<string[]> {
    const first = (kind: string) => outcomes.find((o) => o.op.kind === kind && acked(o))!;
    const lost = first('rest-create');
    await prisma.post.delete({ where: { id: Number(lost.res!.body.data.id) } });
    const twice = first('rpc-create');
    await prisma.post.create({ data: { title: twice.op.marker, authorId: twice.op.author.id } });
    const increment = first('rpc-increment');
    await prisma.post.update({ where: { id: increment.op.author.counterPost }, data: { viewCount: { decrement: 1 } } });
    const moved = first('move-rpc');
    const move = seed.movable.find((m) => m.id === moved.op.comment)!;
    await prisma.comment.update({ where: { id: move.id }, data: { postId: move.from } });
    return checkState(prisma, seed, outcomes);
}

async function runLoad(s: TestSchema, verifier: unknown, checkTheCheck = false) {
    const counts = planCounts(REQUESTS);
    const seed = await seedWorld(s.prisma, counts);
    const ops = buildOps(counts, seed, prng(SEED));
    const api = await startApi(s);
    try {
        const { outcomes, durationMs } = await runOps(api.origin, ops, CONCURRENCY);
        const summary = summarize(outcomes, durationMs, CONCURRENCY);
        // eslint-disable-next-line no-console
        console.log(`load [${s.provider}] ${JSON.stringify(summary)}`);
        expect(checkResponses(outcomes)).toEqual([]);
        // not vacuous: every kind of request meant to succeed did, mostly (503 = the database was busy)
        const succeeded = new Set(outcomes.filter(acked).map((o) => o.op.kind));
        expect(Object.keys(counts).filter((k) => EXPECTATION[k as keyof typeof EXPECTATION] === 'ok' && !succeeded.has(k as never))).toEqual([]);
        // how many the pool turns away (503) depends on how busy the machine is (28 % with two other
        // CPU-bound processes running): the bound only keeps the run from being mostly refusals
        expect(summary.statuses['503'] ?? 0).toBeLessThanOrEqual(outcomes.length / 2);
        // read back through a separate connection: what another process would see
        expect(await checkState(verifier, seed, outcomes)).toEqual([]);
        expect(api.logs.filter((l) => !l.startsWith('db-unavailable') && !l.startsWith('service-unavailable'))).toEqual([]);
        if (checkTheCheck) {
            const problems = (await tamper(verifier, seed, outcomes)).join('\n');
            for (const expected of [/"rest-create \d+".*0 rows, expected 1/, /"rpc-create \d+".*2 rows, expected 1/, /viewCount \d+, expected \d+ acknowledged/, /comment \d+ \(move-rpc.*expected \d+/]) {
                expect(problems).toMatch(expected);
            }
        }
        return summary;
    } finally {
        await api.close();
    }
}

async function withSchema(provider: Provider, fn: (s: TestSchema, verifier: unknown) => Promise<unknown>) {
    // All requests are in flight at once, far more transactions than the pool has connections: with
    // Prisma's default 2 s maxWait, most of those queued behind others were refused (503 P2028) on a busy
    // machine (113 of 200 once on PostgreSQL while other suites ran), and the check below measured the
    // machine instead of the handlers. A patient client tests what it should: clean answers, exact state.
    const transactionOptions = { maxWait: 60_000, timeout: 60_000 };
    // as the demo: WAL journal and a 5 s busy timeout on SQLite
    const s = await loadSchema(undefined, provider === 'sqlite' ? { sqlite: { wal: true, timeout: 5000 }, transactionOptions } : { provider, transactionOptions });
    const verifier = s.createClient(provider === 'sqlite' ? new PrismaBetterSQLite3({ url: s.databaseUrl }) : new PrismaPg({ connectionString: s.databaseUrl }));
    try {
        await fn(s, verifier);
    } finally {
        await (verifier as { $disconnect(): Promise<void> }).$disconnect();
        await s.cleanup();
    }
}

describe('load through the Express adapter [sqlite, WAL, busy timeout]', () => {
    it(
        `${REQUESTS} concurrent mixed requests: clean answers, nothing lost, nothing duplicated`,
        async () => {
            // on SQLite also proves that the state check catches lost, duplicated and undone writes
            await withSchema('sqlite', (s, verifier) => runLoad(s, verifier, true));
        },
        TIMEOUT,
    );
});

describePg('load through the Express adapter', () => {
    it(
        `${REQUESTS} concurrent mixed requests: clean answers, nothing lost, nothing duplicated`,
        async () => {
            if (!(await requirePg())) return;
            await withSchema('postgresql', runLoad);
        },
        TIMEOUT,
    );
});
