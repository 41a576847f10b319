import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Rows ordered through to-one relations to records some users may not read (`common/hidden-order.ts`). Blog 2,
 * user 3 and profile 2 are hidden from everyone but admins; the posts are readable by all:
 *
 *   post 1: blog 1 "alpha", author 1 (profile "f")     post 4: no blog, author 3 (hidden)
 *   post 2: blog 2 (hidden), author 1                   post 5: no blog, no author
 *   post 3: blog 3 "zulu", author 2 (profile hidden)
 *
 * Every post has topic 1 (a model everyone reads). Notes 1, 2, 3 have a blog each (required): blogs 1, 2, 3.
 */
export const HIDDEN_ORDER_SCHEMA = `
model User {
  id      Int      @id
  name    String
  hidden  Boolean  @default(false)
  admin   Boolean  @default(false)
  profile Profile?
  posts   Post[]
  @@allow('read', !hidden || auth().admin)
  @@allow('create,update', true)
}

model Profile {
  id     Int     @id
  gender String
  secret Boolean @default(false)
  user   User    @relation(fields: [userId], references: [id])
  userId Int     @unique
  @@allow('read', !secret || auth().admin)
  @@allow('create', true)
}

model Blog {
  id     Int     @id
  name   String
  rank   Int     @default(0)
  secret Boolean @default(false)
  posts  Post[]
  notes  Note[]
  @@allow('read', !secret || auth().admin)
  @@allow('create', true)
}

model Note {
  id     Int  @id
  blog   Blog @relation(fields: [blogId], references: [id])
  blogId Int
  @@allow('all', true)
}

model Topic {
  id    Int    @id
  name  String
  posts Post[]
  @@allow('all', true)
}

model Post {
  id       Int    @id
  title    String
  blog     Blog?  @relation(fields: [blogId], references: [id])
  blogId   Int?
  author   User?  @relation(fields: [authorId], references: [id])
  authorId Int?
  topic    Topic? @relation(fields: [topicId], references: [id])
  topicId  Int?
  @@allow('all', true)
}
`;

export const READER = { id: 1 };
export const ADMIN = { id: 9, admin: true };

export async function loadHiddenOrderSchema(): Promise<TestSchema> {
    const s = await loadSchema(HIDDEN_ORDER_SCHEMA);
    await s.prisma.user.createMany({ data: [{ id: 1, name: 'ann' }, { id: 2, name: 'bea' }, { id: 3, name: 'mia', hidden: true }] });
    await s.prisma.profile.createMany({ data: [{ id: 1, userId: 1, gender: 'f' }, { id: 2, userId: 2, gender: 'm', secret: true }, { id: 3, userId: 3, gender: 'x' }] });
    await s.prisma.blog.createMany({ data: [{ id: 1, name: 'alpha', rank: 1 }, { id: 2, name: 'mango', rank: 5, secret: true }, { id: 3, name: 'zulu', rank: 9 }] });
    await s.prisma.note.createMany({ data: [{ id: 1, blogId: 1 }, { id: 2, blogId: 2 }, { id: 3, blogId: 3 }] });
    await s.prisma.topic.create({ data: { id: 1, name: 'news' } });
    await s.prisma.post.createMany({
        data: [
            { id: 1, title: 'p1', blogId: 1, authorId: 1, topicId: 1 },
            { id: 2, title: 'p2', blogId: 2, authorId: 1, topicId: 1 },
            { id: 3, title: 'p3', blogId: 3, authorId: 2, topicId: 1 },
            { id: 4, title: 'p4', authorId: 3, topicId: 1 },
            { id: 5, title: 'p5', topicId: 1 },
        ],
    });
    return s;
}

/**
 * Gives the hidden values (and the profile of the hidden user) a low or a high guess: an order by them would move the rows pointing at them from one
 * end to the other, an answer that does not must stay the same.
 */
export async function setSecrets(s: TestSchema, low: boolean): Promise<void> {
    await s.prisma.blog.update({ where: { id: 2 }, data: low ? { name: 'aaa', rank: 0 } : { name: 'zzz', rank: 99 } });
    await s.prisma.user.update({ where: { id: 3 }, data: { name: low ? 'aaa' : 'zzz' } });
    await s.prisma.profile.update({ where: { id: 2 }, data: { gender: low ? 'a' : 'z' } });
    // readable itself, but reached through hidden user 3: where it sorts tells whose it is
    await s.prisma.profile.update({ where: { id: 3 }, data: { gender: low ? 'a' : 'z' } });
}
