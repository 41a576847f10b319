import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type LoadOptions, type TestSchema } from '../support/schema';
import { sendFromWorker } from './support/client-worker';
import { answerProblems, contentionGroups, seedContention } from './support/contention';
import { q, type HttpRequest, type HttpResponse } from './support/http';
import { acked, checkResponses, checkState, runOps, summarize } from './support/load';
import { USER_HEADER } from './support/server';
import { startServerProcesses, type ServerProcesses } from './support/server-processes';
import { buildOps, EXPECTATION, planCounts, prng, seedWorld } from './support/workload';

/**
 * The README's scale-out set-up: several server processes, each with its own Prisma client and pool, on one
 * PostgreSQL database, behind a load balancer (here the test client, round robin); and the same on one SQLite
 * file, each process with its own connection (PM2 cluster mode, Node's `cluster`, two containers on one volume).
 * Nothing may depend on one process seeing all requests: first the mixed load of `load.test.ts`, then requests
 * racing for the same rows (upserts and sign-ups of one key, moves, replacements, deletes against updates and new
 * comments, sequential transactions on one counter), each group spread over the processes, then JSON:API pages
 * read by each process while the others delete and create their rows. Every answer must be a 2xx, a clean 4xx or a
 * 503 with Retry-After, the tables must hold every acknowledged write exactly once, and every page must agree with
 * its `meta.total`. On SQLite this needs `withTransactionCleanup`'s BEGIN IMMEDIATE (without it a third of the
 * racing requests answered 503, see `sqlite-write-lock.test.ts`) and its snapshot probe's `data_version`.
 */

const PROCESSES = 3;
const REQUESTS = 150;
const SEED = 20240611;

/** What a server process logged that a healthy run should not make it log (503s are logged, as errors). */
const unexpected = (logs: string[][]) => logs.flat().filter((l) => !l.startsWith('db-unavailable') && !l.startsWith('service-unavailable'));

/** The page size of the churn reads, the number of rows seeded, and of rounds. */
const CHURN_PAGE = 15;

/**
 * A user with CHURN_PAGE published posts, and rounds of six full-page reads of the user's posts (by relationship or
 * filtered collection), a delete of one of them (RPC `delete` in a transaction, or `deleteMany`, one statement) and
 * a create of another, sent round robin: every process reads while the others write. The number of rows stays
 * around the page size: a page read while there were enough rows to fill it, with a count after a delete committed,
 * would have fewer in `meta.total` than in `data`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function seedChurn(prisma: any): Promise<{ user: number; requests: HttpRequest[] }> {
    const user = (await prisma.user.create({ data: { email: 'churn@scale-out.test' } })).id as number;
    const seeded: number[] = [];
    for (let i = 0; i < CHURN_PAGE; i++) seeded.push((await prisma.post.create({ data: { title: `churn ${i}`, published: true, authorId: user } })).id);
    const reads = [`/api/rest/user/${user}/posts?page[limit]=${CHURN_PAGE}`, `/api/rest/post?filter[title$startsWith]=churn&page[limit]=${CHURN_PAGE}`];
    const remove = (id: number): HttpRequest =>
        id % 2 === 0
            ? { method: 'DELETE', path: `/api/rpc/post/delete${q({ where: { id }, select: { id: true } })}`, user }
            : { method: 'DELETE', path: `/api/rpc/post/deleteMany${q({ where: { id } })}`, user };
    const create = (i: number): HttpRequest => ({ method: 'POST', path: '/api/rpc/post/create', body: { data: { title: `churn new ${i}`, published: true, authorId: user }, select: { id: true } }, user });
    const requests: HttpRequest[] = [];
    seeded.forEach((id, i) => {
        for (let r = 0; r < 6; r++) requests.push({ method: 'GET', path: reads[r % reads.length], user });
        requests.push(remove(id), create(i));
    });
    return { user, requests };
}

/**
 * The tests on `PROCESSES` server processes over the database `loadSchema(undefined, load)` makes (when `ready`),
 * each process opening a SQLite file with the busy timeout `sqliteTimeout` (ms; better-sqlite3's default, 5 s,
 * when undefined).
 */
