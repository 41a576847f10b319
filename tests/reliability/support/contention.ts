import type { HttpRequest, HttpResponse } from './http';
import { errorBodyProblem, protocolOf } from './http';

/**
 * Requests that race for the same rows, in groups: every member of a group is sent at once, and
 * consecutive members go to different server processes (`scale-out.test.ts` sends them round robin).
 * Each group says which statuses its members may get (a 503 "try again" is always allowed) and checks,
 * from the final tables, that the acknowledged writes, and only they, took effect, exactly once.
 */

/** One request of a group, and the statuses it may get besides 503. */
export interface Member {
    label: string;
    request: HttpRequest;
    allowed: readonly number[];
}

export interface Group {
    name: string;
    members: Member[];
    /** Problems with the final tables, given each member's answer (in order; undefined: none). */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    check(answers: (HttpResponse | undefined)[], db: any): Promise<string[]>;
}

const rpc = (method: HttpRequest['method'], path: string, body: unknown, user?: number): HttpRequest => ({ method, path: `/api/rpc/${path}`, body, user });
const rest = (method: HttpRequest['method'], path: string, body: unknown, user?: number): HttpRequest => ({ method, path: `/api/rest/${path}`, body, user });
const ok = (res: HttpResponse | undefined): boolean => res !== undefined && res.status >= 200 && res.status < 300;
const RPC_CONFLICT = 400;
const REST_CONFLICT = 409;

/** The rows the groups race for, made through the raw client. */
export interface ContentionSeed {
    author: number;
    reader: number;
    /** The author's published posts: comments start on the first and move to the others. */
    posts: number[];
    /** Per group of moves: a comment on posts[0]. */
    movable: number[];
    /** Per group of a delete racing updates: a comment on posts[0], and its content. */
    doomed: { id: number; content: string }[];
    /** Per group of a post deletion racing new comments on it: a published post of the author. */
    doomedPosts: number[];
    /** Per user whose to-many relationship is replaced: the allTypes rows the lists take from, and the initial member. */
    owners: { user: number; pool: string[]; initial: string }[];
    /** Per group of profile upserts: a user without a profile. */
    profiled: number[];
    /** The author's counter post (incremented by sequential transactions). */
    counter: number;
}

const GROUPS = 4;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function seedContention(prisma: any): Promise<ContentionSeed> {
    const author = (await prisma.user.create({ data: { email: 'author@contention.test' } })).id;
    const reader = (await prisma.user.create({ data: { email: 'reader@contention.test' } })).id;
    const post = async (title: string) => (await prisma.post.create({ data: { title, published: true, authorId: author } })).id as number;
    const posts = [await post('home'), await post('target a'), await post('target b'), await post('target c')];
    const comment = async (content: string) => (await prisma.comment.create({ data: { content, postId: posts[0] } })).id as number;
    const movable: number[] = [];
    const doomed: ContentionSeed['doomed'] = [];
    const doomedPosts: number[] = [];
    const profiled: number[] = [];
    for (let g = 0; g < GROUPS; g++) {
        profiled.push((await prisma.user.create({ data: { email: `profiled-${g}@contention.test` } })).id);
        movable.push(await comment(`movable ${g}`));
        doomed.push({ id: await comment(`doomed ${g}`), content: `doomed ${g}` });
        doomedPosts.push(await post(`doomed post ${g}`));
    }
    const owners: ContentionSeed['owners'] = [];
    for (const user of [author, reader]) {
        const pool = Array.from({ length: 6 }, (_, i) => `owned-${user}-${i}`);
        for (const id of pool) await prisma.allTypes.create({ data: { id } });
        await prisma.allTypes.update({ where: { id: pool[0] }, data: { ownerId: user } });
        owners.push({ user, pool, initial: pool[0] });
    }
    return { author, reader, posts, movable, doomed, doomedPosts, profiled, owners, counter: await post('counter') };
}

