import { sendFromWorker } from './client-worker';
import { errorBodyProblem, isAcceptableStatus, protocolOf, type HttpResponse } from './http';
import { USER_HEADER } from './server';
import { EXPECTATION, type Op, type OpKind, type Seed } from './workload';

/** What one request of the workload got. */
export interface Outcome {
    op: Op;
    res?: HttpResponse;
    /** The request itself failed (connection refused, reset …). */
    failure?: string;
    /** When it was sent, from the start of the run, and how long it took (ms). */
    at: number;
    ms: number;
}

/**
 * Sends every request with at most `concurrency` in flight (all at once when concurrency ≥ ops), from a
 * worker thread so that the clients do not share the server's event loop. Several origins (instances of
 * the API) get the requests in turn.
 */
export async function runOps(origin: string | string[], ops: Op[], concurrency: number): Promise<{ outcomes: Outcome[]; durationMs: number }> {
    const { out, durationMs } = await sendFromWorker(
        origin,
        ops.map((o) => o.request),
        concurrency,
        USER_HEADER,
    );
    const outcomes = out.map((sent, i): Outcome => {
        if (!sent.res) return { op: ops[i], failure: sent.failure, at: sent.at, ms: sent.ms };
        let body: unknown;
        try {
            body = sent.res.text ? JSON.parse(sent.res.text) : undefined;
        } catch {
            body = undefined;
        }
        return { op: ops[i], res: { ...sent.res, body }, at: sent.at, ms: sent.ms };
    });
    return { outcomes, durationMs };
}

export const acked = (o: Outcome): boolean => o.res !== undefined && o.res.status >= 200 && o.res.status < 300;

const EXPECTED_STATUS: Readonly<Record<ReturnType<typeof expectationOf>, (o: Outcome) => boolean>> = {
    ok: (o) => acked(o),
    denied: (o) => o.res?.status === 403,
    conflict: (o) => (protocolOf(o.op.request.path) === 'rpc' ? o.res?.status === 400 && o.res.body?.error?.code === 'P2002' : o.res?.status === 409),
};

function expectationOf(kind: OpKind) {
    return EXPECTATION[kind];
}

function label(o: Outcome): string {
    return `${o.op.kind} #${o.op.n} ${o.op.request.method} ${decodeURIComponent(o.op.request.path).slice(0, 120)}`;
}

/**
 * Problems with the answers: anything but 2xx, a clean 4xx or a clean 503; a request that did not get
 * what the policy says it should (a 503 is always allowed: the database may be busy); a success
 * without `data`; a failed transaction that does not name its failing operation.
 */
export function checkResponses(outcomes: Outcome[]): string[] {
    const problems: string[] = [];
    for (const o of outcomes) {
        if (!o.res) {
            problems.push(`${label(o)}: no response (${o.failure})`);
            continue;
        }
        const { status, body } = o.res;
        if (!isAcceptableStatus(status)) {
            problems.push(`${label(o)}: status ${status}: ${o.res.text.slice(0, 200)}`);
            continue;
        }
        if (status >= 400) {
            const problem = errorBodyProblem(protocolOf(o.op.request.path), o.res);
            if (problem) problems.push(`${label(o)}: ${problem}`);
            if (status === 503 && o.res.retryAfter !== '1') problems.push(`${label(o)}: 503 without Retry-After: 1`);
        } else if (status !== 204 && (body === undefined || body.data === undefined)) {
            problems.push(`${label(o)}: ${status} without data: ${o.res.text.slice(0, 200)}`);
        }
        if (status !== 503 && !EXPECTED_STATUS[expectationOf(o.op.kind)](o)) {
            problems.push(`${label(o)}: expected ${expectationOf(o.op.kind)}, got ${status}: ${o.res.text.slice(0, 200)}`);
        }
        if (o.op.kind === 'tx-fail' && status === 403 && body?.error?.failedOperation !== 2) {
            problems.push(`${label(o)}: the failed transaction names operation ${body?.error?.failedOperation}, not 2`);
        }
    }
    return problems;
}

