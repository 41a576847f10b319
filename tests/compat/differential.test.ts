import fc from 'fast-check';
import { RestApiHandler as UpstreamRestApiHandler } from '@zenstackhq/server/api/rest';
import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api/rpc';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { HandleRequestFn } from '../../src/types';
import { seedDifferentialBlog } from './blog-seed';
import { MODELS, restRead, rpcQuery, rpcRead, type RestRead, type RpcRead } from './differential-arbitraries';
import { answer as answerTo, ENDPOINT, propertyTimeout, RUNS, SEED, unexplained } from './differential-run';
import { differencesOn, noteHiddenRecords, REST_DIFFERENCES, RPC_DIFFERENCES, withoutReferentialEqualities, type Answer, upstreamDropsIncludes } from './known-differences';
import { canonicalDocument, missingOrDifferent, upstreamAsOurs } from './rest-compare';
import { describePg } from '../support/postgres';
import { BLOG_SCHEMA } from '../support/schema';
import { bytesAsSpec, twoSides, type Side } from './sides';

/**
 * Differential, property-based test against `@zenstackhq/server` 2.22.3: generated JSON:API and RPC reads (filters
 * with every operator on every field type, through relationships and by id, sorts through relationships, pages,
 * nested includes, fieldsets; `where`/`orderBy`/`select`/`include`/`take`/`skip`/`cursor`/`distinct` for
 * findMany, findFirst, count, aggregate and groupBy), valid and borderline, sent to both handlers over identically
 * seeded SQLite databases as the same user (policies on). Both must answer the same status, and on success the
 * same data, except for the named, documented differences of `known-differences.ts`. A fixed seed and a bounded
 * number of runs keep it deterministic and short; DIFF_RUNS and DIFF_SEED explore further.
 */

const answer = (handler: HandleRequestFn, side: Side, method: string, path: string, query: Record<string, string>, user: number | undefined): Promise<Answer> => answerTo(handler, side, { method, path, query, user });

/** Ours first, then 2.22.3's, each on its own database of `sides`. */
const rest: HandleRequestFn[] = [RestApiHandler({ endpoint: ENDPOINT }), UpstreamRestApiHandler({ endpoint: ENDPOINT }) as unknown as HandleRequestFn];
const rpc: HandleRequestFn[] = [RPCApiHandler(), UpstreamRPCApiHandler() as unknown as HandleRequestFn];
let sides: Side[];

describe('beside @zenstackhq/server 2.22.3', () => {
    sides = twoSides(rest[0], rest[1], seedDifferentialBlog);
    describe('reads answered as 2.22.3 answers them (property-based)', () => readsAsUpstream(sides, RUNS));
    describe('error shapes of common bad reads', errorShapes);
});

/** The same reads on PostgreSQL (its own operators, collation and null order), fewer of them. */
describePg('beside @zenstackhq/server 2.22.3', () => {
    const pgSides = twoSides(rest[0], rest[1], seedDifferentialBlog, BLOG_SCHEMA, { provider: 'postgresql' });
    describe('reads answered as 2.22.3 answers them (property-based)', () => readsAsUpstream(pgSides, Math.ceil(RUNS / 6)));
});

function readsAsUpstream(sides: Side[], runs: number): void {
    const timeout = propertyTimeout(runs, 25);

    // which seeded records each user may not read (a cursor naming one is a named difference)
    beforeAll(async () => {
        const s = sides[0].s;
        if (!s) return;
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const ids = async (client: any, model: string) => ((await client[model].findMany({ select: { id: true } })) as { id: unknown }[]).map((r) => r.id);
        for (const user of [undefined, 1, 2, 3]) {
            for (const model of Object.keys(MODELS)) {
                const readable = new Set((await ids(s.enhance(user === undefined ? undefined : { id: user }), model)).map((id) => JSON.stringify(id)));
                noteHiddenRecords(user, model, (await ids(s.prisma, model)).filter((id) => !readable.has(JSON.stringify(id))));
            }
        }
    });

    it('JSON:API: collections, resources, related resources and relationships', async () => {
        await fc.assert(
            fc.asyncProperty(restRead, async (r: RestRead) => {
                if (!sides[0].s) return;
                const [ours, upstream] = [await answer(rest[0], sides[0], 'GET', r.path, r.query, r.user), await answer(rest[1], sides[1], 'GET', r.path, r.query, r.user)];
                const problems = unexplained(differencesOn(REST_DIFFERENCES, sides[0].s?.provider), r, ours, upstream, () => {
                    const mine = canonicalDocument(ours.body);
                    const { expected, extraIncluded } = upstreamAsOurs(mine, canonicalDocument(bytesAsSpec(upstream.body, 'document')), r.query);
                    const out = missingOrDifferent(mine, expected);
                    if (extraIncluded < 0 || (extraIncluded > 0 && !upstreamDropsIncludes(r.query))) out.push(`included: ${extraIncluded} more in ours`);
                    return out;
                });
                expect(problems).toEqual([]);
            }),
            { seed: SEED, numRuns: runs },
        );
    }, timeout);

    it('RPC: findMany, findFirst, count, aggregate, groupBy', async () => {
        await fc.assert(
            fc.asyncProperty(rpcRead, async (r: RpcRead) => {
                if (!sides[0].s) return;
                const query = rpcQuery(r.args);
                const path = `/${r.model}/${r.op}`;
                const [ours, upstream] = [await answer(rpc[0], sides[0], 'GET', path, query, r.user), await answer(rpc[1], sides[1], 'GET', path, query, r.user)];
                const problems = unexplained(RPC_DIFFERENCES, r, ours, upstream, () => {
                    const theirs = withoutReferentialEqualities(bytesAsSpec(upstream.body, 'data'));
                    return JSON.stringify(ours.body) === JSON.stringify(theirs) ? [] : [`${JSON.stringify(ours.body)} | ${JSON.stringify(theirs)}`];
                });
                expect(problems).toEqual([]);
            }),
            { seed: SEED, numRuns: runs },
        );
    }, timeout);
}