/**
 * The check of upserts of one key that each increment it: one row when any was acknowledged, its counter equal to
 * the acknowledged upserts, and each of them answered a different value (`answered` reads it from an answer).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function countedOnce(key: string, acked: (HttpResponse | undefined)[], db: any, answered: (a: HttpResponse) => number): Promise<string[]> {
    const rows = await db.allTypes.findMany({ where: { id: key } });
    const seen = acked.map((a) => answered(a!)).sort((a, b) => a - b);
    const problems: string[] = [];
    if (rows.length !== (acked.length > 0 ? 1 : 0)) problems.push(`${rows.length} rows for ${acked.length} acknowledged upserts`);
    if (rows.length === 1 && rows[0].int !== acked.length) problems.push(`int ${rows[0].int}, expected ${acked.length} acknowledged upserts`);
    if (seen.join() !== acked.map((_, i) => i + 1).join()) problems.push(`the upserts answered ${seen.join()}`);
    return problems;
}

/** Upserts of one key with an increment: every acknowledged one counted once, each saw its own value. */
function rpcUpserts(key: string, n: number, user: number): Group {
    const args = { where: { id: key }, create: { id: key, int: 1 }, update: { int: { increment: 1 } }, select: { id: true, int: true } };
    return {
        name: `RPC upserts of "${key}"`,
        members: Array.from({ length: n }, (_, i) => ({ label: `upsert ${i}`, request: rpc('POST', 'allTypes/upsert', args, user), allowed: [200] })),
        check: (answers, db) => countedOnce(key, answers.filter(ok), db, (a) => a.body?.data?.int),
    };
}

/** `$transaction/sequential` requests each upserting one key with an increment: as `rpcUpserts`, in transactions. */
function sequentialUpserts(key: string, n: number, user: number): Group {
    const body = [{ model: 'allTypes', op: 'upsert', args: { where: { id: key }, create: { id: key, int: 1 }, update: { int: { increment: 1 } }, select: { int: true } } }];
    return {
        name: `sequential upserts of "${key}"`,
        members: Array.from({ length: n }, (_, i) => ({ label: `transaction ${i}`, request: rpc('POST', '$transaction/sequential', body, user), allowed: [200] })),
        check: (answers, db) => countedOnce(key, answers.filter(ok), db, (a) => a.body?.data?.[0]?.int),
    };
}

/** JSON:API upserts of one key, each with its own marker: one row, carrying an acknowledged marker. */
function restUpserts(key: string, n: number, user: number): Group {
    const body = (i: number) => ({ data: { type: 'allTypes', id: key, attributes: { string: `${key} #${i}` } }, meta: { operation: 'upsert', matchFields: ['id'] } });
    return {
        name: `JSON:API upserts of "${key}"`,
        members: Array.from({ length: n }, (_, i) => ({ label: `upsert ${i}`, request: rest('POST', 'allTypes', body(i), user), allowed: [201] })),
        async check(answers, db) {
            const markers = answers.map((a, i) => (ok(a) ? `${key} #${i}` : undefined)).filter(Boolean);
            const rows = await db.allTypes.findMany({ where: { id: key } });
            if (rows.length !== (markers.length > 0 ? 1 : 0)) return [`${rows.length} rows for ${markers.length} acknowledged upserts`];
            return rows.length === 1 && !markers.includes(rows[0].string) ? [`string "${rows[0].string}", not an acknowledged one`] : [];
        },
    };
}

/** Sign-ups with one new e-mail through both protocols (by a signed-in user, who may read users back): exactly one is acknowledged and stored. */
function signUps(email: string, n: number, user: number): Group {
    const member = (i: number): Member =>
        i % 2 === 0
            ? { label: `RPC sign-up ${i}`, request: rpc('POST', 'user/create', { data: { email, name: `${email} #${i}` } }, user), allowed: [201, RPC_CONFLICT] }
            : { label: `JSON:API sign-up ${i}`, request: rest('POST', 'user', { data: { type: 'user', attributes: { email, name: `${email} #${i}` } } }, user), allowed: [201, REST_CONFLICT] };
    return {
        name: `sign-ups as ${email}`,
        members: Array.from({ length: n }, (_, i) => member(i)),
        async check(answers, db) {
            const problems: string[] = [];
            const acked = answers.map((a, i) => (ok(a) ? i : -1)).filter((i) => i >= 0);
            answers.forEach((a, i) => {
                if (i % 2 === 0 && a?.status === RPC_CONFLICT && a.body?.error?.code !== 'P2002') problems.push(`sign-up ${i}: 400 but not P2002: ${a.text.slice(0, 200)}`);
            });
            const refused = answers.filter((a) => a?.status === RPC_CONFLICT || a?.status === REST_CONFLICT).length;
            if (acked.length > 1) problems.push(`${acked.length} sign-ups acknowledged`);
            if (acked.length === 0 && refused > 0) problems.push('refused as duplicates, but none was acknowledged');
            const rows = await db.user.findMany({ where: { email } });
            if (rows.length !== acked.length) problems.push(`${rows.length} users for ${acked.length} acknowledged sign-ups`);
            else if (rows.length === 1 && rows[0].name !== `${email} #${acked[0]}`) problems.push(`stored "${rows[0].name}", acknowledged #${acked[0]}`);
            return problems;
        },
    };
}

