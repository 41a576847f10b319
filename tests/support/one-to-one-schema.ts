import type { TestSchema } from './schema';

/**
 * One-to-one relations under access policies. `Profile` owns the optional link to `User` (a unique,
 * nullable foreign key); a locked profile may not be updated, so it may not be detached either.
 * `Card` owns a required link to `Person` (its foreign key can never be null). Hidden users and
 * persons exist but are unreadable, to tell a missing record from an unreadable one.
 */
export const ONE_TO_ONE_SCHEMA = `
model User {
  id      Int      @id
  hidden  Boolean  @default(false)
  profile Profile?
  @@allow('all', !hidden)
}

model Profile {
  id     Int     @id
  user   User?   @relation(fields: [userId], references: [id])
  userId Int?    @unique
  locked Boolean @default(false)
  @@allow('read,create,delete', true)
  @@allow('update', !locked)
}

model Person {
  id     Int     @id
  hidden Boolean @default(false)
  card   Card?
  @@allow('all', !hidden)
}

model Card {
  id       Int     @id
  person   Person  @relation(fields: [personId], references: [id])
  personId Int     @unique
  locked   Boolean @default(false)
  @@allow('read,create,delete', true)
  @@allow('update', !locked)
}
`;

export const ONE_TO_ONE_MODELS = ['user', 'profile', 'person', 'card'] as const;

/**
 * Users 1, 2, 3 and hidden 9; profile 1 (user 1, locked), profile 2 (no user), profile 3 (user 2).
 * Persons 1 to 4 and hidden 9; card 1 (person 1, locked), card 2 (person 3), card 3 (person 2).
 */
export async function seedOneToOne(s: TestSchema): Promise<void> {
    for (const id of [1, 2, 3]) await s.prisma.user.create({ data: { id } });
    for (const id of [1, 2, 3, 4]) await s.prisma.person.create({ data: { id } });
    await s.prisma.user.create({ data: { id: 9, hidden: true } });
    await s.prisma.person.create({ data: { id: 9, hidden: true } });
    await s.prisma.profile.create({ data: { id: 1, userId: 1, locked: true } });
    await s.prisma.profile.create({ data: { id: 2 } });
    await s.prisma.profile.create({ data: { id: 3, userId: 2 } });
    await s.prisma.card.create({ data: { id: 1, personId: 1, locked: true } });
    await s.prisma.card.create({ data: { id: 2, personId: 3 } });
    await s.prisma.card.create({ data: { id: 3, personId: 2 } });
}

/**
 * One-to-one relations in shapes ZenStack writes its own way: a compound foreign key (`Capital.country`,
 * capital 1 locked), a link under a to-one update (`Post.author` → `Person.profile`), and a `@@delegate`
 * model owning one (`Video.cover`) beside a base relation (`Asset.owner`).
 */
export const ONE_TO_ONE_SHAPES_SCHEMA = `
model Country {
  code    String
  lang    String
  capital Capital?
  @@id([code, lang])
  @@allow('all', true)
}

model Capital {
  id      Int      @id
  country Country? @relation(fields: [cCode, cLang], references: [code, lang])
  cCode   String?
  cLang   String?
  locked  Boolean  @default(false)
  @@unique([cCode, cLang])
  @@allow('read,create,delete', true)
  @@allow('update', !locked)
}

model Person {
  id      Int      @id
  profile Profile?
  posts   Post[]
  @@allow('all', true)
}

model Profile {
  id       Int     @id
  person   Person? @relation(fields: [personId], references: [id])
  personId Int?    @unique
  @@allow('all', true)
}

model Post {
  id       Int     @id
  author   Person? @relation(fields: [authorId], references: [id])
  authorId Int?
  @@allow('all', true)
}

model Asset {
  id      Int     @id
  type    String
  owner   Person2? @relation(fields: [ownerId], references: [id])
  ownerId Int?
  @@delegate(type)
  @@allow('all', true)
}

model Person2 {
  id     Int     @id
  assets Asset[]
  @@allow('all', true)
}

model Video extends Asset {
  cover   Cover? @relation(fields: [coverId], references: [id])
  coverId Int?   @unique
}

model Cover {
  id    Int    @id
  video Video?
  @@allow('all', true)
}
`;

