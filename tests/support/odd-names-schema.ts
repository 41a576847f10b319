import type { TestSchema } from './schema';

/**
 * A legal but unusual schema, shared by the REST and RPC tests of names that collide with the protocols or with
 * JavaScript (`tests/rest/odd-names.test.ts`, `tests/rpc/odd-names.test.ts`):
 * - fields named like JSON:API members (`type`, `links`, `meta`, `data` …) and like Prisma's operators (`some`,
 *   `is`, `in`, `create` …), a relation named `type`, a model whose id field is named `type` and which has another field named `id`;
 * - models whose client keys are members of `Object.prototype` (`Constructor` → `constructor`, `ToString`,
 *   `HasOwnProperty`: ZenStack refuses such names for fields and enum values, not for models), and models named
 *   `Transaction`, `Relationships` (a REST path segment), `Meta`, `Error`;
 * - ids: not named `id`, with `/`, `,`, `%`, spaces and non-ASCII letters, a compound id whose parts may hold the
 *   divider, `@@id` with a name, BigInt and Int ids at their bounds, `uuid()`/`cuid()` defaults;
 * - `@map`/`@@map` on fields, models and an enum (values mapped too), `now()`/`autoincrement()` defaults,
 *   optional relations, self-relations, `onDelete: Cascade`/`SetNull`;
 * - an optional `Unsupported("…")` field (`Error.geo`), which the client neither reads nor writes;
 * - `Badge` has read-protected fields (one named `is`) next to a field named `some`, reached from `Holder`
 *   through a to-one relation.
 */
export const ODD_NAMES_SCHEMA = `
enum Kind {
  ALERT  @map("alert")
  NOTICE @map("notice")
  @@map("kinds")
}

model Constructor {
  id            Int            @id @default(autoincrement())
  name          String
  notifications Notification[]
  @@allow('all', true)
}

model Category {
  id    Int            @id @default(autoincrement())
  name  String
  items Notification[]
  metas Meta[]
  @@allow('all', true)
}

model Notification {
  id            String       @id @default(cuid())
  type          String
  kind          Kind         @default(ALERT)
  links         String?
  meta          String?
  relationships String?
  attributes    String?
  included      Int?
  data          String?
  errors        String?
  jsonapi       String?
  toJSON        String?
  then          String?
  some          String?
  in            String?
  create        String?
  createdAt     DateTime     @default(now()) @map("created_at")
  owner         Constructor? @relation(fields: [ownerId], references: [id], onDelete: SetNull)
  ownerId       Int?         @map("owner_id")
  category      Category?    @relation(fields: [categoryId], references: [id], onDelete: Cascade)
  categoryId    Int?
  @@map("notifications")
  @@allow('all', true)
}

model ToString {
  key       String     @id @map("pk")
  label     String     @map("the_label")
  parent    ToString?  @relation("tree", fields: [parentKey], references: [key], onDelete: Cascade)
  parentKey String?    @map("parent_pk")
  children  ToString[] @relation("tree")
  @@map("to_string_rows")
  @@allow('all', true)
}

model HasOwnProperty {
  a    String
  b    String
  note String?
  @@id([a, b], name: "pair")
  @@allow('all', true)
}

model Transaction {
  id     BigInt @id
  amount Int
  @@allow('all', true)
}

model Error {
  id      Int                  @id
  message String
  geo     Unsupported("TEXT")?
  @@allow('all', true)
}

model Relationships {
  id            Int             @id
  name          String?
  relationships Relationships[] @relation("peers")
  peerOf        Relationships[] @relation("peers")
  @@allow('all', true)
}

model Meta {
  id     Int      @id @default(autoincrement())
  type   Category @relation(fields: [typeId], references: [id], onDelete: Cascade)
  typeId Int
  @@allow('all', true)
}

model Sort {
  type  String  @id
  id    Int?    @unique
  label String?
  @@allow('all', true)
}

model Badge {
  id      Int      @id
  is      String?  @allow('read', false)
  some    String?
  secret  String?  @allow('read', false)
  holders Holder[]
  @@allow('all', true)
}

model Holder {
  id      Int    @id
  badge   Badge? @relation(fields: [badgeId], references: [id])
  badgeId Int?
  @@allow('all', true)
}
`;

/** Two badges (fields named `is` and `some`, a read-protected `secret`) and a holder of each, for both handlers' tests. */
export async function seedBadges(s: TestSchema): Promise<void> {
    await s.prisma.badge.create({ data: { id: 1, is: 'gold', some: 's', secret: 'pw' } });
    await s.prisma.badge.create({ data: { id: 2, is: '', some: 's2', secret: '' } });
    await s.prisma.holder.create({ data: { id: 1, badgeId: 1 } });
    await s.prisma.holder.create({ data: { id: 2, badgeId: 2 } });
}
