import type { TestSchema } from '../support/schema';
import { BOB, loadLeakSchema } from './fixture';
import { rpcAs } from './rpc-call';

/**
 * A nested to-many write naming a record the user cannot read answers exactly as one naming a record that
 * does not exist: ZenStack looks the record up without its read rule (403 for one, 404 for the other), so
 * Bob, who may update Alice's user record, could ask whether she has a hidden post of a guessed id (2.x
 * answers that). Alice's draft (post 2) is hidden from Bob; post 99 does not exist.
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

const NESTED: [string, (id: number) => unknown][] = [
    ['delete', (id) => ({ delete: { id } })],
    ['update', (id) => ({ update: { where: { id }, data: { title: 'mine' } } })],
    ['disconnect (a required relation)', (id) => ({ disconnect: [{ id }] })],
];

const update = (posts: unknown) => ({ where: { id: 1 }, data: { posts }, select: { id: true } });

it.each(NESTED)('a nested %s of a hidden record answers as for a missing one, and changes nothing', async (_name, posts) => {
    const before = await s.prisma.post.findMany({ orderBy: { id: 'asc' } });
    const hidden = await rpcAs(s, BOB, 'PUT', '/user/update', update(posts(HIDDEN)));
    const missing = await rpcAs(s, BOB, 'PUT', '/user/update', update(posts(MISSING)));
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
    expect(await s.prisma.post.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
});

it('in a $transaction/sequential too', async () => {
    const step = (id: number) => [{ model: 'user', op: 'update', args: update({ delete: { id } }) }];
    const hidden = await rpcAs(s, BOB, 'POST', '/$transaction/sequential', step(HIDDEN));
    const missing = await rpcAs(s, BOB, 'POST', '/$transaction/sequential', step(MISSING));
    expect(missing.status).toBe(404);
    expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
});

it('a nested upsert of a hidden record runs its create, as for a missing one (here: a unique violation)', async () => {
    const res = await rpcAs(s, BOB, 'PUT', '/user/update', update({ upsert: { where: { id: HIDDEN }, create: { id: HIDDEN, title: 'mine' }, update: { title: 'mine' } } }));
    expect([res.status, res.body.error.code]).toEqual([400, 'P2002']);
    expect(await s.prisma.post.findUnique({ where: { id: HIDDEN } })).toMatchObject({ title: 'alice secret draft' });
});

it('a record Bob can read but not change keeps its 403; his own are written', async () => {
    const denied = await rpcAs(s, BOB, 'PUT', '/user/update', update({ update: { where: { id: 1 }, data: { title: 'mine' } } }));
    expect(denied.status).toBe(403);
    const own = await rpcAs(s, BOB, 'PUT', '/user/update', { where: { id: 2 }, data: { posts: { update: { where: { id: 3 }, data: { views: 2 } } } }, select: { id: true } });
    expect(own.status).toBe(200);
    expect(await s.prisma.post.findUnique({ where: { id: 3 } })).toMatchObject({ views: 2 });
});

it('a connect of a hidden record answers as for a missing one, under a create as under an update, and writes nothing', async () => {
    const before = await s.prisma.post.findMany({ orderBy: { id: 'asc' } });
    const create = (id: number) => ({ data: { id: 8, name: 'n', email: 'n@x', posts: { connect: { id } } }, select: { id: true } });
    const hidden = await rpcAs(s, BOB, 'POST', '/user/create', create(HIDDEN));
    const missing = await rpcAs(s, BOB, 'POST', '/user/create', create(MISSING));
    expect(missing.status).toBe(404);
    expect([hidden.status, hidden.text]).toEqual([missing.status, missing.text]);
    const linked = await rpcAs(s, BOB, 'PUT', '/user/update', update({ connect: [{ id: HIDDEN }] }));
    const none = await rpcAs(s, BOB, 'PUT', '/user/update', update({ connect: [{ id: MISSING }] }));
    expect([linked.status, linked.text]).toEqual([none.status, none.text]);
    expect(await s.prisma.user.count()).toBe(3);
    expect(await s.prisma.post.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
});

it('a connectOrCreate naming a hidden record runs its create, as for a missing one (here: a unique violation)', async () => {
    const before = await s.prisma.post.findMany({ orderBy: { id: 'asc' } });
    const posts = { connectOrCreate: { where: { id: HIDDEN }, create: { id: HIDDEN, title: 'mine' } } };
    const updated = await rpcAs(s, BOB, 'PUT', '/user/update', { where: { id: 2 }, data: { posts }, select: { id: true } });
    expect([updated.status, updated.body.error?.code]).toEqual([400, 'P2002']);
    const created = await rpcAs(s, BOB, 'POST', '/user/create', { data: { id: 8, name: 'n', email: 'n@x', posts }, select: { id: true } });
    expect([created.status, created.body.error?.code]).toEqual([400, 'P2002']);
    expect(await s.prisma.user.count()).toBe(3);
    expect(await s.prisma.post.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
});