/**
 * Countries fr/fr, ch/de, ch/fr; capital 1 (fr/fr, locked), 2 (none), 3 (ch/fr). Persons 1-3, profile 1
 * (person 1) and 2 (none), post 1 (by person 3). Person2s 1 and 2, covers 1 and 2, video 1 (owner 1).
 */
export async function seedOneToOneShapes(s: TestSchema): Promise<void> {
    await s.prisma.country.createMany({ data: [{ code: 'fr', lang: 'fr' }, { code: 'ch', lang: 'de' }, { code: 'ch', lang: 'fr' }] });
    await s.prisma.capital.createMany({ data: [{ id: 1, cCode: 'fr', cLang: 'fr', locked: true }, { id: 2 }, { id: 3, cCode: 'ch', cLang: 'fr' }] });
    await s.prisma.person.createMany({ data: [{ id: 1 }, { id: 2 }, { id: 3 }] });
    await s.prisma.profile.createMany({ data: [{ id: 1, personId: 1 }, { id: 2 }] });
    await s.prisma.post.create({ data: { id: 1, authorId: 3 } });
    await s.prisma.person2.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.cover.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.enhance().video.create({ data: { id: 1, owner: { connect: { id: 1 } } } });
}

/**
 * Relations that reference a key the user may not read (`Member.code`, `Club.code`: `@allow('read', false)`):
 * the guard cannot write such a key. `Locker` links a member (one to one, by code), an owner (one to one,
 * by id) and a club (many to one, by code).
 */
export const ONE_TO_ONE_HIDDEN_KEY_SCHEMA = `
model Member {
  id     Int     @id
  code   String  @unique @allow('read', false)
  locker Locker?
  @@allow('all', true)
}

model Owner {
  id     Int     @id
  locker Locker?
  @@allow('all', true)
}

model Club {
  id      Int      @id
  code    String   @unique @allow('read', false)
  lockers Locker[]
  @@allow('all', true)
}

model Locker {
  id         Int     @id
  member     Member? @relation(fields: [memberCode], references: [code])
  memberCode String? @unique
  owner      Owner?  @relation(fields: [ownerId], references: [id])
  ownerId    Int?    @unique
  club       Club?   @relation(fields: [clubCode], references: [code])
  clubCode   String?
  @@allow('all', true)
}
`;

/** Members 1 (m1) and 2 (m2), owners 1 and 2, club 1 (c1); locker 1 (nothing linked), locker 2 (member m2). */
export async function seedOneToOneHiddenKeys(s: TestSchema): Promise<void> {
    await s.prisma.member.createMany({ data: [{ id: 1, code: 'm1' }, { id: 2, code: 'm2' }] });
    await s.prisma.owner.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.club.create({ data: { id: 1, code: 'c1' } });
    await s.prisma.locker.createMany({ data: [{ id: 1 }, { id: 2, memberCode: 'm2' }] });
}

/**
 * A one-to-one by a compound foreign key (`team.coach`: the coach holds `teamOrg` and `teamCode`), with coaches the
 * user may not read (`hidden`) or update (`locked`), and a to-many by the same key (`team.fans`).
 */
export const COMPOUND_KEY_TEAMS_SCHEMA = `
model Team {
  org   String
  code  String
  coach Coach?
  fans  Fan[]
  @@id([org, code])
  @@allow('all', true)
}

model Coach {
  id       Int     @id
  hidden   Boolean @default(false)
  locked   Boolean @default(false)
  team     Team?   @relation(fields: [teamOrg, teamCode], references: [org, code])
  teamOrg  String?
  teamCode String?
  @@unique([teamOrg, teamCode])
  @@allow('read', !hidden)
  @@allow('update', !locked)
  @@allow('create,delete', true)
}

model Fan {
  id       Int    @id
  team     Team   @relation(fields: [teamOrg, teamCode], references: [org, code])
  teamOrg  String
  teamCode String
  @@allow('all', true)
}
`;
