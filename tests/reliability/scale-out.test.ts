import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { sendFromWorker } from './support/client-worker';
import { answerProblems, contentionGroups, seedContention } from './support/contention';
import type { HttpResponse } from './support/http';
import { acked, checkResponses, checkState, runOps, summarize } from './support/load';
import { USER_HEADER } from './support/server';
import { startServerProcesses, type ServerProcesses } from './support/server-processes';
import { buildOps, EXPECTATION, planCounts, prng, seedWorld } from './support/workload';

/**
 * The README's scale-out set-up: several server processes, each with its own Prisma client and pool, on one
 * PostgreSQL database, behind a load balancer (here the test client, round robin). Nothing may depend on
 * one process seeing all requests: first the mixed load of `load.test.ts`, then requests racing for the same
 * rows (upserts and sign-ups of one key, moves, replacements, deletes against updates and new comments,
 * sequential transactions on one counter), each group spread over the processes. Every answer must be a 2xx,
 * a clean 4xx or a 503 with Retry-After, and the tables must hold every acknowledged write exactly once.
 */

const PROCESSES = 3;
const REQUESTS = 150;
const SEED = 20240611;

/** What a server process logged that a healthy run should not make it log (503s are logged, as errors). */
const unexpected = (logs: string[][]) => logs.flat().filter((l) => !l.startsWith('db-unavailable') && !l.startsWith('service-unavailable'));

describePg('several server processes on one database', () => {
    let s: TestSchema | undefined;
    let servers: ServerProcesses | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        servers = await startServerProcesses(s, PROCESSES);
    }, 120_000);
    afterAll(async () => {
        await servers?.stop().catch(() => undefined);
        await s?.cleanup();
    });

    it(`${REQUESTS} mixed requests, round robin over ${PROCESSES} processes: clean answers, nothing lost, nothing duplicated`, async () => {
        if (!s || !servers) return;
        const counts = planCounts(REQUESTS);
        const seed = await seedWorld(s.prisma, counts);
        const ops = buildOps(counts, seed, prng(SEED));
        const { outcomes, durationMs } = await runOps(servers.origins, ops, REQUESTS);
        // eslint-disable-next-line no-console
        console.log(`scale-out load ${JSON.stringify({ ...summarize(outcomes, durationMs, REQUESTS), byKind: undefined })}`);
        expect(checkResponses(outcomes)).toEqual([]);
        const succeeded = new Set(outcomes.filter(acked).map((o) => o.op.kind));
        expect(Object.keys(counts).filter((k) => EXPECTATION[k as keyof typeof EXPECTATION] === 'ok' && !succeeded.has(k as never))).toEqual([]);
        expect(await checkState(s.prisma, seed, outcomes)).toEqual([]);
    }, 120_000);

    it(`requests racing for the same rows, each group spread over the ${PROCESSES} processes: only acknowledged writes, each once`, async () => {
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
        console.log(`scale-out contention: ${requests.length} requests in ${groups.length} groups, ${JSON.stringify(statuses)}`);
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

    it('the processes logged nothing but busy answers', async () => {
        if (!servers) return;
        const logs = await servers.stop();
        servers = undefined;
        expect(unexpected(logs)).toEqual([]);
    });
});
