import type { TestSchema } from '../support/schema';

/**
 * The schema of the differential tests for what the blog lacks: a field-level read rule (`User.email`) and
 * update rule (`User.score`), `@omit` and `@password`, an optional self relation (mentor) and a self
 * many-to-many (friends), an implicit many-to-many with a row rule through it (groups), an optional
 * one-to-one whose rules name the partner (badge), a compound id with typed columns (Doc: Json, Bytes,
 * BigInt, Decimal, an enum) and a join model keyed by a compound foreign key (DocTag).
 */
export const ZOO_SCHEMA = `
enum Level {
  LOW
  HIGH
}

model User {
  id       Int     @id
  name     String
  email    String  @unique @allow('read', auth() == this)
  score    Int     @default(0) @allow('update', auth() == this)
  secret   String  @default('') @omit
  password String  @default('') @password @omit
  level    Level   @default(LOW)
  mentor   User?   @relation('mentoring', fields: [mentorId], references: [id])
  mentorId Int?
  mentees  User[]  @relation('mentoring')
  friends  User[]  @relation('friends')
  friendOf User[]  @relation('friends')
  groups   Group[]
  badge    Badge?
  docs     Doc[]
  @@allow('create,read', true)
  @@allow('update,delete', auth() == this)
}

model Group {
  id      Int     @id
  name    String
  private Boolean @default(false)
  members User[]
  @@allow('read', !private || members?[id == auth().id])
  @@allow('create', auth() != null)
  @@allow('update,delete', members?[id == auth().id])
}

model Badge {
  id     Int    @id
  label  String
  user   User?  @relation(fields: [userId], references: [id])
  userId Int?   @unique
  @@allow('read', true)
  @@allow('create,update,delete', userId == null || user == auth())
}

model Doc {
  ns      String
  slug    String
  title   String
  data    Json?
  blob    Bytes?
  big     BigInt  @default(0)
  amount  Decimal @default(0)
  level   Level   @default(LOW)
  owner   User?   @relation(fields: [ownerId], references: [id])
  ownerId Int?
  tags    DocTag[]
  @@id([ns, slug])
  @@allow('read', level == LOW || owner == auth())
  @@allow('create,update,delete', owner == auth())
}

model DocTag {
  doc     Doc    @relation(fields: [docNs, docSlug], references: [ns, slug], onDelete: Cascade)
  docNs   String
  docSlug String
  tag     String
  weight  Int    @default(1)
  @@id([docNs, docSlug, tag])
  @@allow('read', doc.level == LOW)
  @@allow('create,update,delete', doc.owner == auth())
}
`;

/**
 * Three users (2 mentors 1 and 3; 1 and 2 are friends), a public and a private group, two badges (one
 * without a user), three docs (one HIGH, one without owner) with tags.
 */
export async function seedZoo(s: TestSchema): Promise<void> {
    const p = s.prisma;
    await p.user.create({ data: { id: 1, name: 'Ann', email: 'ann@x', score: 5, secret: 's1', level: 'HIGH' } });
    await p.user.create({ data: { id: 2, name: 'Ben', email: 'ben@x', secret: 's2' } });
    await p.user.create({ data: { id: 3, name: 'Cy', email: 'cy@x', mentorId: 2 } });
    await p.user.update({ where: { id: 1 }, data: { mentorId: 2, friends: { connect: [{ id: 2 }] } } });
    await p.group.create({ data: { id: 1, name: 'open', members: { connect: [{ id: 1 }, { id: 2 }] } } });
    await p.group.create({ data: { id: 2, name: 'closed', private: true, members: { connect: [{ id: 1 }] } } });
    await p.badge.createMany({ data: [{ id: 1, label: 'gold', userId: 1 }, { id: 2, label: 'loose' }] });
    await p.doc.create({ data: { ns: 'a', slug: 'one', title: 'One', data: { k: [1, 'x'] }, blob: Buffer.from([1, 2]), big: 9007199254740993n, amount: '1.25', ownerId: 1 } });
    await p.doc.create({ data: { ns: 'a', slug: 'two', title: 'Two', level: 'HIGH', ownerId: 2 } });
    await p.doc.create({ data: { ns: 'b', slug: 'one', title: 'Free' } });
    await p.docTag.createMany({ data: [{ docNs: 'a', docSlug: 'one', tag: 'x' }, { docNs: 'a', docSlug: 'one', tag: 'y', weight: 3 }, { docNs: 'a', docSlug: 'two', tag: 'x' }] });
}