/** Replacements of one user's to-many relationship with different lists: the result is one acknowledged list. */
function replacements(owner: ContentionSeed['owners'][number], n: number): Group {
    const { user, pool, initial } = owner;
    const list = (i: number) => [pool[i % pool.length], pool[(i + 2) % pool.length]].sort();
    const member = (i: number): Member =>
        i % 2 === 0
            ? { label: `JSON:API replace ${i}`, request: rest('PATCH', `user/${user}/relationships/allTypes`, { data: list(i).map((id) => ({ type: 'allTypes', id })) }, user), allowed: [200] }
            : { label: `RPC set ${i}`, request: rpc('PUT', 'user/update', { where: { id: user }, data: { allTypes: { set: list(i).map((id) => ({ id })) } }, select: { id: true } }, user), allowed: [200] };
    return {
        name: `replacements of user ${user}'s allTypes`,
        members: Array.from({ length: n }, (_, i) => member(i)),
        async check(answers, db) {
            const granted = answers.map((a, i) => (ok(a) ? list(i).join() : undefined)).filter((l): l is string => l !== undefined);
            const rows: { id: string }[] = await db.allTypes.findMany({ where: { ownerId: user }, orderBy: { id: 'asc' } });
            const result = rows.map((r) => r.id).join();
            const expected = granted.length > 0 ? granted : [initial];
            return expected.includes(result) ? [] : [`members ${result}, expected one of ${JSON.stringify(expected)}`];
        },
    };
}

/** Moves of one comment to different posts at once, one per way of moving it: it ends on an acknowledged target. */
function moves(seed: ContentionSeed, comment: number): Group {
    const [home, a, b, c] = seed.posts;
    const targets = [a, b, c];
    const members: Member[] = [
        { label: `JSON:API to-one → ${a}`, request: rest('PATCH', `comment/${comment}/relationships/post`, { data: { type: 'post', id: String(a) } }, seed.author), allowed: [200] },
        { label: `RPC connect → ${b}`, request: rpc('PUT', 'comment/update', { where: { id: comment }, data: { post: { connect: { id: b } } }, select: { id: true } }, seed.author), allowed: [200] },
        { label: `JSON:API to-many add → ${c}`, request: rest('POST', `post/${c}/relationships/comments`, { data: [{ type: 'comment', id: String(comment) }] }, seed.author), allowed: [200] },
    ];
    return {
        name: `moves of comment ${comment}`,
        members,
        async check(answers, db) {
            const granted = targets.filter((_, i) => ok(answers[i]));
            const row = await db.comment.findUnique({ where: { id: comment } });
            const expected = granted.length > 0 ? granted : [home];
            return expected.includes(row?.postId) ? [] : [`on post ${row?.postId}, expected one of ${expected.join(', ')}`];
        },
    };
}

/** A delete racing updates and a move of the same comment: deleted if acknowledged, else carrying acknowledged changes. */
function deleteVersusUpdates(seed: ContentionSeed, doomed: ContentionSeed['doomed'][number]): Group {
    const { id } = doomed;
    const marker = (i: number) => `update ${i} of ${id}`;
    const members: Member[] = [
        { label: 'JSON:API delete', request: rest('DELETE', `comment/${id}`, undefined, seed.author), allowed: [204] },
        { label: 'RPC update', request: rpc('PUT', 'comment/update', { where: { id }, data: { content: marker(1) }, select: { id: true } }, seed.author), allowed: [200, 404] },
        { label: 'JSON:API update', request: rest('PATCH', `comment/${id}`, { data: { type: 'comment', id: String(id), attributes: { content: marker(2) } } }, seed.author), allowed: [200, 404] },
        // a connect of a comment that is not there is a 403 (ACCESS_POLICY_VIOLATION), also without a race
        { label: 'RPC move', request: rpc('PUT', 'post/update', { where: { id: seed.posts[1] }, data: { comments: { connect: { id } } }, select: { id: true } }, seed.author), allowed: [200, 403] },
    ];
    return {
        name: `a delete of comment ${id} racing its updates`,
        members,
        async check(answers, db) {
            const row = await db.comment.findUnique({ where: { id } });
            if (ok(answers[0])) return row ? ['the delete was acknowledged, but the comment is still there'] : [];
            if (!row) return ['the delete was not acknowledged, but the comment is gone'];
            const problems: string[] = [];
            const contents = [doomed.content, ...[1, 2].filter((i) => ok(answers[i])).map(marker)];
            if (!contents.includes(row.content)) problems.push(`content "${row.content}", expected one of ${JSON.stringify(contents)}`);
            if (row.postId !== (ok(answers[3]) ? seed.posts[1] : seed.posts[0])) problems.push(`on post ${row.postId} (move answered ${answers[3]?.status})`);
            answers.slice(1).forEach((a, i) => {
                if (a && a.status >= 400 && a.status !== 503) problems.push(`${members[i + 1].label}: ${a.status}, but the comment was not deleted`);
            });
            return problems;
        },
    };
}

