import type { HttpRequest } from './http';
import { q } from './http';

/**
 * A mixed workload of RPC and REST requests whose effects can be checked afterwards: every write
 * carries a unique marker (a title, a comment, a target), so that the final tables can be compared
 * with the sum of the writes the API acknowledged.
 */

/** What a request is meant to get under the schema's policy when the database is healthy. */
export type Expectation = 'ok' | 'denied' | 'conflict';

export type OpKind =
    | 'rpc-read'
    | 'rest-read'
    | 'rpc-create'
    | 'rest-create'
    | 'rpc-increment'
    | 'rest-update'
    | 'move-rest-to-one'
    | 'move-rest-to-many'
    | 'move-rpc'
    | 'rest-delete'
    | 'tx-ok'
    | 'tx-fail'
    | 'denied'
    | 'unique';

/** Share of each kind in 100 requests (reads take the rounding remainder). */
export const MIX: Readonly<Record<OpKind, number>> = {
    'rpc-read': 12,
    'rest-read': 13,
    'rpc-create': 10,
    'rest-create': 10,
    'rpc-increment': 15,
    'rest-update': 5,
    'move-rest-to-one': 4,
    'move-rest-to-many': 3,
    'move-rpc': 3,
    'rest-delete': 5,
    'tx-ok': 6,
    'tx-fail': 5,
    denied: 5,
    unique: 4,
};

export const EXPECTATION: Readonly<Record<OpKind, Expectation>> = {
    'rpc-read': 'ok',
    'rest-read': 'ok',
    'rpc-create': 'ok',
    'rest-create': 'ok',
    'rpc-increment': 'ok',
    'rest-update': 'ok',
    'move-rest-to-one': 'ok',
    'move-rest-to-many': 'ok',
    'move-rpc': 'ok',
    'rest-delete': 'ok',
    'tx-ok': 'ok',
    'tx-fail': 'denied',
    denied: 'denied',
    unique: 'conflict',
};

/** How many requests of each kind make up `total`. */
export function planCounts(total: number): Record<OpKind, number> {
    const counts = {} as Record<OpKind, number>;
    let used = 0;
    for (const [kind, share] of Object.entries(MIX) as [OpKind, number][]) {
        counts[kind] = Math.floor((total * share) / 100);
        used += counts[kind];
    }
    counts['rpc-read'] += Math.ceil((total - used) / 2);
    counts['rest-read'] += Math.floor((total - used) / 2);
    return counts;
}

/** Per author: the rows the workload works on. */
export interface AuthorRows {
    id: number;
    email: string;
    /** Published; incremented by `rpc-increment` and `tx-ok`, never by anything that fails. */
    counterPost: number;
    /** Published; retitled by `rest-update`; others' attempts are denied. */
    titlePost: number;
    titlePostTitle: string;
    /** Comments move from `fromPost` to `toPost` (both the author's). */
    fromPost: number;
    toPost: number;
}

export interface Seed {
    authors: AuthorRows[];
    /** Comments to move, each by exactly one request. */
    movable: { id: number; author: number; from: number; to: number }[];
    /** Comments to delete, each by exactly one request. */
    deletable: { id: number; author: number }[];
    users: number;
    posts: number;
    comments: number;
}

export const AUTHORS = 4;

