/**
 * The benchmark's data set: a deterministic blog of 100 users, 2,000 posts and 10,000 comments.
 * Same seed, same rows, every run (a small xorshift generator, no Math.random, fixed dates).
 */

export const SEED_VERSION = 2;
export const USERS = 100;
export const POSTS = 2000;
export const COMMENTS = 10000;
/** The signed-in user of every scenario; owns posts 1, 101, 201, ... (authorId = (id - 1) % USERS + 1). */
export const BENCH_USER_ID = 1;

function generator(seed: number): () => number {
    let state = seed >>> 0 || 1;
    return () => {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        return state / 0x100000000;
    };
}

const WORDS = (
    'access policy schema model query relation filter sort page include resource document server client ' +
    'handler adapter record field value table index cache request response latency throughput profile'
).split(' ');

function sentence(random: () => number, min: number, max: number): string {
    const count = min + Math.floor(random() * (max - min + 1));
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
    const text = words.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
}

const EPOCH = Date.UTC(2024, 0, 1);

export interface SeedRows {
    users: { id: number; email: string; name: string; role: 'USER' | 'ADMIN' }[];
    profiles: { id: number; userId: number; gender: string }[];
    posts: { id: number; createdAt: Date; title: string; published: boolean; viewCount: number; authorId: number }[];
    comments: { id: number; content: string; postId: number }[];
}

export function authorOf(postId: number): number {
    return ((postId - 1) % USERS) + 1;
}

/** Every row of the data set, in insertion order. */
export function seedRows(): SeedRows {
    const random = generator(20240101);
    const users = Array.from({ length: USERS }, (_, i) => ({
        id: i + 1,
        email: `user${i + 1}@example.com`,
        name: `User ${i + 1}`,
        role: (i === 0 ? 'ADMIN' : 'USER') as 'USER' | 'ADMIN',
    }));
    const profiles = users.map((u) => ({ id: u.id, userId: u.id, gender: u.id % 2 ? 'female' : 'male' }));
    const posts = Array.from({ length: POSTS }, (_, i) => ({
        id: i + 1,
        createdAt: new Date(EPOCH + i * 3_600_000),
        title: sentence(random, 3, 9),
        // about 70 % published; the rest are drafts only their author reads
        published: random() < 0.7,
        viewCount: Math.floor(random() * 10_000),
        authorId: authorOf(i + 1),
    }));
    const comments = Array.from({ length: COMMENTS }, (_, i) => ({
        id: i + 1,
        content: sentence(random, 5, 25),
        postId: 1 + Math.floor(random() * POSTS),
    }));
    return { users, profiles, posts, comments };
}

/** Post ids readable by everyone (published), in id order. */
export function publishedPostIds(rows: SeedRows): number[] {
    return rows.posts.filter((p) => p.published).map((p) => p.id);
}

/** Post ids written by `userId`, in id order. */
export function postIdsOf(rows: SeedRows, userId: number): number[] {
    return rows.posts.filter((p) => p.authorId === userId).map((p) => p.id);
}
