import type { TestSchema } from '../support/schema';
import { seededWorkerServerForFile, type WorkerServer } from './support/server-worker';

/**
 * How much heap JSON:API requests within the adapters' limits (16 KiB of query) make the server hold at its peak.
 * The server runs in a worker thread whose old-generation heap is limited: a request that makes it hold more ends the
 * worker (ERR_WORKER_OUT_OF_MEMORY), and the request gets no answer. The REST sibling of request-peak-memory.test.ts.
 */

const HEAP_LIMIT_MB = 110;

interface Answer {
    status: number;
    body: { data?: Array<{ attributes: { title: string } }>; included?: Array<{ type: string }>; errors?: Array<{ detail: string }> };
}

/** The answer to a GET; no answer (the worker ran out of heap) throws, saying why. */
async function get(server: WorkerServer, path: string): Promise<Answer> {
    try {
        const res = await fetch(`${server.origin}/rest${path}`);
        return { status: res.status, body: await res.json() };
    } catch (err) {
        // the worker's error event may come just after the connection closed
        await new Promise((resolve) => setTimeout(resolve, 1000));
        throw new Error(`no answer: ${server.crashed?.message ?? (err as Error).message}`);
    }
}

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** 1,000 more published posts of user 1 (the seed has one): enough for every cap of a page and of an included to-many relationship. */
async function seedPosts(held: { readonly s: TestSchema }): Promise<void> {
    await held.s.prisma.post.createMany({ data: range(1000, (i) => ({ title: `p${i}`, published: true, authorId: 1 })) });
}

describe('maxIncludedRecords: reads whose includes may hold more records than that are refused before the database is asked', () => {
    const worker = seededWorkerServerForFile({ heapLimitMb: HEAP_LIMIT_MB });
    beforeAll(() => seedPosts(worker));

    it('ten 56-byte reads reaching the same posts again through a cycle at once: ten 400s, within the heap limit', async () => {
        // 1000 posts × (their author + 101 posts + their author + 101 × 101 posts): 10 million records, which made the server
        // hold 2.8 GB (one request, in a 4 GB heap) to answer with 600 KB; here the first of them ran the worker out of heap
        const path = '/post?include=author.posts.author.posts&page[limit]=1000';
        const answers = await Promise.all(range(10, () => get(worker.server, path)));
        expect(worker.server.crashed).toBeUndefined();
        for (const answer of answers) {
            expect(answer.status).toBe(400);
            expect(answer.body.errors![0]).toMatchObject({ code: 'invalid-include', source: { parameter: 'include' }, detail: expect.stringMatching(/up to 10404000 records .*the limit is 110000 \(see the "maxIncludedRecords" option\)/) });
        }
        // and it still answers an ordinary read with includes
        const ordinary = await get(worker.server, '/post?include=author,comments&page[limit]=20');
        expect(ordinary.status).toBe(200);
        expect(ordinary.body.data).toHaveLength(20);
    });

    it('counts the worst case from the page and the caps, from a shared relationship on: a cycle on pages of 10 passes, of 11 does not', async () => {
        // users × (their posts' author: 101 + that author's posts: 101 × 101) = 103,020 for 10 users; 113,322 for 11
        expect((await get(worker.server, '/user?include=posts.author.posts&page[limit]=10')).status).toBe(200);
        const refused = await get(worker.server, '/user?include=posts.author.posts&page[limit]=11');
        expect(refused.status).toBe(400);
        expect(refused.body.errors![0].detail).toMatch(/up to 113322 records/);
        // each post and each comment has one parent: what they hold is the data itself, not counted
        expect((await get(worker.server, '/user?include=posts.comments&page[limit]=1000')).status).toBe(200);
        expect((await get(worker.server, '/user/1?include=posts.comments')).status).toBe(200);
        // a to-many relationship's page on its relationship endpoint: 10 × (101 + 101 × 101) = 103,020; 11 × … = 113,322
        expect((await get(worker.server, '/user/1/relationships/posts?include=posts.comments.post.comments&page[limit]=10')).status).toBe(200);
        const relationship = await get(worker.server, '/user/1/relationships/posts?include=posts.comments.post.comments&page[limit]=11');
        expect(relationship.body.errors![0].detail).toMatch(/up to 113322 records/);
        // the largest page through a shared relationship: 1000 × (1 + 101) = 102,000, all of them there to read
        // (1000 posts, each with its author's first 101 posts): within the heap limit, alone
        const largest = await get(worker.server, '/post?include=author.posts&page[limit]=1000');
        expect(largest.status).toBe(200);
        expect(largest.body.data).toHaveLength(1000);
        expect(worker.server.crashed).toBeUndefined();
        // to-one relationships do not multiply: a page of 1000 posts with their authors' profiles' users
        expect((await get(worker.server, '/post?include=author.profile.user&page[limit]=1000')).status).toBe(200);
    });
});

describe('maxIncludedRecords: Infinity lifts the bound', () => {
    const worker = seededWorkerServerForFile({ heapLimitMb: HEAP_LIMIT_MB, restOptions: { maxIncludedRecords: Infinity } });

    it('answers what the default refuses', async () => {
        const answer = await get(worker.server, '/user?include=posts.author.posts&page[limit]=11');
        expect(answer.status).toBe(200);
        expect(answer.body.included!.map((r) => r.type)).toEqual(['post']);
    });
});

describe('a field sorted by again is left out of the order', () => {
    const worker = seededWorkerServerForFile({ heapLimitMb: HEAP_LIMIT_MB });
    beforeAll(() => seedPosts(worker));

    it('a 16 KiB sort naming one field 4,000 times is one term: the page it asks for', async () => {
        // each name was a term: Prisma held 11 MB compiling them and SQLite refused the query (a 400 "too many terms in ORDER BY clause")
        const sort = ['-id', ...range(4000, () => 'id')].join(',');
        expect(sort.length).toBeLessThan(16 * 1024 - 50);
        const answer = await get(worker.server, `/post?sort=${sort}&page[limit]=2&fields[post]=title`);
        expect(worker.server.crashed).toBeUndefined();
        expect(answer.status).toBe(200);
        expect(answer.body.data!.map((r) => r.attributes.title)).toEqual(['p999', 'p998']);
    });

    it('and so is one sorted through a relationship again', async () => {
        const sort = ['author.email', ...range(1000, () => 'author.email'), '-id'].join(',');
        const answer = await get(worker.server, `/post?sort=${sort}&page[limit]=1&fields[post]=title`);
        expect(answer.status).toBe(200);
        expect(answer.body.data!.map((r) => r.attributes.title)).toEqual(['p999']);
    });
});
