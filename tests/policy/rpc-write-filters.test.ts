import { BOB, loadLeakSchema } from './fixture';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * Filters inside writes. ZenStack guards a filter on a field with a field-level read rule when it reads
 * (the row does not match unless the user may read the field) and in `updateMany`/`deleteMany`, but not
 * in the `where` of a single-record write (`update`, `upsert`, `delete`) nor in nested writes (`connect`,
 * `set`, nested `update`/`upsert`/`delete`/`deleteMany`, `connectOrCreate`): there, whether the write
 * finds its record tells a user whether his guess of another user's protected value is right. These
 * tests send each such write twice, with the right and a wrong guess of Alice's salary (a field only its
 * owner reads), and expect the same refusal both times, and no change in the database.
 */

let s: TestSchema;

beforeEach(async () => {
    s = await loadLeakSchema();
});

afterEach(async () => {
    await s.cleanup();
});

const rpc = (method: string, path: string, args: unknown) => rpcAs(s, BOB, method, path, args);

async function snapshot(): Promise<unknown> {
    return {
        users: await s.prisma.user.findMany({ orderBy: { id: 'asc' } }),
        posts: await s.prisma.post.findMany({ orderBy: { id: 'asc' } }),
    };
}

const ALICE_SALARY = 100;
const WRONG = 101;

type Shape = [string, string, string, (salary: number) => unknown];

const GUESSING_WRITES: Shape[] = [
    ['update, next to the id', 'PUT', '/user/update', (salary) => ({ where: { id: 1, salary }, data: { name: 'x' } })],
    ['update, inside AND', 'PUT', '/user/update', (salary) => ({ where: { id: 1, AND: [{ salary: { gte: salary } }] }, data: { name: 'x' } })],
    ['update, through a relation filter', 'PUT', '/post/update', (salary) => ({ where: { id: 3, author: { is: { salary } } }, data: { title: 'x' } })],
    ['upsert', 'POST', '/user/upsert', (salary) => ({ where: { id: 1, salary }, create: { id: 1, name: 'x', email: 'x@x' }, update: { name: 'x' } })],
    ['delete', 'DELETE', '/user/delete', (salary) => ({ where: { id: 1, salary } })],
    ['connect', 'PUT', '/post/update', (salary) => ({ where: { id: 3 }, data: { author: { connect: { id: 1, salary } } } })],
    ['connectOrCreate', 'PUT', '/post/update', (salary) => ({ where: { id: 3 }, data: { author: { connectOrCreate: { where: { id: 1, salary }, create: { id: 1, name: 'x', email: 'x@x' } } } } })],
    ['a to-one update with a filter', 'PUT', '/post/update', (salary) => ({ where: { id: 1 }, data: { author: { update: { where: { salary }, data: { name: 'x' } } } } })],
    ['a to-one upsert with a filter', 'PUT', '/post/update', (salary) => ({ where: { id: 1 }, data: { author: { upsert: { where: { salary }, create: { id: 7, name: 'x', email: 'x@x' }, update: { name: 'x' } } } } })],
    [
        'a connect two levels down (to-many update, then to-one)',
        'PUT',
        '/user/update',
        (salary) => ({ where: { id: 2 }, data: { posts: { update: { where: { id: 3 }, data: { author: { connect: { id: 1, salary } } } } } } }),
    ],
    ['a connect in a create', 'POST', '/post/create', (salary) => ({ data: { id: 9, title: 't', author: { connect: { id: 1, salary } } } })],
    [
        'inside $transaction/sequential',
        'POST',
        '/$transaction/sequential',
        (salary) => [
            { model: 'Post', op: 'update', args: { where: { id: 3 }, data: { title: 'first' } } },
            { model: 'User', op: 'update', args: { where: { id: 1, salary }, data: { name: 'x' } } },
        ],
    ],
    ['an email next to the id', 'PUT', '/user/update', () => ({ where: { id: 1, email: 'alice@x' }, data: { name: 'x' } })],
    ['a to-many set', 'PUT', '/user/update', (salary) => ({ where: { id: 1 }, data: { posts: { set: [{ id: 1, author: { is: { salary } } }] } } })],
    ['a to-many disconnect', 'PUT', '/user/update', (salary) => ({ where: { id: 1 }, data: { posts: { disconnect: [{ id: 1, author: { is: { salary } } }] } } })],
];

