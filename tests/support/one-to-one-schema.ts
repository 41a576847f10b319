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
