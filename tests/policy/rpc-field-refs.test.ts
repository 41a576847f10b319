import { BOB, loadLeakSchema } from './fixture';
import type { TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * A Prisma field reference (`{ _ref: "email", _container: "User" }`, what `prisma.user.fields.email` sends as JSON)
 * compares two columns of a row. ZenStack applies no read rule to the referenced column, so comparing a field Bob
 * reads (and may write: every user's name) with one he may not (Alice's email, her salary, anyone's password
 * hash) would tell him the hidden value guess by guess. Such references are refused; references to readable
 * fields keep working.
 */

let s: TestSchema;

beforeEach(async () => {
    s = await loadLeakSchema();
});

afterEach(async () => {
    await s.cleanup();
});

const rpc = (method: string, path: string, args: unknown) => rpcAs(s, BOB, method, path, args);
const ref = (field: string, model = 'User') => ({ _ref: field, _container: model });
const answer = (res: Res) => ({ status: res.status, body: res.body });

/** Bob writes a guess into Alice's name (the schema lets him), then asks with the reference. */
async function askWithGuess(guess: string, method: string, path: string, args: unknown): Promise<Res> {
    const written = await rpc('PUT', '/user/update', { where: { id: 1 }, data: { name: guess } });
    expect(written.status).toBe(200);
    return rpc(method, path, args);
}

const probes: Array<[name: string, method: string, path: string, args: unknown]> = [
    ['at the top of a filter', 'GET', '/user/findMany', { where: { id: 1, name: { equals: ref('email') } }, select: { id: true } }],
    ['as an operand of not', 'GET', '/user/count', { where: { id: 1, name: { not: { equals: ref('email') } } } }],
    ['under OR', 'GET', '/user/findMany', { where: { OR: [{ id: 1, name: { gte: ref('email') } }] }, select: { id: true } }],
    ['through a relation filter', 'GET', '/post/count', { where: { author: { is: { name: { lte: ref('email') } } } } }],
    ['in a relation count', 'GET', '/post/findMany', { select: { id: true, author: { select: { _count: { select: { posts: { where: { author: { name: ref('email') } } } } } } } } }],
    ['in having', 'GET', '/user/groupBy', { by: ['name'], having: { name: { equals: ref('email') } } }],
    ['in the filter of updateMany', 'PATCH', '/user/updateMany', { where: { id: 1, name: { equals: ref('email') } }, data: { name: 'hit' } }],
];

describe('references to fields the user may not read are refused', () => {
    it.each(probes)('%s: the same 400 for a right and a wrong guess of Alice’s email', async (_name, method, path, args) => {
        const right = await askWithGuess('alice@x', method, path, args);
        const wrong = await askWithGuess('alice@y', method, path, args);
        expect(answer(right)).toEqual(answer(wrong));
        expect(right.status).toBe(400);
        expect(right.body.error.message).toMatch(/references to "email" of User/);
    });

    it('an @omit field (password) and a @deny read field (salary) are refused too', async () => {
        const password = await rpc('GET', '/user/count', { where: { name: { lt: ref('password') } } });
        expect(password.status).toBe(400);
        expect(password.body.error.message).toMatch(/references to "password" of User/);
        const salary = await rpc('GET', '/user/count', { where: { id: { lt: ref('salary') } } });
        expect(salary.status).toBe(400);
        expect(salary.body.error.message).toMatch(/references to "salary" of User/);
    });

    it('nothing is written when the filter of updateMany is refused', async () => {
        const res = await rpc('PATCH', '/user/updateMany', { where: { name: { not: { equals: ref('email') } } }, data: { name: 'hit' } });
        expect(res.status).toBe(400);
        expect(await s.prisma.user.count({ where: { name: 'hit' } })).toBe(0);
    });
});

describe('references to readable fields', () => {
    it('compare the two columns as Prisma does', async () => {
        // posts Bob reads: 1 (views 5), 3 (views 1); views greater than the id holds for post 1 only
        const res = await rpc('GET', '/post/findMany', { where: { views: { gt: ref('id', 'Post') } }, select: { id: true } });
        expect([res.status, res.body.data]).toEqual([200, [{ id: 1 }]]);
        const names = await rpc('GET', '/user/findMany', { where: { name: { equals: ref('name') } }, select: { id: true }, orderBy: { id: 'asc' } });
        expect([names.status, names.body.data]).toEqual([200, [{ id: 1 }, { id: 2 }, { id: 3 }]]);
    });
});
