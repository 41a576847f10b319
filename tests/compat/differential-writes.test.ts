import type { ModelMeta } from '@zenstackhq/runtime';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { RestApiHandler as UpstreamRestApiHandler } from '@zenstackhq/server/api/rest';
import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api/rpc';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { HandleRequestFn } from '../../src/types';
import { describePg } from '../support/postgres';
import { BLOG_SCHEMA, type LoadOptions, type TestSchema } from '../support/schema';
import { AT, seedDifferentialBlog } from './blog-seed';
import { databaseState, resetDatabase } from './db-state';
import { answer, ENDPOINT, propertyTimeout, RUNS, SEED, unexplained, type Request } from './differential-run';
import { differencesOn, REST_WRITE_DIFFERENCES, RPC_WRITE_DIFFERENCES, sameState, withoutNow, withoutReferentialEqualities, type Answer } from './known-differences';
import { canonicalDocument, missingOrDifferent, upstreamAsOurs } from './rest-compare';
import { bytesAsSpec, twoSides, type Side } from './sides';
import { restWrite, rpcWrite, type RestWrite, type RpcWrite, type WritePools } from './write-arbitraries';
import { seedZoo, ZOO_SCHEMA } from './zoo-schema';
import { rpcQuery } from './differential-arbitraries';
import { encodeBody } from '../rpc/support';

/**
 * Differential, property-based test of writes against `@zenstackhq/server` 2.22.3: generated RPC writes (every
 * write operation, with nested writes) and JSON:API writes (resources and relationships), valid and borderline,
 * on the blog and on a schema of compound ids, self relations, many-to-many, field-level rules, `@omit` and
 * `@password` (`zoo-schema.ts`), as anonymous and as users the rules treat differently, on SQLite and (a fifth as
 * many cases) on PostgreSQL. Before each case both databases are reset to the same rows. Both sides must answer
 * the same status, the same data on success, and leave the same rows in every table, except for the named,
 * documented differences in `known-differences.ts`; and a write ours refuses must leave every table as it was
 * (nothing half-applied). Writes 2.22.3 applies in part when it fails are collected and printed (its defect; ours
 * is checked against it only by status).
 */

const WRITE_RUNS = Math.ceil(RUNS / 30);
// a write case resets both databases first: about 0.1 s on SQLite
const TIMEOUT = propertyTimeout(WRITE_RUNS, 250);
// on PostgreSQL fewer: its own isolation, errors, sequences and row order, not new kinds of write
const PG_WRITE_RUNS = Math.ceil(WRITE_RUNS / 5);
const PG_TIMEOUT = propertyTimeout(PG_WRITE_RUNS, 500);

const BLOG_POOLS: WritePools = {
    values: {
        String: ['New', 'Bob', ''],
        Int: [0, 3, 9],
        Boolean: [true, false],
        DateTime: [AT.toISOString()],
        Float: [2.5],
        BigInt: [7],
        Decimal: ['1.5'],
        Json: [{ a: 1 }],
        Role: ['ADMIN', 'USER'],
    },
    // a Date no seeded row holds: `deleteMany` with it once deleted every row the user could delete
    filterValues: { DateTime: [AT, new Date('2000-01-01T00:00:00.000Z')], Decimal: [new Decimal('12.345')], Bytes: [Buffer.from([1, 2, 3]), Buffer.alloc(0)] },
    ids: { user: [1, 2, 3, 9], profile: [1, 2, 7], post: [1, 2, 3, 4, 5, 8], comment: [1, 3, 4, 8], allTypes: ['typed', 'bare', 'fresh'] },
    users: [undefined, 1, 2, 3],
};

const ZOO_POOLS: WritePools = {
    values: { String: ['New', 'x', 'one'], Int: [0, 4], Boolean: [true, false], BigInt: [12], Decimal: ['2.5'], Json: [{ k: 2 }], Level: ['LOW', 'HIGH'] },
    ids: {
        user: [1, 2, 3, 8],
        group: [1, 2, 6],
        badge: [1, 2, 5],
        doc: [
            { ns: 'a', slug: 'one' },
            { ns: 'a', slug: 'two' },
            { ns: 'b', slug: 'one' },
            { ns: 'c', slug: 'new' },
        ],
        docTag: [
            { docNs: 'a', docSlug: 'one', tag: 'x' },
            { docNs: 'a', docSlug: 'two', tag: 'x' },
            { docNs: 'b', docSlug: 'one', tag: 'z' },
        ],
    },
    users: [undefined, 1, 2, 3],
};

/** Ours and 2.22.3's handlers, new for each schema: 2.22.3's JSON:API handler keeps the types of the first schema it serves. */
const restHandlers = (): HandleRequestFn[] => [RestApiHandler({ endpoint: ENDPOINT }), UpstreamRestApiHandler({ endpoint: ENDPOINT }) as unknown as HandleRequestFn];
const rpc: HandleRequestFn[] = [RPCApiHandler(), UpstreamRPCApiHandler() as unknown as HandleRequestFn];