/** Seeds the rows the workload needs through the raw client (no policy). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function seedWorld(prisma: any, counts: Record<OpKind, number>): Promise<Seed> {
    const authors: AuthorRows[] = [];
    for (let k = 0; k < AUTHORS; k++) {
        const email = `author${k}@load.test`;
        const user = await prisma.user.create({ data: { email, name: `Author ${k}` } });
        const post = (title: string) => prisma.post.create({ data: { title, published: true, authorId: user.id } });
        const counter = await post(`counter ${k}`);
        const titled = await post(`title ${k}`);
        const from = await post(`from ${k}`);
        const to = await post(`to ${k}`);
        authors.push({ id: user.id, email, counterPost: counter.id, titlePost: titled.id, titlePostTitle: titled.title, fromPost: from.id, toPost: to.id });
    }
    const movable: Seed['movable'] = [];
    const moves = counts['move-rest-to-one'] + counts['move-rest-to-many'] + counts['move-rpc'];
    for (let i = 0; i < moves; i++) {
        const a = authors[i % AUTHORS];
        const c = await prisma.comment.create({ data: { content: `movable ${i}`, postId: a.fromPost } });
        movable.push({ id: c.id, author: a.id, from: a.fromPost, to: a.toPost });
    }
    const deletable: Seed['deletable'] = [];
    for (let i = 0; i < counts['rest-delete']; i++) {
        const a = authors[i % AUTHORS];
        const c = await prisma.comment.create({ data: { content: `deletable ${i}`, postId: a.titlePost } });
        deletable.push({ id: c.id, author: a.id });
    }
    return { authors, movable, deletable, users: AUTHORS, posts: AUTHORS * 4, comments: moves + counts['rest-delete'] };
}

/** One request of the workload, with what it is meant to do. */
export interface Op {
    kind: OpKind;
    /** Index within its kind: makes markers unique. */
    n: number;
    author: AuthorRows;
    request: HttpRequest;
    /** The marker title (creates, retitles), or the comment (moves, deletes). */
    marker?: string;
    comment?: number;
}

const rpcPost = (path: string, body: unknown, user: number): HttpRequest => ({ method: 'POST', path: `/api/rpc/${path}`, body, user });
const rpcPatch = (path: string, body: unknown, user: number): HttpRequest => ({ method: 'PATCH', path: `/api/rpc/${path}`, body, user });
const increment = (post: number) => ({ where: { id: post }, data: { viewCount: { increment: 1 } }, select: { id: true, viewCount: true } });

/** Builds one request; moves and deletes act as the author of the comment they take (`author`). */
type Builder = (n: number, a: AuthorRows, seed: Seed, other: AuthorRows) => Omit<Op, 'kind' | 'n' | 'author'> & { author?: AuthorRows };

