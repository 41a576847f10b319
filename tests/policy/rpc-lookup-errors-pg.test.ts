import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * On PostgreSQL a statement the database refuses aborts the transaction it runs in. The handler's own look-ups before
 * a write (the records nested writes and relation sets name, the record a write in `$transaction/sequential` names)
 * swallowed such a refusal, and the write then failed on the aborted transaction: a 500 ("current transaction is
 * aborted"), where the same value in a plain call is a 400. Found by a review on 2026-12-01; nothing was written then
 * either, as nothing is now.
 */

const SCHEMA = `
model User {
  id    Int    @id
  posts Post[]
  items Item[]
  @@allow('all', true)
}
model Post {
  id        Int     @id
  title     String  @unique
  published Boolean @default(false)
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  tags      Tag[]
  @@allow('read', published || author == auth())
  @@allow('create,update,delete', author == auth())
}
model Tag {
  id    Int    @id
  name  String @unique
  posts Post[]
  @@allow('all', true)
}
model Item {
  id     String @id @db.Uuid
  owner  User   @relation(fields: [ownerId], references: [id])
  ownerId Int
  @@allow('read', ownerId == auth().id)
  @@allow('create,update,delete', true)
}
`;

describePg('RPC on PostgreSQL: values the database refuses in the handler look-ups', () => {
    let s: TestSchema | undefined;
    const alice = { id: 1 };
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql' });
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        await s.prisma.post.create({ data: { id: 1, title: 'mine', authorId: 1, published: true } });
        await s.prisma.tag.create({ data: { id: 1, name: 'a' } });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    const transaction = (ops: unknown[]) => rpcAs(s!, alice, 'POST', '/$transaction/sequential', ops);
    const expectUnchanged = async () => {
        expect(await s!.prisma.post.findMany({ select: { id: true, title: true } })).toEqual([{ id: 1, title: 'mine' }]);
        expect(await s!.prisma.post.findUnique({ where: { id: 1 }, select: { tags: { select: { id: true } } } })).toEqual({ tags: [] });
        expect(await s!.prisma.item.count()).toBe(0);
    };

    it.each([
        ['a transaction: update by an out-of-range id', () => transaction([{ model: 'post', op: 'update', args: { where: { id: 3000000000 }, data: { title: 'x' } } }])],
        ['a transaction: delete by an out-of-range id', () => transaction([{ model: 'post', op: 'delete', args: { where: { id: 3000000000 } } }])],
        ['a transaction: update by a malformed uuid', () => transaction([{ model: 'item', op: 'update', args: { where: { id: 'not-a-uuid' }, data: { ownerId: 1 } } }])],
        ['a nested update by an out-of-range id', () => rpcAs(s!, alice, 'PUT', '/user/update', { where: { id: 1 }, data: { posts: { update: { where: { id: 3000000000 }, data: { title: 'x' } } } } })],
        ['a nested delete by an out-of-range id', () => rpcAs(s!, alice, 'PUT', '/user/update', { where: { id: 1 }, data: { posts: { delete: { id: 3000000000 } } } })],
        ['a nested update by a malformed uuid', () => rpcAs(s!, alice, 'PUT', '/user/update', { where: { id: 1 }, data: { items: { update: { where: { id: 'not-a-uuid' }, data: { ownerId: 1 } } } } })],
        ['a relation set naming a NUL byte', () => rpcAs(s!, alice, 'PUT', '/post/update', { where: { id: 1 }, data: { title: 'x', tags: { set: [{ name: 'a\u0000b' }] } } })],
    ])('%s is a 400 naming the value, with nothing written', async (_name, send) => {
        if (!s) return;
        const res = await send();
        expect([res.status, res.body.error?.message]).toEqual([400, expect.stringMatching(/the database cannot take a value of the request|out of range|invalid/i)]);
        expect(res.text).not.toMatch(/transaction is aborted/);
        await expectUnchanged();
    });

    it('the same values in a plain call are the same 400', async () => {
        if (!s) return;
        const res = await rpcAs(s, alice, 'PUT', '/post/update', { where: { id: 3000000000 }, data: { title: 'x' } });
        expect(res.status).toBe(400);
        await expectUnchanged();
    });
});
