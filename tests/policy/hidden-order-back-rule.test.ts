import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * A nested read's order is checked over the rows of its parents only through the relation back to them
 * (`hidden-order.ts`, `nestedRows`). When that relation field has a field-level read rule the reader does not
 * pass, ZenStack matches no row by it, although the nested read still returns the parent's rows: the check
 * then saw no row and let the posts of user 2 be sorted by the name of a blog the reader may not read.
 */
const SCHEMA = `
model User {
  id    Int    @id
  name  String
  posts Post[]
  @@allow('all', true)
}

model Blog {
  id     Int     @id
  name   String
  secret Boolean @default(false)
  posts  Post[]
  @@allow('read', !secret)
  @@allow('create', true)
}

model Post {
  id       Int   @id
  blog     Blog? @relation(fields: [blogId], references: [id])
  blogId   Int?
  author   User? @relation(fields: [authorId], references: [id]) @allow('read', auth().id == 9)
  authorId Int?
  @@allow('all', true)
}
`;

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({ data: [{ id: 1, name: 'reader' }, { id: 2, name: 'bea' }] });
    await s.prisma.blog.createMany({ data: [{ id: 1, name: 'mango' }, { id: 2, name: 'aaa', secret: true }] });
    await s.prisma.post.createMany({ data: [{ id: 1, blogId: 1, authorId: 2 }, { id: 2, blogId: 2, authorId: 2 }] });
});

afterAll(async () => {
    await s.cleanup();
});

it('a nested order through a relation back to the parent the reader may not read is checked over every row', async () => {
    const answers: Res[] = [];
    for (const name of ['aaa', 'zzz']) {
        await s.prisma.blog.update({ where: { id: 2 }, data: { name } });
        answers.push(await rpcAs(s, { id: 1 }, 'GET', '/user/findUnique', { where: { id: 2 }, select: { posts: { select: { id: true }, orderBy: { blog: { name: 'asc' } } } } }));
    }
    expect(answers[0].status).toBe(400);
    expect(answers[0].text).toEqual(answers[1].text);
});
