import type { LoadOptions } from './schema';

/**
 * One schema of PostgreSQL native column types (`@db.*`) for the REST and RPC suites on them
 * (tests/rest/native-types-pg.test.ts, tests/rpc/native-types-pg.test.ts): one generation for both.
 * `Box` and `Tag` have fixed-length text ids (`@db.Char(4)`: stored and answered padded with spaces); a tag
 * may be created and read, not updated. `LargeObject` has an unsigned 32-bit id (`@db.Oid`).
 */
export const NATIVE_TYPES_SCHEMA = `
enum Color {
  RED
  GREEN
}

model Native {
  id     Int        @id
  small  Int?       @db.SmallInt
  real   Float?     @db.Real
  dec    Decimal?   @db.Decimal(5, 2)
  money  Decimal?   @db.Money
  code   String?    @db.Char(4)
  name   String?    @db.VarChar(8)
  ci     String?    @db.Citext
  inet   String?    @db.Inet
  xml    String?    @db.Xml
  flags  String?    @db.Bit(4)
  bits   String?    @db.VarBit(8)
  time   DateTime?  @db.Time(3)
  day    DateTime?  @db.Date
  at     DateTime?  @db.Timestamp(0)
  oid    Int?       @db.Oid
  doc    Json?      @db.Json
  tags   String[]
  colors Color[]
  dates  DateTime[]
  @@allow('all', true)
}

model Box {
  code  String @id @db.Char(4)
  items Item[]
  tags  Tag[]
  @@allow('all', true)
}

model Item {
  code    String  @id @db.Char(4)
  box     Box?    @relation(fields: [boxCode], references: [code])
  boxCode String? @db.Char(4)
  @@allow('all', true)
}

model Tag {
  code  String @id @db.Char(4)
  boxes Box[]
  @@allow('read', true)
  @@allow('create', true)
}

model LargeObject {
  id   Int     @id @db.Oid
  name String?
  @@allow('all', true)
}

model Counter {
  id   BigInt @id @default(autoincrement())
  name String
  @@allow('all', true)
}
`;

export const NATIVE_TYPES_OPTIONS: LoadOptions = { provider: 'postgresql', pgExtensions: ['citext'] };
