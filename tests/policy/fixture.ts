import { loadSchema, type LoadOptions, type TestSchema } from '../support/schema';

/**
 * A schema with field-level read rules, an `@omit` field and row-level rules. Three users; the
 * tests act as Bob (id 2), who may read his own email, salary and every user's name, but no one
 * else's email or salary, no one's password hash, and only published posts of others.
 */
export const LEAK_SCHEMA = `
model User {
  id       Int       @id
  name     String
  email    String    @unique @allow('read', auth() == this)
  salary   Int       @default(0) @deny('read', auth() != this)
  password String    @default('') @omit
  posts    Post[]
  @@allow('all', true)
}

model Post {
  id        Int      @id
  title     String
  published Boolean  @default(false)
  views     Int      @default(0)
  author    User     @relation(fields: [authorId], references: [id])
  authorId  Int
  @@allow('read', published || auth() == author)
  @@allow('create,update,delete', auth() == author)
}
`;

export const BOB = { id: 2 };

export async function loadLeakSchema(options: LoadOptions = {}): Promise<TestSchema> {
    const s = await loadSchema(LEAK_SCHEMA, options);
    const users = [
        { id: 1, name: 'alice', email: 'alice@x', salary: 100, password: 'hash-alice' },
        { id: 2, name: 'bob', email: 'bob@x', salary: 50, password: 'hash-bob' },
        { id: 3, name: 'carol', email: 'carol@x', salary: 200, password: 'hash-carol' },
    ];
    for (const u of users) await s.prisma.user.create({ data: u });
    await s.prisma.post.createMany({
        data: [
            { id: 1, title: 'alice public', published: true, views: 5, authorId: 1 },
            { id: 2, title: 'alice secret draft', published: false, views: 900, authorId: 1 },
            { id: 3, title: 'bob public', published: true, views: 1, authorId: 2 },
            { id: 4, title: 'carol draft', published: false, views: 7, authorId: 3 },
        ],
    });
    return s;
}

/** Every value Bob must never see, as it would appear in a response body. */
export const SECRETS = ['alice@x', 'carol@x', 'hash-alice', 'hash-bob', 'hash-carol', 'alice secret draft', 'carol draft', '900'];
