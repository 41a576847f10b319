import { RestApiHandler } from '../../src/api/rest';
import type { TestSchema } from '../support/schema';
import { loadHiddenOrderSchema, READER } from './hidden-order-fixture';
import { rpcAs, type Res } from './rpc-call';

/**
 * A to-one relation filter on only the key a row holds (`blog: { id: 2 }`) is let through where ZenStack applies no
 * read rule (under AND/OR/NOT, a write's filter: `common/filter-guard.ts`). Prisma answers it with a join, so on a
 * row whose key names no record it told whether the record exists, one the user may not read too. Without a
 * foreign key constraint (`relationMode = "prisma"`, simulated here by writing the rows with SQLite's constraint
 * off) anyone may write such a key (`blogId: 2`) and ask. It is sent as the condition on the key itself.
 * Post 20 points at blog 2 (hidden), post 21 at a blog 77 that does not exist: both must answer alike.
 */

let s: TestSchema;
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadHiddenOrderSchema();
    await s.prisma.$executeRawUnsafe('PRAGMA foreign_keys = OFF');
    await s.prisma.$executeRawUnsafe(`INSERT INTO "Post" (id, title, blogId) VALUES (20, 'p20', 2), (21, 'p21', 77)`);
    await s.prisma.$executeRawUnsafe('PRAGMA foreign_keys = ON');
});

afterAll(async () => {
    await s.cleanup();
});

const rpc = (method: string, path: string, args: unknown): Promise<Res> => rpcAs(s, READER, method, path, args);

async function get(path: string, query: Record<string, string>): Promise<Res> {
    const res = await rest({ method: 'GET', path, query, prisma: s.enhance(READER), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}

const pairs: Array<[number, number]> = [
    [20, 2],
    [21, 77],
];

it('a filter on the key through the relation does not tell whether a hidden record exists', async () => {
    const shapes = (id: number) => [{ blog: { id } }, { blog: { is: { id: { in: [id, 99] } } } }, { blog: { isNot: { id } } }, { blog: { is: { id: { not: 99 } } } }, { blog: { isNot: null } }, { blog: null }];
    for (let i = 0; i < shapes(0).length; i++) {
        const answers: unknown[] = [];
        for (const [post, blog] of pairs) {
            const res = await rpc('GET', '/post/count', { where: { id: post, OR: [shapes(blog)[i], { title: 'none' }] } });
            answers.push([res.status, res.body.data]);
        }
        expect(answers[0]).toEqual(answers[1]);
    }
    expect((await rpc('GET', '/post/count', { where: { id: 20, OR: [{ blog: { id: 2 } }] } })).body.data).toBe(1);
});

it('nor does the filter of a write', async () => {
    const answers: unknown[] = [];
    for (const [post, blog] of pairs) {
        const res = await rpc('PATCH', '/post/update', { where: { id: post, blog: { id: blog } }, data: { title: `p${post}` }, select: { id: true } });
        answers.push(res.status);
    }
    expect(answers).toEqual([200, 200]);
});

it('nor a JSON:API relationship filter with several ids', async () => {
    const answers: unknown[] = [];
    for (const [post, blog] of pairs) {
        const res = await get('/post', { 'filter[id]': String(post), 'filter[blog]': `${blog},99` });
        answers.push([res.status, (res.body.data as Array<{ id: string }>)?.length]);
    }
    expect(answers[0]).toEqual(answers[1]);
});
