/**
 * A generated ZModel of `count` models for the cold-start benchmark (`bench/cold-start.ts`): each model
 * `E<i>` has eleven scalars of mixed types (text, unique text, Int, Float, Boolean, DateTime, `@updatedAt`,
 * BigInt, Decimal, Json, an enum) and relations of every shape:
 *
 * - `parent` (to-one, owning) to `E<i-1>`, whose `children` is the to-many side;
 * - `partner` (to-one, owning) to `E<(7i+3) mod count>`, whose `partnerOf<i>` is the to-many side;
 * - every even model: `detail`, one-to-one to `E<i+1>` (`detailOf` there);
 * - every tenth model: a self relation (`manager` / `reports`);
 * - every fifth model: an implicit many-to-many `links` to `E<i+2>` (`linkedBy<i>` there);
 * - every third model: an `owner` (to-one) to `User`, and rules that use it;
 * - every fourth model: a field with a field-level read rule.
 *
 * Every model may be read by anyone and written by any signed-in user (its owner, where it has one).
 */

const name = (i: number) => `E${i}`;

function model(i: number, count: number): string {
    const lines: string[] = [
        `model ${name(i)} {`,
        '  id        Int      @id @default(autoincrement())',
        '  title     String',
        '  code      String   @unique',
        '  qty       Int      @default(0)',
        '  price     Float?',
        '  active    Boolean  @default(true)',
        '  createdAt DateTime @default(now())',
        '  updatedAt DateTime @updatedAt',
        '  big       BigInt?',
        '  amount    Decimal?',
        '  meta      Json?',
        '  status    Status   @default(DRAFT)',
    ];
    if (i > 0) {
        lines.push(`  parent    ${name(i - 1)}? @relation("parent${i}", fields: [parentId], references: [id])`, '  parentId  Int?');
    }
    if (i < count - 1) lines.push(`  children  ${name(i + 1)}[] @relation("parent${i + 1}")`);
    const partner = (7 * i + 3) % count;
    lines.push(`  partner   ${name(partner)}? @relation("partner${i}", fields: [partnerId], references: [id])`, '  partnerId Int?');
    for (let j = 0; j < count; j++) {
        if ((7 * j + 3) % count === i) lines.push(`  partnerOf${j} ${name(j)}[] @relation("partner${j}")`);
    }
    if (i % 2 === 0 && i < count - 1) {
        lines.push(`  detail    ${name(i + 1)}? @relation("detail${i}", fields: [detailId], references: [id])`, '  detailId  Int? @unique');
    }
    if (i % 2 === 1) lines.push(`  detailOf  ${name(i - 1)}? @relation("detail${i - 1}")`);
    if (i % 10 === 0) {
        lines.push(`  manager   ${name(i)}? @relation("self${i}", fields: [managerId], references: [id])`, '  managerId Int?');
        lines.push(`  reports   ${name(i)}[] @relation("self${i}")`);
    }
    if (i % 5 === 0 && i + 2 < count) lines.push(`  links     ${name(i + 2)}[] @relation("links${i}")`);
    if (i % 5 === 2 && i >= 2) lines.push(`  linkedBy${i - 2} ${name(i - 2)}[] @relation("links${i - 2}")`);
    if (i % 4 === 0) lines.push("  secret    String? @allow('read', auth() != null)");
    const owned = i % 3 === 0;
    if (owned) {
        lines.push(`  owner     User? @relation("owner${i}", fields: [ownerId], references: [id])`, '  ownerId   Int?');
        lines.push('', "  @@allow('read', true)", "  @@allow('create', auth() != null)", "  @@allow('update,delete', auth() != null && owner == auth())");
    } else {
        lines.push('', "  @@allow('read', true)", "  @@allow('create,update,delete', auth() != null)");
    }
    lines.push('}');
    return lines.join('\n');
}

/** The schema text of `count` models (at least 3) besides `User`. */
export function coldStartSchema(count: number): string {
    const user = ['model User {', '  id    Int    @id @default(autoincrement())', '  email String @unique'];
    for (let i = 0; i < count; i += 3) user.push(`  owned${i} ${name(i)}[] @relation("owner${i}")`);
    user.push('', "  @@allow('all', true)", '}');
    const parts = ['enum Status {\n  DRAFT\n  LIVE\n  ARCHIVED\n}', user.join('\n')];
    for (let i = 0; i < count; i++) parts.push(model(i, count));
    return `${parts.join('\n\n')}\n`;
}

/** The model names of the schema (`E0` …). */
export const coldStartModel = name;