interface PostRow {
    id: number;
    title: string;
    viewCount: number;
}
interface CommentRow {
    id: number;
    content: string;
    postId: number;
}

/**
 * Problems with the final tables, read with the raw client: every acknowledged write is there exactly
 * once, no unacknowledged write left a row or a change, counters equal the number of acknowledged
 * increments, and every relationship change that was acknowledged (and only those) took effect.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function checkState(prisma: any, seed: Seed, outcomes: Outcome[]): Promise<string[]> {
    const problems: string[] = [];
    const posts: PostRow[] = await prisma.post.findMany({ orderBy: { id: 'asc' } });
    const comments: CommentRow[] = await prisma.comment.findMany({ orderBy: { id: 'asc' } });
    const users: number = await prisma.user.count();
    const byTitle = groupBy(posts, (p) => p.title);
    const commentById = new Map(comments.map((c) => [c.id, c]));
    const rowsTitled = (title: string) => byTitle.get(title) ?? [];

    const expectRows = (o: Outcome, title: string, expected: number, id?: number) => {
        const rows = rowsTitled(title);
        if (rows.length !== expected) problems.push(`"${title}" (${o.res?.status ?? o.failure}): ${rows.length} rows, expected ${expected}`);
        else if (id !== undefined && expected === 1 && rows[0].id !== id) problems.push(`"${title}": row ${rows[0].id}, but the API answered id ${id}`);
    };

    let createdPosts = 0;
    let createdComments = 0;
    let deletedComments = 0;
    for (const o of outcomes) {
        const ok = acked(o);
        const { kind, marker } = o.op;
        if (kind === 'rpc-create') {
            expectRows(o, marker!, ok ? 1 : 0, ok ? o.res!.body.data.id : undefined);
            const nested = comments.filter((c) => c.content === `nested of ${marker}`);
            const owner = rowsTitled(marker!)[0]?.id;
            if (nested.length !== (ok ? 1 : 0) || (ok && nested[0].postId !== owner)) problems.push(`nested comment of "${marker}": ${JSON.stringify(nested)}`);
            createdPosts += ok ? 1 : 0;
            createdComments += ok ? 1 : 0;
        } else if (kind === 'rest-create') {
            expectRows(o, marker!, ok ? 1 : 0, ok ? Number(o.res!.body.data.id) : undefined);
            createdPosts += ok ? 1 : 0;
        } else if (kind === 'tx-ok') {
            expectRows(o, `${marker} a`, ok ? 1 : 0, ok ? o.res!.body.data[0].id : undefined);
            expectRows(o, `${marker} b`, ok ? 1 : 0, ok ? o.res!.body.data[1].id : undefined);
            createdPosts += ok ? 2 : 0;
        } else if (kind === 'tx-fail') {
            expectRows(o, marker!, 0);
            expectRows(o, `stolen by ${marker}`, 0);
        } else if (kind === 'denied') {
            expectRows(o, marker!, 0);
        } else if (kind === 'move-rest-to-one' || kind === 'move-rest-to-many' || kind === 'move-rpc') {
            const move = seed.movable.find((m) => m.id === o.op.comment)!;
            const postId = commentById.get(move.id)?.postId;
            if (postId !== (ok ? move.to : move.from)) problems.push(`comment ${move.id} (${kind}, ${o.res?.status}): on post ${postId}, expected ${ok ? move.to : move.from}`);
        } else if (kind === 'rest-delete') {
            if (commentById.has(o.op.comment!) === ok) problems.push(`comment ${o.op.comment} (delete answered ${o.res?.status}): ${ok ? 'still there' : 'gone'}`);
            deletedComments += ok ? 1 : 0;
        }
    }

    for (const a of seed.authors) {
        checkCounter(posts, a.counterPost, a.id, outcomes, problems);
        const titles = outcomes.filter((o) => o.op.kind === 'rest-update' && o.op.author.id === a.id && acked(o)).map((o) => o.op.marker!);
        const final = posts.find((p) => p.id === a.titlePost)?.title;
        if (titles.length === 0 ? final !== a.titlePostTitle : !titles.includes(final!)) {
            problems.push(`post ${a.titlePost}: title "${final}", expected ${titles.length ? `one of ${JSON.stringify(titles)}` : `"${a.titlePostTitle}"`}`);
        }
    }
    if (posts.length !== seed.posts + createdPosts) problems.push(`${posts.length} posts, expected ${seed.posts} seeded + ${createdPosts} acknowledged`);
    const expectedComments = seed.comments + createdComments - deletedComments;
    if (comments.length !== expectedComments) problems.push(`${comments.length} comments, expected ${expectedComments}`);
    if (users !== seed.users) problems.push(`${users} users, expected ${seed.users} (duplicates must be refused)`);
    return problems;
}

/** The counter equals the acknowledged increments, and no two increments saw the same value. */
function checkCounter(posts: PostRow[], postId: number, author: number, outcomes: Outcome[], problems: string[]): void {
    const seen: number[] = [];
    for (const o of outcomes) {
        if (o.op.author.id !== author || !acked(o)) continue;
        if (o.op.kind === 'rpc-increment') seen.push(o.res!.body.data.viewCount);
        if (o.op.kind === 'tx-ok') seen.push(o.res!.body.data[2].viewCount);
    }
    const value = posts.find((p) => p.id === postId)?.viewCount;
    if (value !== seen.length) problems.push(`post ${postId}: viewCount ${value}, expected ${seen.length} acknowledged increments`);
    const sorted = [...seen].sort((x, y) => x - y);
    if (sorted.some((v, i) => v !== i + 1)) problems.push(`post ${postId}: increments answered ${JSON.stringify(sorted)}, expected 1..${seen.length} once each`);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
    const map = new Map<string, T[]>();
    for (const item of items) {
        const k = key(item);
        map.set(k, [...(map.get(k) ?? []), item]);
    }
    return map;
}