/**
 * Common bad requests: both sides answer the same status in their error format (ours with a message naming the
 * parameter or argument, which 2.22.3 often does not), except the 400s ours adds on purpose (docs/migrating.md §5).
 */
function errorShapes(): void {
    it.each<[string, string, Record<string, string>, number, number]>([
        ['an unknown filter field through a relationship', '/post', { 'filter[author][nope]': '1' }, 400, 400],
        ['an unknown sort field through a relationship', '/post', { sort: 'author.nope' }, 400, 400],
        ['an unknown include path', '/post', { include: 'nope' }, 400, 400],
        ['a filter value of the wrong type (Int)', '/post', { 'filter[viewCount]': 'abc' }, 400, 400],
        ['a filter value of the wrong type (Boolean)', '/post', { 'filter[published]': 'yes' }, 400, 400],
        ['a filter value of the wrong type (DateTime)', '/post', { 'filter[createdAt]': 'bad' }, 400, 400],
        ['an unknown field in a fieldset', '/post', { 'fields[post]': 'nope' }, 400, 400],
        ['an unknown type', '/nope', {}, 404, 404],
        ['differs on purpose: a fieldset of an unknown type (2.22.3 ignores it)', '/post', { 'fields[nope]': 'x' }, 400, 200],
        ['differs on purpose: a negative page[limit] (2.22.3 reads the default)', '/post', { 'page[limit]': '-1' }, 400, 200],
        ['differs on purpose: a page[offset] that is not an integer (2.22.3 reads 1.5 as 1)', '/post', { 'page[offset]': '1.5' }, 400, 200],
    ])('JSON:API: %s', async (_name, path, query, oursStatus, upstreamStatus) => {
        const [ours, upstream] = [await answer(rest[0], sides[0], 'GET', path, query, 1), await answer(rest[1], sides[1], 'GET', path, query, 1)];
        expect([ours.status, upstream.status]).toEqual([oursStatus, upstreamStatus]);
        expect(ours.body.errors[0]).toEqual(expect.objectContaining({ status: oursStatus, code: expect.any(String), detail: expect.any(String) }));
        if (ours.body.errors[0].source) expect(Object.keys(query).map((k) => ({ parameter: k }))).toContainEqual(ours.body.errors[0].source);
    });

    it.each<[string, string, unknown, number]>([
        ['an unknown field in where', '/post/findMany', { where: { nope: 1 } }, 400],
        ['an unknown filter operator', '/post/findMany', { where: { title: { nope: 'x' } } }, 400],
        ['an unknown orderBy field', '/post/findMany', { orderBy: { nope: 'asc' } }, 400],
        ['a value of the wrong type', '/post/findMany', { where: { viewCount: 'abc' } }, 400],
        ['an unknown include', '/post/findMany', { include: { nope: true } }, 400],
        ['a take that is not a number', '/post/findMany', { take: 'x' }, 400],
        ['an unknown model', '/nope/findMany', {}, 400],
        ['an unknown operation', '/post/nope', {}, 400],
    ])('RPC: %s', async (_name, path, args, status) => {
        const query = { q: JSON.stringify(args) };
        const [ours, upstream] = [await answer(rpc[0], sides[0], 'GET', path, query, 1), await answer(rpc[1], sides[1], 'GET', path, query, 1)];
        expect([ours.status, upstream.status]).toEqual([status, status]);
        expect(ours.body.error.message).toEqual(expect.any(String));
        // the ORM's last line, never its source excerpt (2.22.3 answers the whole message)
        expect(ours.body.error.message).not.toContain('invocation');
    });
}