/** How each kind of request is built. */
const BUILDERS: Readonly<Record<OpKind, Builder>> = {
    'rpc-read': (n, a) => {
        const reads: HttpRequest[] = [
            { method: 'GET', path: `/api/rpc/post/findMany${q({ where: { published: true }, include: { author: true }, take: 20 })}`, user: a.id },
            { method: 'GET', path: `/api/rpc/post/count${q({ where: { authorId: a.id } })}`, user: a.id },
            { method: 'GET', path: `/api/rpc/user/findUnique${q({ where: { id: a.id }, include: { posts: true } })}`, user: a.id },
        ];
        return { request: reads[n % reads.length] };
    },
    'rest-read': (n, a) => {
        const reads: HttpRequest[] = [
            { method: 'GET', path: `/api/rest/post?include=author&page[limit]=10`, user: a.id },
            { method: 'GET', path: `/api/rest/post/${a.counterPost}?include=comments`, user: a.id },
            { method: 'GET', path: `/api/rest/user/${a.id}/posts`, user: a.id },
        ];
        return { request: reads[n % reads.length] };
    },
    'rpc-create': (n, a) => {
        const marker = `rpc-create ${n}`;
        const data = { title: marker, published: n % 2 === 0, authorId: a.id, comments: { create: [{ content: `nested of ${marker}` }] } };
        return { marker, request: rpcPost('post/create', { data, include: { comments: true } }, a.id) };
    },
    'rest-create': (n, a) => {
        const marker = `rest-create ${n}`;
        const data = { type: 'post', attributes: { title: marker, published: true }, relationships: { author: { data: { type: 'user', id: a.id } } } };
        return { marker, request: { method: 'POST', path: '/api/rest/post', body: { data }, user: a.id } };
    },
    'rpc-increment': (_n, a) => ({ request: rpcPatch('post/update', increment(a.counterPost), a.id) }),
    'rest-update': (n, a) => {
        const marker = `rest-title ${n}`;
        const data = { type: 'post', id: String(a.titlePost), attributes: { title: marker } };
        return { marker, request: { method: 'PATCH', path: `/api/rest/post/${a.titlePost}`, body: { data }, user: a.id } };
    },
    'move-rest-to-one': (_n, _a, seed) => {
        const { c, author } = take(seed, seed.movable);
        return { author, comment: c.id, request: { method: 'PATCH', path: `/api/rest/comment/${c.id}/relationships/post`, body: { data: { type: 'post', id: c.to } }, user: author.id } };
    },
    'move-rest-to-many': (_n, _a, seed) => {
        const { c, author } = take(seed, seed.movable);
        const body = { data: [{ type: 'comment', id: c.id }] };
        return { author, comment: c.id, request: { method: 'POST', path: `/api/rest/post/${c.to}/relationships/comments`, body, user: author.id } };
    },
    'move-rpc': (_n, _a, seed) => {
        const { c, author } = take(seed, seed.movable);
        const body = { where: { id: c.to }, data: { comments: { connect: { id: c.id } } }, select: { id: true } };
        return { author, comment: c.id, request: rpcPatch('post/update', body, author.id) };
    },
    'rest-delete': (_n, _a, seed) => {
        const { c, author } = take(seed, seed.deletable);
        return { author, comment: c.id, request: { method: 'DELETE', path: `/api/rest/comment/${c.id}`, user: author.id } };
    },
    'tx-ok': (n, a) => {
        const marker = `tx-ok ${n}`;
        const body = [
            { model: 'post', op: 'create', args: { data: { title: `${marker} a`, authorId: a.id } } },
            { model: 'post', op: 'create', args: { data: { title: `${marker} b`, authorId: a.id } } },
            { model: 'post', op: 'update', args: increment(a.counterPost) },
        ];
        return { marker, request: rpcPost('$transaction/sequential', body, a.id) };
    },
    'tx-fail': (n, a, _seed, other) => {
        // creates, increments, then edits another author's post: denied, so everything is rolled back
        const marker = `tx-fail ${n}`;
        const body = [
            { model: 'post', op: 'create', args: { data: { title: marker, authorId: a.id } } },
            { model: 'post', op: 'update', args: increment(a.counterPost) },
            { model: 'post', op: 'update', args: { where: { id: other.titlePost }, data: { title: `stolen by ${marker}` } } },
        ];
        return { marker, request: rpcPost('$transaction/sequential', body, a.id) };
    },
    denied: (n, a, _seed, other) => {
        const marker = `denied ${n}`;
        if (n % 2 === 0) return { marker, request: rpcPatch('post/update', increment(other.counterPost), a.id) };
        const data = { type: 'post', attributes: { title: marker } };
        return { marker, request: { method: 'PATCH', path: `/api/rest/post/${other.titlePost}`, body: { data }, user: a.id } };
    },
    unique: (n, a, _seed, other) => {
        if (n % 2 === 0) return { request: rpcPost('user/create', { data: { email: other.email, name: `duplicate ${n}` } }, a.id) };
        const data = { type: 'user', attributes: { email: other.email, name: `duplicate ${n}` } };
        return { request: { method: 'POST', path: '/api/rest/user', body: { data }, user: a.id } };
    },
};

const taken = new WeakMap<object, number>();

/** The next unused comment of the list (each is acted on by exactly one request), with its author. */
function take<T extends { id: number; author: number }>(seed: Seed, list: T[]): { c: T; author: AuthorRows } {
    const i = taken.get(list) ?? 0;
    if (i >= list.length) throw new Error('workload: not enough seeded comments');
    taken.set(list, i + 1);
    return { c: list[i], author: seed.authors.find((a) => a.id === list[i].author)! };
}

/** A small deterministic PRNG (mulberry32), so that a failing order can be replayed. */
export function prng(seedValue: number): () => number {
    let t = seedValue >>> 0;
    return () => {
        t = (t + 0x6d2b79f5) >>> 0;
        let r = Math.imul(t ^ (t >>> 15), 1 | t);
        r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
        return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
    };
}

/** Builds every request of the plan, round-robin over the authors, in a shuffled order. */
export function buildOps(counts: Record<OpKind, number>, seed: Seed, random: () => number): Op[] {
    const ops: Op[] = [];
    for (const kind of Object.keys(counts) as OpKind[]) {
        for (let n = 0; n < counts[kind]; n++) {
            const author = seed.authors[n % AUTHORS];
            const other = seed.authors[(n + 1) % AUTHORS];
            ops.push({ kind, n, author, ...BUILDERS[kind](n, author, seed, other) });
        }
    }
    for (let i = ops.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [ops[i], ops[j]] = [ops[j], ops[i]];
    }
    return ops;
}
