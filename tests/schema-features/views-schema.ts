import type { TestSchema } from '../support/schema';

/**
 * Database views and ignored models and fields, for both handlers' tests of them (views.test.ts, ignored.test.ts):
 * - `AuthorInfo`, a view with a `@unique` field (ZenStack takes it for the id), related to `Author`, written by no
 *   rule but readable; `OpenInfo`, a view everyone may write (the database and the data layer refuse it);
 * - `TitleCount` and `AuthorStat`, views without any unique field (no record of theirs can be named), the second
 *   related to `Author`, everyone may write them;
 * - `NameCount`, a view whose only unique field is optional (no unique criterion for the data layer), and `Member`, a
 *   model without `@id` whose first `@unique` field (ZenStack's id) is optional, its second required;
 * - `Legacy`, an `@@ignore`d model, with the `@ignore`d relation to it from `Author`, and `Book.secret`, an
 *   `@ignore`d field.
 * Prisma's migration DDL holds the ignored table and column, never the views: `createViews` makes them.
 * ZenStack 2.22's zod plugin writes a module that cannot load for a view without a unique field: load with `zod: false`.
 */
export const VIEWS_SCHEMA = `
model Author {
  id       Int          @id @default(autoincrement())
  name     String
  books    Book[]
  info     AuthorInfo?
  stats    AuthorStat[]
  legacy   Legacy?      @relation(fields: [legacyId], references: [id]) @ignore
  legacyId Int?
  @@allow('all', true)
}

model Book {
  id       Int     @id @default(autoincrement())
  title    String
  author   Author  @relation(fields: [authorId], references: [id])
  authorId Int
  secret   String? @ignore
  @@allow('all', true)
}

model Legacy {
  id      Int      @id
  name    String
  authors Author[] @ignore
  @@ignore
}

view AuthorInfo {
  authorId  Int    @unique
  name      String
  bookCount Int
  author    Author @relation(fields: [authorId], references: [id])
  @@allow('read', true)
}

view OpenInfo {
  key  String @unique
  name String
  @@allow('all', true)
}

view TitleCount {
  title String
  n     Int
  @@allow('all', true)
}

view NameCount {
  name String? @unique
  n    Int
  @@allow('read', true)
}

model Member {
  nickname String? @unique
  handle   String  @unique
  @@allow('all', true)
}

view AuthorStat {
  authorId Int
  books    Int
  author   Author @relation(fields: [authorId], references: [id])
  @@allow('all', true)
}
`;

/** The views of VIEWS_SCHEMA (SQLite), over its tables. */
const VIEWS_SQL = `
CREATE VIEW "AuthorInfo" AS SELECT a.id AS "authorId", a.name, (SELECT COUNT(*) FROM "Book" b WHERE b."authorId" = a.id) AS "bookCount" FROM "Author" a;
CREATE VIEW "OpenInfo" AS SELECT 'k' || id AS key, name FROM "Author";
CREATE VIEW "TitleCount" AS SELECT title, COUNT(*) AS n FROM "Book" GROUP BY title;
CREATE VIEW "NameCount" AS SELECT name, COUNT(*) AS n FROM "Author" GROUP BY name;
CREATE VIEW "AuthorStat" AS SELECT "authorId", COUNT(*) AS books FROM "Book" GROUP BY "authorId";
`;

/** Creates the views in the test's SQLite database and seeds two authors: Ann (id 1) with two books titled alike, Bob (id 2) with none. */
export async function createViews(s: TestSchema): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3');
    const db = new Database(s.dbFile);
    try {
        db.exec(VIEWS_SQL);
    } finally {
        db.close();
    }
    await s.prisma.author.create({ data: { name: 'Ann', books: { create: [{ title: 'Same' }, { title: 'Same' }] } } });
    await s.prisma.author.create({ data: { name: 'Bob' } });
}
