import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A nested `updateMany` that sets a field with a field-level update rule is a 400: ZenStack 2.22 checks it under the
 * model's update rule alone (when that rule is not a constant), so an author could publish his own post through
 * `user.update({ data: { posts: { updateMany } } })` although only editors may change `published`, where the
 * top-level `updateMany` and a nested `update` refuse it.
 */

const SCHEMA = `
model User {
  id    Int    @id
  role  String @default('USER')
  posts Post[]
  @@allow('read', true)
  @@allow('update', auth() == this)
}

model Post {
  id        Int     @id
  title     String
  published Boolean @default(false) @allow('update', auth().role == 'EDITOR')
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  @@allow('read', true)
  @@allow('create,update', auth() == author)
}
`;

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
});

afterAll(async () => {
    await s.cleanup();
});

beforeEach(async () => {
    await s.prisma.post.deleteMany();
    await s.prisma.user.deleteMany();
    await s.prisma.user.createMany({ data: [{ id: 1, role: 'EDITOR' }, { id: 2 }] });
    await s.prisma.post.createMany({ data: [{ id: 1, title: 'edited', authorId: 1 }, { id: 3, title: 'draft', authorId: 2 }] });
});

const post = (id: number) => s.prisma.post.findUnique({ where: { id }, select: { title: true, published: true } });
const nested = (user: number, data: Record<string, unknown>) =>
    rpcAs(s, { id: user }, 'PUT', '/user/update', { where: { id: user }, data: { posts: { updateMany: { where: {}, data } } } });

it('a nested updateMany setting a field with an update rule is refused, for everyone, and nothing is written', async () => {
    const bob = await nested(2, { published: true });
    expect(bob.status).toBe(400);
    expect(bob.body.error.message).toContain('a nested updateMany through "posts" sets "published"');
    expect(bob.body.error.message).toContain('make it a top-level post updateMany');
    expect((await nested(1, { published: true, title: 'x' })).status).toBe(400);
    expect(await post(3)).toEqual({ title: 'draft', published: false });
    expect(await post(1)).toEqual({ title: 'edited', published: false });
});

it('a nested updateMany of other fields goes through, and the top-level form applies the field rule', async () => {
    expect((await nested(2, { title: 'renamed' })).status).toBe(200);
    expect(await post(3)).toEqual({ title: 'renamed', published: false });
    const bob = await rpcAs(s, { id: 2 }, 'PUT', '/post/updateMany', { where: { authorId: 2 }, data: { published: true } });
    expect(bob.body).toEqual({ data: { count: 0 } });
    const asEditor = { id: 1, role: 'EDITOR' } as { id: number }; // auth() is what the context passes
    const editor = await rpcAs(s, asEditor, 'PUT', '/post/updateMany', { where: { authorId: 1 }, data: { published: true } });
    expect(editor.body).toEqual({ data: { count: 1 } });
    expect(await post(3)).toEqual({ title: 'renamed', published: false });
    expect(await post(1)).toEqual({ title: 'edited', published: true });
});