/** Numbers for the documentation: statuses, latency percentiles, throughput. */
export interface LoadSummary {
    requests: number;
    concurrency: number;
    durationMs: number;
    perSecond: number;
    statuses: Record<string, number>;
    latencyMs: Latency;
    /** 503 answers by message (the database was busy or unavailable). */
    unavailable: Record<string, number>;
    /** Latency per kind of request. */
    byKind: Record<string, Latency & { n: number }>;
}

interface Latency {
    p50: number;
    p95: number;
    max: number;
}

function latency(ms: number[]): Latency {
    const sorted = [...ms].sort((a, b) => a - b);
    const pct = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
    return { p50: pct(0.5), p95: pct(0.95), max: Math.round(sorted[sorted.length - 1]) };
}

export function summarize(outcomes: Outcome[], durationMs: number, concurrency: number): LoadSummary {
    const statuses: Record<string, number> = {};
    for (const o of outcomes) {
        const key = o.res ? String(o.res.status) : 'no response';
        statuses[key] = (statuses[key] ?? 0) + 1;
    }
    const unavailable: Record<string, number> = {};
    for (const o of outcomes) {
        if (o.res?.status !== 503) continue;
        const message = String(o.res.body?.error?.message ?? o.res.body?.errors?.[0]?.detail);
        unavailable[message] = (unavailable[message] ?? 0) + 1;
    }
    const byKind: LoadSummary['byKind'] = {};
    for (const kind of new Set(outcomes.map((o) => o.op.kind))) {
        const ms = outcomes.filter((o) => o.op.kind === kind).map((o) => o.ms);
        byKind[kind] = { n: ms.length, ...latency(ms) };
    }
    return {
        requests: outcomes.length,
        concurrency,
        durationMs: Math.round(durationMs),
        perSecond: Math.round((outcomes.length * 1000) / durationMs),
        statuses,
        latencyMs: latency(outcomes.map((o) => o.ms)),
        unavailable,
        byKind,
    };
}