/** A post deleted while comments are added to it: the post and every comment on it are gone. */
function deletePostVersusComments(seed: ContentionSeed, post: number): Group {
    const content = (i: number) => `late comment ${i} on ${post}`;
    const members: Member[] = [
        { label: 'JSON:API delete post', request: rest('DELETE', `post/${post}`, undefined, seed.author), allowed: [204] },
        // for a post that is not there: 404 (RPC P2025; JSON:API "related post not found"), and 400 P2003 for the key;
        // the same for a post deleted between the request's check and its insert (deleted-reference.test.ts)
        { label: 'RPC comment', request: rpc('POST', 'comment/create', { data: { content: content(1), post: { connect: { id: post } } }, select: { id: true } }, seed.reader), allowed: [201, 404] },
        { label: 'JSON:API comment', request: rest('POST', 'comment', { data: { type: 'comment', attributes: { content: content(2) }, relationships: { post: { data: { type: 'post', id: String(post) } } } } }, seed.reader), allowed: [201, 404] },
        { label: 'RPC comment with the key', request: rpc('POST', 'comment/create', { data: { content: content(3), postId: post }, select: { id: true } }, seed.reader), allowed: [201, 400] },
    ];
    return {
        name: `a delete of post ${post} racing new comments on it`,
        members,
        async check(answers, db) {
            const problems: string[] = [];
            for (const i of [1, 2, 3]) {
                const a = answers[i];
                const code = a?.body?.error?.code ?? a?.body?.errors?.[0]?.ormCode;
                if (a?.status === 400 && code !== 'P2003') problems.push(`${members[i].label}: 400 ${code}, not a foreign key violation`);
            }
            const deleted = ok(answers[0]);
            if (deleted !== ((await db.post.count({ where: { id: post } })) === 0)) problems.push(`post ${post}: delete answered ${answers[0]?.status}`);
            const left: { content: string }[] = await db.comment.findMany({ where: { content: { in: [1, 2, 3].map(content) } } });
            for (const c of left) {
                const i = [1, 2, 3].find((k) => content(k) === c.content)!;
                if (deleted || !ok(answers[i])) problems.push(`"${c.content}" stored (post delete ${answers[0]?.status}, create ${answers[i]?.status})`);
            }
            if (!deleted) {
                for (const i of [1, 2, 3]) if (ok(answers[i]) && !left.some((c) => c.content === content(i))) problems.push(`"${content(i)}" acknowledged but missing`);
            }
            return problems;
        },
    };
}

/** `$transaction/sequential` requests that each create a post and increment one counter: all or nothing, counted once. */
function sequentialIncrements(seed: ContentionSeed, n: number): Group {
    const title = (i: number) => `sequential ${i}`;
    const body = (i: number) => [
        { model: 'post', op: 'create', args: { data: { title: title(i), authorId: seed.author } } },
        { model: 'post', op: 'update', args: { where: { id: seed.counter }, data: { viewCount: { increment: 1 } }, select: { viewCount: true } } },
    ];
    return {
        name: `sequential transactions incrementing post ${seed.counter}`,
        members: Array.from({ length: n }, (_, i) => ({ label: `transaction ${i}`, request: rpc('POST', '$transaction/sequential', body(i), seed.author), allowed: [200] })),
        async check(answers, db) {
            const problems: string[] = [];
            const acked = answers.map((a, i) => (ok(a) ? i : -1)).filter((i) => i >= 0);
            const counter = await db.post.findUnique({ where: { id: seed.counter } });
            if (counter.viewCount !== acked.length) problems.push(`viewCount ${counter.viewCount}, expected ${acked.length} acknowledged`);
            const seen = acked.map((i) => answers[i]!.body?.data?.[1]?.viewCount).sort((a, b) => a - b);
            if (seen.join() !== acked.map((_, k) => k + 1).join()) problems.push(`the increments answered ${seen.join()}`);
            for (let i = 0; i < n; i++) {
                const rows = await db.post.count({ where: { title: title(i) } });
                if (rows !== (ok(answers[i]) ? 1 : 0)) problems.push(`"${title(i)}": ${rows} rows (answered ${answers[i]?.status})`);
            }
            return problems;
        },
    };
}