describe('a write cannot tell whether a guess of a protected value is right', () => {
    it.each(GUESSING_WRITES)('%s: refused the same way for the right and a wrong guess, nothing written', async (_name, method, path, args) => {
        const before = await snapshot();
        const right = await rpc(method, path, args(ALICE_SALARY));
        const wrong = await rpc(method, path, args(WRONG));
        expect(right.status).toBe(400);
        expect(right.body.error.message).toMatch(/field "(salary|email)" of User cannot be used for filtering a write: reading it is restricted by the access policy/);
        expect(wrong).toEqual(right);
        expect(await snapshot()).toEqual(before);
    });

    it('a nested to-many deleteMany filtering by a protected field is refused, and deletes nothing', async () => {
        // Alice's posts, filtered through their author's salary, from an update Bob may make on Alice's record
        const before = await snapshot();
        const res = await rpc('PUT', '/user/update', { where: { id: 1 }, data: { posts: { deleteMany: { author: { salary: ALICE_SALARY } } } } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/"salary" of User cannot be used for filtering a write/);
        expect(await snapshot()).toEqual(before);
    });
});

describe('writes that use protected fields legitimately still work', () => {
    it('updateMany and deleteMany filter by them under the policy (ZenStack guards those): no match on others’ values', async () => {
        const before = await snapshot();
        const answers = [];
        for (const email of ['alice@x', 'alice@y']) {
            answers.push(await rpc('PUT', '/user/updateMany', { where: { email }, data: { name: 'x' } }));
            answers.push(await rpc('DELETE', '/user/deleteMany', { where: { email } }));
        }
        expect(answers.map((r) => [r.status, r.body.data])).toEqual(Array(4).fill([200, { count: 0 }]));
        expect(await snapshot()).toEqual(before);
        const own = await rpc('PUT', '/user/updateMany', { where: { email: 'bob@x' }, data: { name: 'bobby' } });
        expect(own.body.data).toEqual({ count: 1 });
    });

    it('a protected unique field may name the record (it is the identifier, not an extra filter)', async () => {
        const res = await rpc('PUT', '/user/update', { where: { email: 'bob@x' }, data: { name: 'bobby' } });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ id: 2, name: 'bobby' });
    });

    it('a nested to-one update may set a protected or @omit field (its data is not a filter)', async () => {
        const res = await rpc('PUT', '/post/update', { where: { id: 3 }, data: { author: { update: { salary: 60, password: 'new-hash' } } } });
        expect(res.status).toBe(200);
        expect(await s.prisma.user.findUnique({ where: { id: 2 } })).toMatchObject({ salary: 60, password: 'new-hash' });
    });

    it('a nested upsert’s update data is checked like its create data', async () => {
        const res = await rpc('PUT', '/post/update', { where: { id: 3 }, data: { author: { upsert: { create: { id: 8, name: 'n', email: 'n@x' }, update: { name: 'bobby' } } } } });
        expect(res.status).toBe(200);
        expect(await s.prisma.user.findUnique({ where: { id: 2 } })).toMatchObject({ name: 'bobby' });
    });
});

describe('a compound unique key with a protected field', () => {
    const SCHEMA = `
model User {
  id Int @id
  @@allow('all', true)
}

model Member {
  id    Int    @id
  org   Int
  email String @allow('read', auth().id == id)
  name  String @default('')
  @@unique([org, email])
  @@allow('all', true)
}
`;
    let m: TestSchema;

    beforeAll(async () => {
        m = await loadSchema(SCHEMA);
        await m.prisma.member.createMany({ data: [{ id: 1, org: 1, email: 'one@x' }, { id: 2, org: 1, email: 'two@x' }] });
    });

    afterAll(async () => {
        await m.cleanup();
    });

    const update = (where: unknown) => rpcAs(m, BOB, 'PUT', '/member/update', { where, data: { name: 'renamed' } });

    it('next to the id it is a condition: refused the same way for the right and a wrong guess', async () => {
        const right = await update({ id: 1, org_email: { org: 1, email: 'one@x' } });
        const wrong = await update({ id: 1, org_email: { org: 1, email: 'nope@x' } });
        expect(right.status).toBe(400);
        expect(right.body.error.message).toMatch(/field "email" of Member cannot be used for filtering a write/);
        expect(wrong).toEqual(right);
        expect(await m.prisma.member.findUnique({ where: { id: 1 } })).toMatchObject({ name: '' });
    });

    it('alone it names the record', async () => {
        const res = await update({ org_email: { org: 1, email: 'two@x' } });
        expect(res.status).toBe(200);
        expect(await m.prisma.member.findUnique({ where: { id: 2 } })).toMatchObject({ name: 'renamed' });
    });
});
