import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A link from the owner side of a relation (`note.post: { connect }`) to a record the user cannot read, named by a
 * unique field other than the key, answers as a link to a missing one: ZenStack checks only the note's own rules
 * there, so linking Alice's hidden draft by its slug succeeded (201) where a missing slug answers 404, telling Bob
 * which slugs exist and attaching his note to the draft. The lookup runs without a transaction (see
 * hidden-nested.ts); a post he can read is linked as before. A link by the key itself (`{ id }`) is the same write
 * as the key written as a field, which only the database checks (docs/rpc.md, known limitations).
 */

const SCHEMA = `
model User {
  id    Int    @id
  posts Post[]
  notes Note[]
  @@allow('all', true)
}
model Post {
  id        Int     @id
  slug      String  @unique
  published Boolean @default(false)
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  notes     Note[]
  @@allow('read', published || auth() == author)
  @@allow('create,update,delete', auth() == author)
}
model Note {
  id      Int  @id @default(autoincrement())
  post    Post @relation(fields: [postId], references: [id])
  postId  Int
  owner   User @relation(fields: [ownerId], references: [id])
  ownerId Int
  @@allow('all', auth() == owner)
}
`;

const BOB = { id: 2 };
let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.post.createMany({
        data: [
            { id: 1, slug: 'public', published: true, authorId: 1 },
            { id: 2, slug: 'draft', published: false, authorId: 1 },
        ],
    });
});

afterAll(async () => {
    await s.cleanup();
});

const note = (post: unknown) => ({ data: { post: { connect: post }, owner: { connect: { id: 2 } } } });

it('a note linked to a hidden post by its slug answers as for a missing post and is not created', async () => {
    const a = await rpcAs(s, BOB, 'POST', '/note/create', note({ slug: 'draft' }));
    const b = await rpcAs(s, BOB, 'POST', '/note/create', note({ slug: 'nope' }));
    expect(b.status).toBe(404);
    expect([a.status, a.text]).toEqual([b.status, b.text]);
    expect(await s.prisma.note.count()).toBe(0);
});

it('a note linked to a readable post is created, and moving it to a hidden post answers as for a missing one', async () => {
    const created = await rpcAs(s, BOB, 'POST', '/note/create', note({ slug: 'public' }));
    expect([created.status, created.body.data?.postId]).toEqual([201, 1]);
    const id = created.body.data.id;
    const moved = await rpcAs(s, BOB, 'PUT', '/note/update', { where: { id }, data: { post: { connect: { slug: 'draft' } } } });
    const nowhere = await rpcAs(s, BOB, 'PUT', '/note/update', { where: { id }, data: { post: { connect: { slug: 'nope' } } } });
    expect(nowhere.status).toBe(404);
    expect([moved.status, moved.text]).toEqual([nowhere.status, nowhere.text]);
    expect(await s.prisma.note.findUnique({ where: { id } })).toMatchObject({ postId: 1 });
    // the author sees her draft: the link is made
    const alice = await rpcAs(s, { id: 1 }, 'POST', '/note/create', { data: { post: { connect: { id: 2 } }, owner: { connect: { id: 1 } } } });
    expect(alice.status).toBe(201);
});

