import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { describePg, requirePg } from '../support/postgres';
import { ONE_TO_ONE_SCHEMA } from '../support/one-to-one-schema';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Relationship changes of different records at the same time, on PostgreSQL. Replacing a to-many
 * relationship runs serializable (it writes what it computed from what it read); on small or unindexed
 * tables PostgreSQL's predicate locks cover whole pages, so such transactions conflict although they
 * touch different rows: the loser is run again instead of answering 503. One-to-one links do not need
 * serializable isolation at all.
 */

const USERS = 4;

describePg('concurrent relationship changes of different records (PostgreSQL)', () => {
    let s: TestSchema;
    afterEach(async () => {
        await s?.cleanup();
    });

    async function blog(): Promise<number[][]> {
        s = await loadSchema(undefined, { provider: 'postgresql' });
        const posts: number[][] = [];
        for (let u = 1; u <= USERS; u++) {
            await s.prisma.user.create({ data: { id: u, email: `u${u}@x` } });
            const mine: number[] = [];
            for (let p = 0; p < 3; p++) mine.push((await s.prisma.post.create({ data: { title: `u${u}-${p}`, authorId: u } })).id);
            posts.push(mine);
        }
        return posts;
    }
    const authorsOf = async (ids: number[]) =>
        (await s.prisma.post.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } })).map((p: { authorId: number | null }) => p.authorId);

    it('every user replaces its own posts at once, through RPC set, a sequential transaction and REST PATCH: all succeed', async () => {
        if (!(await requirePg())) return;
        const posts = await blog();
        const rpc = RPCApiHandler();
        const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
        const ctx = (u: number) => ({ query: {}, prisma: s.enhance({ id: u }), modelMeta: s.modelMeta, logger: null });
        const answers = await Promise.all(
            posts.map((mine, i) => {
                const u = i + 1;
                const args = { where: { id: u }, data: { posts: { set: [{ id: mine[0] }] } } };
                if (u % 3 === 0) return rpc({ ...ctx(u), method: 'POST', path: '/$transaction/sequential', requestBody: [{ model: 'user', op: 'update', args }] });
                return u % 3 === 1
                    ? rpc({ ...ctx(u), method: 'PUT', path: '/user/update', requestBody: args })
                    : rest({ ...ctx(u), method: 'PATCH', path: `/user/${u}/relationships/posts`, requestBody: { data: [{ type: 'post', id: String(mine[0]) }] } });
            }),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(USERS).fill(200));
        for (const [i, mine] of posts.entries()) expect(await authorsOf(mine)).toEqual([i + 1, null, null]);
    });

    it('every user links a new one-to-one partner at once: all succeed', async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(ONE_TO_ONE_SCHEMA, { provider: 'postgresql' });
        for (let u = 1; u <= USERS; u++) await s.prisma.user.create({ data: { id: u, profile: { create: { id: u } } } });
        const rpc = RPCApiHandler();
        const answers = await Promise.all(
            Array.from({ length: USERS }, (_, i) =>
                rpc({ method: 'PUT', path: '/user/update', query: {}, requestBody: { where: { id: i + 1 }, data: { profile: { create: { id: 100 + i + 1 } } } }, prisma: s.enhance({ id: i + 1 }), modelMeta: s.modelMeta, logger: null }),
            ),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(USERS).fill(200));
        const profiles = await s.prisma.profile.findMany({ orderBy: { id: 'asc' } });
        expect(profiles.map((p: { id: number; userId: number | null }) => [p.id, p.userId])).toEqual([
            ...Array.from({ length: USERS }, (_, i) => [i + 1, null]),
            ...Array.from({ length: USERS }, (_, i) => [101 + i, i + 1]),
        ]);
    });
});
