import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A compound unique key with a field the user may not read (`@@unique([name, salary])`): ZenStack 2.x applies
 * no field rule to the key, so a `findUnique` by it, or a cursor naming it, answered whether a guess of another
 * user's salary was right (2.x answers both). Bob (id 2) may read his own salary, no one else's.
 */

const SCHEMA = `
model User {
  id     Int    @id
  name   String
  salary Int    @allow('read', auth() == this)
  @@unique([name, salary])
  @@allow('all', true)
}
`;

const BOB = { id: 2 };
let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({
        data: [
            { id: 1, name: 'alice', salary: 100 },
            { id: 2, name: 'bob', salary: 50 },
            { id: 3, name: 'carol', salary: 0 },
        ],
    });
});

afterAll(async () => {
    await s.cleanup();
});

const rpc = (path: string, args: unknown) => rpcAs(s, BOB, 'GET', path, args);

it.each([
    ['the right guess', 'alice', 100],
    ['a wrong guess', 'alice', 101],
    ['the right guess of a zero', 'carol', 0],
])('findUnique by the key answers null for %s of another user’s value', async (_name, name, salary) => {
    const res = await rpc('/user/findUnique', { where: { name_salary: { name, salary } }, select: { id: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
});

it('findUnique by the key still finds Bob’s own record, also beside a condition on the field', async () => {
    expect((await rpc('/user/findUnique', { where: { name_salary: { name: 'bob', salary: 50 } } })).body.data).toEqual({ id: 2, name: 'bob', salary: 50 });
    const both = await rpc('/user/findUnique', { where: { name_salary: { name: 'bob', salary: 50 }, salary: { gt: 10 } }, select: { id: true } });
    expect(both.body.data).toEqual({ id: 2 });
});

it.each([
    ['a right guess', 100],
    ['a wrong guess', 101],
])('a cursor by the key is refused for %s (whether the page starts would tell)', async (_name, salary) => {
    const res = await rpc('/user/findMany', { cursor: { name_salary: { name: 'alice', salary } }, select: { id: true } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/"salary" of User cannot be used for a cursor/);
});

it('a cursor by the id still works', async () => {
    const res = await rpc('/user/findMany', { cursor: { id: 2 }, orderBy: { id: 'asc' }, select: { id: true } });
    expect(res.body.data).toEqual([{ id: 2 }, { id: 3 }]);
});