/** Writes 2.22.3 left half-applied while answering an error (printed once per suite; not ours to fix). */
const upstreamHalfApplied: string[] = [];
afterAll(() => {
    // eslint-disable-next-line no-console
    if (upstreamHalfApplied.length) console.info(`2.22.3 changed rows while answering an error:\n${upstreamHalfApplied.slice(0, 10).join('\n')}`);
});

type State = Record<string, Record<string, unknown>[]>;

/** An RPC `createMany`/`createManyAndReturn`: rows that ZenStack may create one by one and concurrently (see below). */
function manyCreated(r: unknown): boolean {
    return typeof (r as { op?: unknown }).op === 'string' && (r as { op: string }).op.startsWith('createMany');
}

/**
 * `state` with the `id` of the rows not in `before` left out and those rows sorted: where a rule has to be checked on
 * each row, ZenStack creates the rows of a `createMany` with concurrent single creates, so which row takes which
 * autoincrement id varies from run to run, on either side (Prisma alone inserts them in order). A flat
 * `createMany` writes no row that refers to them.
 */
function idsOfNewRowsAside(state: State | undefined, before: State | undefined): State | undefined {
    if (!state || !before) return state;
    const out: State = {};
    for (const [table, rows] of Object.entries(state)) {
        const known = new Set((before[table] ?? []).map((row) => JSON.stringify(row.id)));
        const kept = rows.filter((row) => known.has(JSON.stringify(row.id)));
        const added = rows.filter((row) => !known.has(JSON.stringify(row.id))).map(({ id: _id, ...rest }) => JSON.stringify(rest));
        out[table] = [...kept, ...added.sort().map((row) => JSON.parse(row) as Record<string, unknown>)];
    }
    return out;
}

/**
 * Sends `request` to both sides from the same rows and returns what differs that no known difference explains:
 * status, data (`compareData`), and rows.
 */
