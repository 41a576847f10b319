import { countingClient } from '../../support/statement-count';
import { describePg, requirePg } from '../../support/postgres';
import type { Provider } from '../../support/schema';
import { RestApiHandler } from '../../../src/api/rest';
import { ENDPOINT } from './fixtures';
import { BLOG_MODELS, docOf, firstError, openApi, snapshot, type Api } from './harness';

/**
 * A replacement of a to-many relationship (PATCH on the relationship, the relationship in a resource PATCH or in an
 * upsert) detaches the current members it does not list, each checked and detached one by one. Over a relationship
 * with thousands of members that ran past the transaction's timeout (PostgreSQL: a retryable 503 after 5 s for 5,000
 * members, that could never succeed) or, on SQLite, past Prisma's bound on query parameters (a 400 P2029 after 20,000
 * statements for 5,000). It detaches at most 1,000 (as many as a request may name): more is a 400 naming the bound,
 * before anything is written, after reading at most 1,000 + (listed) + 1 members.
 */

const detail = (rel: string, type: string) =>
    `replacing "${rel}" would detach more than 1000 of its current members; a request detaches at most 1000: remove members in batches with DELETE on /${type}/:id/relationships/${rel} first`;

async function seedPosts(api: Api, n: number): Promise<number> {
    const user = (await api.s.prisma.user.create({ data: { email: `owner${n}@x` } })).id;
    const first = ((await api.s.prisma.post.aggregate({ _max: { id: true } }))._max.id ?? 0) + 1;
    for (let i = 0; i < n; i += 5000) {
        const rows = Array.from({ length: Math.min(5000, n - i) }, (_, j) => ({ id: first + i + j, title: `p${i + j}`, authorId: user }));
        await api.s.prisma.post.createMany({ data: rows });
    }
    return user;
}

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ type: 'post', id: String(from + i) }));

function bodies(user: number, data: unknown[]) {
    return [
        ['PATCH', `/user/${user}/relationships/posts`, { data }, '/data'],
        ['PATCH', `/user/${user}`, { data: { type: 'user', id: String(user), relationships: { posts: { data } } } }, '/data/relationships/posts/data'],
        [
            'POST',
            '/user',
            { data: { type: 'user', attributes: { email: `owner1001@x` }, relationships: { posts: { data } } }, meta: { operation: 'upsert', matchFields: ['email'] } },
            '/data/relationships/posts/data',
        ],
    ] as const;
}

function suite(provider: Provider) {
    let api: Api;
    let user: number;
    const ready = async () => provider === 'sqlite' || (await requirePg());

    beforeAll(async () => {
        if (!(await ready())) return;
        api = await openApi(undefined, provider);
        user = await seedPosts(api, 1001);
    });
    afterAll(async () => {
        await api?.cleanup();
    });

    it.each([0, 1, 2])('a replacement (%#: relationship, resource, upsert) leaving out 1,001 members is a 400 naming the bound, nothing written', async (i) => {
        if (!(await ready())) return;
        const before = await snapshot(api.s, BLOG_MODELS);
        const [method, path, body, pointer] = bodies(user, [])[i];
        const res = await api.call({ id: user }, method, path, body);
        expect([res.status, firstError(res)]).toEqual([400, expect.objectContaining({ code: 'invalid-payload', detail: detail('posts', 'user'), source: { pointer } })]);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('the members it lists are kept: listing 1 of 1,001 detaches 1,000, within the bound', async () => {
        if (!(await ready())) return;
        const first = (await api.s.prisma.post.findFirst({ where: { authorId: user }, orderBy: { id: 'asc' } })).id;
        const res = await api.call({ id: user }, 'PATCH', `/user/${user}/relationships/posts`, { data: ids(first, 1) });
        expect([res.status, docOf(res).data]).toEqual([200, [{ type: 'post', id: first }]]);
        expect(await api.s.prisma.post.count({ where: { authorId: user } })).toBe(1);
    });
}

describe('replacing a to-many relationship with more than 1,000 members to detach [sqlite]', () => {
    suite('sqlite');

    it('over 20,000 members: the 400 costs a few statements, not one per member', async () => {
        const api = await openApi();
        const counting = countingClient(api.s);
        try {
            const user = await seedPosts(api, 20_000);
            const handle = RestApiHandler({ endpoint: ENDPOINT });
            counting.reset();
            const res = await handle({
                method: 'PATCH',
                path: `/user/${user}/relationships/posts`,
                query: {},
                requestBody: { data: ids(1, 3) },
                prisma: api.s.enhanceClient(counting.client, { id: user }),
                modelMeta: api.s.modelMeta,
                logger: null,
            });
            expect([res.status, firstError(res).detail]).toEqual([400, detail('posts', 'user')]);
            // the record and at most 1,004 of its members read, in one transaction (it was 40,001 statements and a 400 P2029)
            expect(counting.count()).toBeLessThanOrEqual(6);
            expect(await api.s.prisma.post.count({ where: { authorId: user } })).toBe(20_000);
        } finally {
            await counting.client.$disconnect();
            await api.cleanup();
        }
    });
});

describePg('replacing a to-many relationship with more than 1,000 members to detach', () => {
    suite('postgresql');
});