function scaleOut(load: LoadOptions, ready: () => Promise<boolean>, sqliteTimeout?: number) {
    const processes = PROCESSES;
    let s: TestSchema | undefined;
    let servers: ServerProcesses | undefined;
    beforeAll(async () => {
        if (!(await ready())) return;
        s = await loadSchema(undefined, load);
        servers = await startServerProcesses(s, processes, { sqliteTimeout });
    }, 120_000);
    afterAll(async () => {
        await servers?.stop().catch(() => undefined);
        await s?.cleanup();
    });

    it(`${REQUESTS} mixed requests, round robin over ${processes} processes: clean answers, nothing lost, nothing duplicated`, async () => {
        if (!s || !servers) return;
        const counts = planCounts(REQUESTS);
        const seed = await seedWorld(s.prisma, counts);
        const ops = buildOps(counts, seed, prng(SEED));
        const { outcomes, durationMs } = await runOps(servers.origins, ops, REQUESTS);
        // eslint-disable-next-line no-console
        console.log(`scale-out load [${s.provider}] ${JSON.stringify({ ...summarize(outcomes, durationMs, REQUESTS), byKind: undefined })}`);
        expect(checkResponses(outcomes)).toEqual([]);
        const succeeded = new Set(outcomes.filter(acked).map((o) => o.op.kind));
        expect(Object.keys(counts).filter((k) => EXPECTATION[k as keyof typeof EXPECTATION] === 'ok' && !succeeded.has(k as never))).toEqual([]);
        expect(await checkState(s.prisma, seed, outcomes)).toEqual([]);
    }, 120_000);

    it(`requests racing for the same rows, each group spread over the ${processes} processes: only acknowledged writes, each once`, async () => {
        if (!s || !servers) return;
        const seed = await seedContention(s.prisma);
        const groups = contentionGroups(seed);
        const requests = groups.flatMap((g) => g.members.map((m) => m.request));
        // consecutive members of a group go to different processes
        const { out } = await sendFromWorker(servers.origins, requests, requests.length, USER_HEADER);
        const answers: (HttpResponse | undefined)[] = out.map((o) => {
            if (!o.res) return undefined;
            let body: unknown;
            try {
                body = o.res.text ? JSON.parse(o.res.text) : undefined;
            } catch {
                body = undefined;
            }
            return { ...o.res, body };
        });
        const byGroup = (() => {
            let next = 0;
            return groups.map((g) => answers.slice(next, (next += g.members.length)));
        })();
        const stateProblems = async () => (await Promise.all(groups.map(async (g, i) => (await g.check(byGroup[i], s!.prisma)).map((p) => `${g.name}: ${p}`)))).flat();
        const problems = [...groups.flatMap((g, i) => answerProblems(g, byGroup[i])), ...(await stateProblems())];
        const statuses: Record<string, number> = {};
        for (const a of answers) statuses[a?.status ?? 'none'] = (statuses[a?.status ?? 'none'] ?? 0) + 1;
        // eslint-disable-next-line no-console
        console.log(`scale-out contention [${s.provider}]: ${requests.length} requests in ${groups.length} groups, ${JSON.stringify(statuses)}`);
        expect(problems).toEqual([]);
        // not vacuous: most of the racing writes were acknowledged
        expect(answers.filter((a) => a && a.status >= 200 && a.status < 300).length).toBeGreaterThan(requests.length / 2);
        // and the checks see a write counted twice, a replacement merged with another, a lost increment, a move undone
        await s.prisma.allTypes.update({ where: { id: 'hot-rpc-0' }, data: { int: { increment: 1 } } });
        await s.prisma.allTypes.updateMany({ where: { id: { in: seed.owners[0].pool } }, data: { ownerId: seed.owners[0].user } });
        await s.prisma.post.update({ where: { id: seed.counter }, data: { viewCount: { decrement: 1 } } });
        await s.prisma.comment.update({ where: { id: seed.movable[0] }, data: { postId: seed.posts[0] } });
        const tampered = (await stateProblems()).join('\n');
        for (const expected of [/"hot-rpc-0": int \d+, expected \d+/, /allTypes: members [^\n]*, expected one of/, /viewCount \d+, expected \d+/, new RegExp(`moves of comment ${seed.movable[0]}: on post ${seed.posts[0]}`)]) {
            expect(tampered).toMatch(expected);
        }
    }, 120_000);

    it(`a list and its meta.total, read by each of the ${processes} processes while the others delete and add rows: one state`, async () => {
        if (!s || !servers) return;
        const { user, requests } = await seedChurn(s.prisma);
        const { out } = await sendFromWorker(servers.origins, requests, requests.length, USER_HEADER);
        const problems: string[] = [];
        const totals = new Set<number>();
        out.forEach((o, i) => {
            const req = requests[i];
            if (!o.res) return problems.push(`${req.method} ${req.path}: no answer (${o.failure})`);
            if (o.res.status === 503 && o.res.retryAfter === '1') return undefined;
            if (req.method !== 'GET') return o.res.status >= 200 && o.res.status < 300 ? undefined : problems.push(`${req.method} ${req.path}: ${o.res.status} ${o.res.text.slice(0, 200)}`);
            const body = JSON.parse(o.res.text);
            const total: number = body.meta?.total;
            totals.add(total);
            const expected = Math.min(total, CHURN_PAGE);
            if (o.res.status !== 200 || body.data?.length !== expected) problems.push(`${req.path}: ${o.res.status}, ${body.data?.length} rows with meta.total ${total}`);
            return undefined;
        });
        // eslint-disable-next-line no-console
        console.log(`scale-out snapshot reads [${s.provider}]: totals seen ${[...totals].sort((a, b) => a - b).join(',')}`);
        expect(problems).toEqual([]);
        // not vacuous: the reads saw the rows change
        expect(totals.size).toBeGreaterThan(1);
        // and the writes are all there: the seeded rows less the acknowledged deletes, plus the acknowledged creates
        const net = out.reduce((n, o, i) => n + (o.res && o.res.status < 300 ? { GET: 0, POST: 1, DELETE: -1 }[requests[i].method as 'GET' | 'POST' | 'DELETE'] : 0), 0);
        expect(await s.prisma.post.count({ where: { authorId: user } })).toBe(CHURN_PAGE + net);
    }, 60_000);

    it('the processes logged nothing but busy answers', async () => {
        if (!servers) return;
        const logs = await servers.stop();
        servers = undefined;
        expect(unexpected(logs)).toEqual([]);
    });
}

describePg('several server processes on one database', () => {
    scaleOut({ provider: 'postgresql' }, requirePg);
});

// as the README and the demo set SQLite up
describe('several server processes on one SQLite file (WAL, busy timeout 5 s)', () => {
    scaleOut({ sqlite: { wal: true, timeout: 5000 } }, async () => true, 5000);
});

// as `new PrismaBetterSQLite3({ url })` opens it: rollback journal, better-sqlite3's busy timeout (5 s)
describe('several server processes on one SQLite file (rollback journal, default busy timeout)', () => {
    scaleOut({}, async () => true);
});
