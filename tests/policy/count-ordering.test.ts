import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * Ordering by a relation count. ZenStack filters a `_count` selection by the related model's read rule,
 * but not `orderBy: { tags: { _count } }`, which counts every related row: the order would rank posts by
 * how many tags they have that the user may not read. The handler refuses such an order unless everyone
 * may read every row of the related model.
 */

const SCHEMA = `
model User {
  id Int @id
  @@allow('all', true)
}

model Blog {
  id    Int    @id
  posts Post[]
  @@allow('all', true)
}

model Post {
  id     Int    @id
  blog   Blog?  @relation(fields: [blogId], references: [id])
  blogId Int?
  tags   Tag[]
  notes  Note[]
  flags  Flag[]
  @@allow('all', true)
}

model Tag {
  id     Int     @id
  post   Post    @relation(fields: [postId], references: [id])
  postId Int
  hidden Boolean @default(false)
  @@allow('read', !hidden)
  @@allow('create', true)
}

model Flag {
  id     Int  @id
  post   Post @relation(fields: [postId], references: [id])
  postId Int
  @@allow('read', true)
  @@deny('read', auth() == null)
}

model Note {
  id     Int  @id
  post   Post @relation(fields: [postId], references: [id])
  postId Int
  @@allow('read', true)
  @@deny('read', false)
}
`;

let s: TestSchema;
const USER = { id: 1 };

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.post.createMany({ data: [{ id: 1 }, { id: 2 }] });
    // post 1 has two tags nobody may read; post 2 one readable tag
    await s.prisma.tag.createMany({ data: [{ id: 1, postId: 1, hidden: true }, { id: 2, postId: 1, hidden: true }, { id: 3, postId: 2 }] });
    await s.prisma.note.createMany({ data: [{ id: 1, postId: 2 }, { id: 2, postId: 2 }, { id: 3, postId: 1 }] });
});

afterAll(async () => {
    await s.cleanup();
});

const findMany = (args: unknown) => rpcAs(s, USER, 'GET', '/post/findMany', args);

it('a count in select counts readable rows only (ZenStack filters it)', async () => {
    const res = await findMany({ select: { id: true, _count: { select: { tags: true } } }, orderBy: { id: 'asc' } });
    expect(res.body.data).toEqual([
        { id: 1, _count: { tags: 0 } },
        { id: 2, _count: { tags: 1 } },
    ]);
});

it.each([
    ['at the top', '/post/findMany', { orderBy: { tags: { _count: 'desc' } } }],
    ['in a list of orders', '/post/findMany', { orderBy: [{ id: 'asc' }, { tags: { _count: 'asc' } }] }],
    ['in an included relation', '/blog/findMany', { include: { posts: { orderBy: { tags: { _count: 'desc' } } } } }],
    ['through a to-one relation', '/note/findMany', { orderBy: { post: { tags: { _count: 'asc' } } } }],
])('ordering by the count of rows the user may not all read is refused (%s)', async (_name, path, args) => {
    const res = await rpcAs(s, USER, 'GET', path, args);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('ordering by the count of "tags" of Post is not supported: it would count Tag rows the user may not read');
});

it('a read @@deny with a condition makes the count unsafe too, next to @@allow(read, true)', async () => {
    const res = await findMany({ orderBy: { flags: { _count: 'desc' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/count of "flags" of Post .* Flag rows/);
});

it('ordering by the count of rows everyone may read works', async () => {
    const res = await findMany({ select: { id: true }, orderBy: { notes: { _count: 'desc' } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: 2 }, { id: 1 }]);
});
