import { loadSchema, type TestSchema } from '../support/schema';
import { BOB, loadLeakSchema } from './fixture';
import { rpcAs } from './rpc-call';

/**
 * A write naming a record the user cannot read answers exactly as a write naming a record that does
 * not exist: ZenStack checks existence without the read rule (403 for one, 404 for the other), which
 * would let anyone ask whether a guessed id exists. Bob cannot read Alice's draft (post 2); post 99
 * does not exist.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadLeakSchema();
});

afterAll(async () => {
    await s.cleanup();
});

const HIDDEN = 2;
const MISSING = 99;

const WRITES: [string, string, string, (id: number) => unknown][] = [
    ['an update', 'PUT', '/post/update', (id) => ({ where: { id }, data: { title: 'mine' } })],
    ['an update with empty data (ZenStack checks no update rule)', 'PATCH', '/post/update', (id) => ({ where: { id }, data: {} })],
    ['an update with a select', 'PUT', '/post/update', (id) => ({ where: { id }, data: { views: { increment: 1 } }, select: { id: true } })],
    ['a delete', 'DELETE', '/post/delete', (id) => ({ where: { id } })],
];

describe.each(WRITES)('%s', (_name, method, path, args) => {
    it('of a record Bob cannot read answers as one that does not exist, and changes nothing', async () => {
        const before = await s.prisma.post.findUnique({ where: { id: HIDDEN } });
        const hidden = await rpcAs(s, BOB, method, path, args(HIDDEN));
        const missing = await rpcAs(s, BOB, method, path, args(MISSING));
        expect(missing.status).toBe(404);
        expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
        expect(await s.prisma.post.findUnique({ where: { id: HIDDEN } })).toEqual(before);
    });

    it('in a $transaction/sequential too (the failed operation named the same way)', async () => {
        const step = (id: number) => [{ model: 'post', op: 'findMany', args: { select: { id: true } } }, { model: 'post', op: path.split('/')[2], args: args(id) }];
        const hidden = await rpcAs(s, BOB, 'POST', '/$transaction/sequential', step(HIDDEN));
        const missing = await rpcAs(s, BOB, 'POST', '/$transaction/sequential', step(MISSING));
        expect([missing.status, missing.body.error.failedOperation]).toEqual([404, 1]);
        expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
    });
});

it('a write the policy denies on a record Bob can read keeps its 403', async () => {
    const res = await rpcAs(s, BOB, 'PUT', '/post/update', { where: { id: 1 }, data: { title: 'mine' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION' });
    const own = await rpcAs(s, BOB, 'PATCH', '/post/update', { where: { id: 3 }, data: {} });
    expect(own.status).toBe(200);
});

it('a write that happened but cannot be read back still says so (403 RESULT_NOT_READABLE, the write kept)', async () => {
    const boxes = await loadSchema(`
model User {
  id Int @id
}
model Box {
  id    Int @id
  value Int
  @@allow('create,update', true)
  @@allow('read', value > 10)
}
`);
    try {
        await boxes.prisma.box.create({ data: { id: 1, value: 5 } });
        const res = await rpcAs(boxes, { id: 1 }, 'PUT', '/box/update', { where: { id: 1 }, data: { value: 6 } });
        expect([res.status, res.body.error.reason]).toEqual([403, 'RESULT_NOT_READABLE']);
        expect(await boxes.prisma.box.findUnique({ where: { id: 1 } })).toEqual({ id: 1, value: 6 });
    } finally {
        await boxes.cleanup();
    }
});