async function differences<R extends { user: number | undefined }>(
    sides: Side[],
    handlers: HandleRequestFn[],
    seed: (s: TestSchema) => Promise<void>,
    r: R,
    request: Request,
    known: typeof RPC_WRITE_DIFFERENCES | typeof REST_WRITE_DIFFERENCES,
    compareData: (ours: Answer, upstream: Answer) => string[],
    learn?: (side: Side) => Promise<R>,
): Promise<string[]> {
    const answers: Answer[] = [];
    const states = [];
    let before;
    for (const [i, side] of sides.entries()) {
        const s = side.s as TestSchema;
        await resetDatabase(s, seed);
        if (i === 0) {
            before = await databaseState(s);
            // what the known differences need to know of the rows before the write (read without writing)
            if (learn) r = await learn(side);
        }
        answers.push(await answer(handlers[i], side, request));
        const after = await databaseState(s);
        // a write that happened and cannot be read back is a 403 RESULT_NOT_READABLE (docs/rpc.md): the only refusal after writing
        const written = answers[0].body?.error?.reason === 'RESULT_NOT_READABLE' || answers[0].body?.errors?.[0]?.reason === 'RESULT_NOT_READABLE';
        if (i === 0 && answers[0].status >= 400 && !written && !sameState(before, after)) return [`ours answered ${answers[0].status} and changed rows: ${JSON.stringify(answers[0].body)}`];
        states.push(after);
    }
    const [ours, upstream] = answers;
    const halfApplied = upstream.status >= 400 && upstream.status < 500 && upstream.body?.errors?.[0]?.reason !== 'RESULT_NOT_READABLE' && upstream.body?.error?.reason !== 'RESULT_NOT_READABLE' && !sameState(states[1], before);
    if (halfApplied) upstreamHalfApplied.push(`${JSON.stringify(request)} → ${upstream.status}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const list = known as any[];
    const problems = unexplained(list, r, ours, upstream, () => compareData(ours, upstream));
    const rowsExplained = list.some((d) => d.rows?.(r, ours, upstream) || (d.rowsToo && d.status?.(r, ours, upstream)));
    if (ours.status !== upstream.status) {
        const explained = list.filter((d) => d.status?.(r, ours, upstream));
        if (explained.some((d) => d.writesNothing) && !sameState(before, states[0])) problems.push(`ours answered ${ours.status} and changed rows, where it is to write nothing: ${JSON.stringify(ours.body)}`);
        if (explained.some((d) => d.sameRows) && !sameState(states[0], states[1])) problems.push(`rows differ after ${ours.status} | ${upstream.status}: ${JSON.stringify(states[0])} | ${JSON.stringify(states[1])}`);
    }
    // 2.22.3 kept part of a write it refused (reported above): ours, refusing it too, must have written nothing
    const [mine, theirs] = manyCreated(r) ? [idsOfNewRowsAside(states[0], before), idsOfNewRowsAside(states[1], before)] : states;
    const rowsDiffer = halfApplied ? !sameState(before, states[0]) : !sameState(mine, theirs);
    if (!rowsExplained && ours.status === upstream.status && rowsDiffer) problems.push(`rows differ after ${ours.status}: ${JSON.stringify(states[0])} | ${JSON.stringify(states[1])}`);
    return problems;
}

type FindUnique = Record<string, { findUnique(args: unknown): Promise<unknown> }>;

/** The single-record writes whose `where` names their record. */
const NAMING_WRITES: ReadonlySet<string> = new Set(['upsert', 'update', 'delete']);

/**
 * Whether `w` is an upsert, update or delete whose `where` names a record that is there but that its user cannot read:
 * asked of the plain client and of ZenStack's client for that user (its read rule), not of the handlers under test.
 */
async function targetHidden(side: Side, w: RpcWrite): Promise<boolean> {
    if (!NAMING_WRITES.has(w.op) || typeof w.args.where !== 'object' || w.args.where === null) return false;
    const s = side.s as TestSchema;
    const find = (client: unknown) => (client as FindUnique)[w.model].findUnique({ where: w.args.where }).catch(() => undefined);
    const there = await find(s.prisma);
    if (there === null || there === undefined) return false;
    return (await find(s.enhance(w.user === undefined ? undefined : { id: w.user }))) === null;
}

function rpcProperty(sides: Side[], seed: (s: TestSchema) => Promise<void>, pools: WritePools, runs: number) {
    return async () => {
        // PostgreSQL missing outside CI: describePg reported it
        if (!sides[0].s) return;
        const known = differencesOn(RPC_WRITE_DIFFERENCES, sides[0].s.provider);
        const meta = sides[0].s.modelMeta as ModelMeta;
        await fc.assert(
            fc.asyncProperty(rpcWrite(meta, pools), async (w: RpcWrite) => {
                const method = w.op.startsWith('delete') ? 'DELETE' : w.op === 'create' || w.op === 'createMany' || w.op === 'upsert' ? 'POST' : 'PUT';
                const path = `/${w.model}/${w.op}`;
                const request: Request = method === 'DELETE' ? { method, path, query: rpcQuery(w.args), user: w.user } : { method, path, body: encodeBody(w.args), user: w.user };
                const problems = await differences(
                    sides,
                    rpc,
                    seed,
                    w,
                    request,
                    known,
                    (ours, upstream) => {
                        const [mine, theirs] = [withoutNow(ours.body), withoutNow(withoutReferentialEqualities(bytesAsSpec(upstream.body, 'data')))];
                        return JSON.stringify(mine) === JSON.stringify(theirs) ? [] : [`${JSON.stringify(mine)} | ${JSON.stringify(theirs)}`];
                    },
                    async (side) => ({ ...w, hiddenTarget: await targetHidden(side, w) }),
                );
                expect(problems).toEqual([]);
            }),
            { seed: SEED, numRuns: runs },
        );
    };
}

function restProperty(sides: Side[], seed: (s: TestSchema) => Promise<void>, pools: WritePools, runs: number) {
    const rest = restHandlers();
    return async () => {
        if (!sides[0].s) return;
        const known = differencesOn(REST_WRITE_DIFFERENCES, sides[0].s.provider);
        const meta = sides[0].s.modelMeta as ModelMeta;
        await fc.assert(
            fc.asyncProperty(restWrite(meta, pools), async (w: RestWrite) => {
                const problems = await differences(sides, rest, seed, w, w, known, (ours, upstream) => {
                    if (ours.body === null || upstream.body === null) return ours.body === upstream.body ? [] : [`${JSON.stringify(ours.body)} | ${JSON.stringify(upstream.body)}`];
                    const mine = canonicalDocument(withoutNow(ours.body));
                    const { expected } = upstreamAsOurs(mine, canonicalDocument(withoutNow(bytesAsSpec(upstream.body, 'document'))), {});
                    return missingOrDifferent(mine, expected);
                });
                expect(problems).toEqual([]);
            }),
            { seed: SEED, numRuns: runs },
        );
    };
}

/** The four write properties, on the blog and on the zoo schema, on the database `options` names. */
function writeProperties(options: LoadOptions, runs: number, timeout: number): void {
    describe('the blog', () => {
        const sides = twoSides(rpc[0], rpc[1], seedDifferentialBlog, BLOG_SCHEMA, options);
        it('RPC: create, createMany, update, updateMany, upsert, delete, deleteMany with nested writes', rpcProperty(sides, seedDifferentialBlog, BLOG_POOLS, runs), timeout);
        it('JSON:API: resources and relationships created, updated and deleted', restProperty(sides, seedDifferentialBlog, BLOG_POOLS, runs), timeout);
    });
    describe('compound ids, self relations, many-to-many, field rules, @omit and @password', () => {
        const sides = twoSides(rpc[0], rpc[1], seedZoo, ZOO_SCHEMA, options);
        it('RPC: every write operation with nested writes', rpcProperty(sides, seedZoo, ZOO_POOLS, runs), timeout);
        it('JSON:API: resources and relationships', restProperty(sides, seedZoo, ZOO_POOLS, runs), timeout);
    });
}

describe('writes beside @zenstackhq/server 2.22.3 (property-based)', () => writeProperties({}, WRITE_RUNS, TIMEOUT));
describePg('writes beside @zenstackhq/server 2.22.3 (property-based)', () => writeProperties({ provider: 'postgresql' }, PG_WRITE_RUNS, PG_TIMEOUT));