/** Creates that each connect a user by e-mail or create it (`connectOrCreate`), at once: one user, every create linked to it. */
function connectOrCreates(email: string, n: number, user: number): Group {
    const id = (i: number) => `${email} #${i}`;
    const args = (i: number) => ({ data: { id: id(i), owner: { connectOrCreate: { where: { email }, create: { email } } } }, select: { id: true, ownerId: true } });
    return {
        name: `connectOrCreate of ${email}`,
        members: Array.from({ length: n }, (_, i) => ({ label: `create ${i}`, request: rpc('POST', 'allTypes/create', args(i), user), allowed: [201] })),
        async check(answers, db) {
            const owners = await db.user.findMany({ where: { email } });
            const acked = answers.map((a, i) => (ok(a) ? id(i) : undefined)).filter((x): x is string => x !== undefined);
            const rows: { id: string; ownerId: number | null }[] = await db.allTypes.findMany({ where: { id: { startsWith: email } } });
            const problems: string[] = [];
            if (owners.length !== (acked.length > 0 ? 1 : 0)) problems.push(`${owners.length} users for ${acked.length} acknowledged creates`);
            if (rows.map((r) => r.id).sort().join() !== acked.sort().join()) problems.push(`rows ${rows.map((r) => r.id).join()}, acknowledged ${acked.join()}`);
            if (rows.some((r) => r.ownerId !== owners[0]?.id)) problems.push(`owners ${rows.map((r) => r.ownerId).join()}`);
            return problems;
        },
    };
}

/** Updates of one user that each upsert its profile (a nested `upsert` of a one-to-one relation): one profile, an acknowledged value. */
function profileUpserts(user: number, n: number): Group {
    const gender = (i: number) => `gender ${i} of ${user}`;
    const args = (i: number) => ({ where: { id: user }, data: { profile: { upsert: { create: { gender: gender(i) }, update: { gender: gender(i) } } } }, select: { id: true } });
    return {
        name: `profile upserts of user ${user}`,
        members: Array.from({ length: n }, (_, i) => ({ label: `update ${i}`, request: rpc('PUT', 'user/update', args(i), user), allowed: [200] })),
        async check(answers, db) {
            const acked = answers.map((a, i) => (ok(a) ? gender(i) : undefined)).filter((x): x is string => x !== undefined);
            const rows: { gender: string }[] = await db.profile.findMany({ where: { userId: user } });
            if (rows.length !== (acked.length > 0 ? 1 : 0)) return [`${rows.length} profiles for ${acked.length} acknowledged upserts`];
            return rows.length === 1 && !acked.includes(rows[0].gender) ? [`gender "${rows[0].gender}", not an acknowledged one`] : [];
        },
    };
}

/** Every group of the contended workload. */
export function contentionGroups(seed: ContentionSeed): Group[] {
    const groups: Group[] = [];
    for (let g = 0; g < GROUPS; g++) {
        groups.push(rpcUpserts(`hot-rpc-${g}`, 6, seed.reader));
        groups.push(restUpserts(`hot-rest-${g}`, 6, seed.reader));
        groups.push(signUps(`signup-${g}@contention.test`, 4, seed.reader));
        groups.push(moves(seed, seed.movable[g]));
        groups.push(deleteVersusUpdates(seed, seed.doomed[g]));
        groups.push(deletePostVersusComments(seed, seed.doomedPosts[g]));
        groups.push(connectOrCreates(`owner-${g}@contention.test`, 4, seed.reader));
        groups.push(profileUpserts(seed.profiled[g], 4));
        groups.push(sequentialUpserts(`hot-sequential-${g}`, 4, seed.reader));
    }
    for (const owner of seed.owners) groups.push(replacements(owner, 8));
    groups.push(sequentialIncrements(seed, 12));
    return groups;
}

/** Problems with the answers themselves: a status the member may not get, an unclean error, a 503 without Retry-After. */
export function answerProblems(group: Group, answers: (HttpResponse | undefined)[]): string[] {
    const problems: string[] = [];
    group.members.forEach((m, i) => {
        const a = answers[i];
        const where = `${group.name}, ${m.label}`;
        if (!a) return problems.push(`${where}: no answer`);
        if (a.status >= 400) {
            const unclean = errorBodyProblem(protocolOf(m.request.path), a);
            if (unclean) problems.push(`${where}: ${unclean}`);
        }
        if (a.status === 503) {
            if (a.retryAfter !== '1') problems.push(`${where}: 503 without Retry-After: 1`);
        } else if (!m.allowed.includes(a.status)) {
            problems.push(`${where}: ${a.status}, expected ${m.allowed.join('/')}: ${a.text.slice(0, 300)}`);
        }
        return undefined;
    });
    return problems;
}
