/**
 * A multi-tenant SaaS schema for integration trials: spaces with role-based memberships (a compound
 * `@@id` join model), projects keyed per space (`@@unique`), tasks with a self-relation, enums, Json,
 * `@map`/`@@map` names, `@updatedAt`, an optional one-to-one, cuid ids, a `@password @omit` field, a
 * field-level read rule, and a relation with a compound foreign key to the join model.
 */
import type { TestSchema } from './schema';

export const SAAS_SCHEMA = `
enum Role {
  OWNER
  ADMIN
  MEMBER
  VIEWER
}

enum TaskStatus {
  TODO
  DOING
  DONE
}

model User {
  id          String       @id @default(cuid())
  email       String       @unique @email
  name        String?
  password    String       @password @omit
  phone       String?      @allow('read', auth() == this)
  createdAt   DateTime     @default(now()) @map("created_at")
  memberships Membership[]
  assigned    Task[]       @relation("assignee")
  profile     Profile?

  @@allow('create', true)
  @@allow('read', auth() != null)
  @@allow('update,delete', auth() == this)
  @@map("users")
}

model Profile {
  id     String  @id @default(cuid())
  bio    String?
  user   User    @relation(fields: [userId], references: [id], onDelete: Cascade)
  userId String  @unique @map("user_id")

  @@allow('read', auth() != null)
  @@allow('all', user == auth())
  @@map("profiles")
}

model Space {
  id        String       @id @default(cuid())
  slug      String       @unique
  name      String
  settings  Json?
  createdAt DateTime     @default(now())
  updatedAt DateTime     @updatedAt
  members   Membership[]
  projects  Project[]

  @@allow('create', auth() != null)
  @@allow('read', members?[user == auth()])
  @@allow('update,delete', members?[user == auth() && role in [OWNER, ADMIN]])
  @@map("spaces")
}

model Membership {
  space    Space    @relation(fields: [spaceId], references: [id], onDelete: Cascade)
  spaceId  String   @map("space_id")
  user     User     @relation(fields: [userId], references: [id], onDelete: Cascade)
  userId   String   @map("user_id")
  role     Role     @default(MEMBER)
  joinedAt DateTime @default(now())
  entries  TimeEntry[]

  @@id([spaceId, userId])
  @@allow('read', space.members?[user == auth()])
  @@allow('create,update,delete', space.members?[user == auth() && role in [OWNER, ADMIN]])
  @@map("memberships")
}

model Project {
  id       String  @id @default(cuid())
  space    Space   @relation(fields: [spaceId], references: [id], onDelete: Cascade)
  spaceId  String  @map("space_id")
  key      String
  name     String
  budget   Int?    @allow('read', space.members?[user == auth() && role in [OWNER, ADMIN]])
  meta     Json?
  archived Boolean @default(false)
  tasks    Task[]

  @@unique([spaceId, key])
  @@allow('read', space.members?[user == auth()])
  @@allow('create,update,delete', space.members?[user == auth() && role in [OWNER, ADMIN]])
  @@map("projects")
}

model Task {
  id         String     @id @default(cuid())
  project    Project    @relation(fields: [projectId], references: [id], onDelete: Cascade)
  projectId  String     @map("project_id")
  number     Int
  title      String     @length(1, 100) @map("task_title")
  status     TaskStatus @default(TODO)
  priority   Int        @default(0)
  labels     Json?
  assignee   User?      @relation("assignee", fields: [assigneeId], references: [id])
  assigneeId String?    @map("assignee_id")
  parent     Task?      @relation("subtasks", fields: [parentId], references: [id])
  parentId   String?    @map("parent_id")
  children   Task[]     @relation("subtasks")
  dueAt      DateTime?
  updatedAt  DateTime   @updatedAt

  @@unique([projectId, number])
  @@validate(priority >= 0 && priority <= 5, "priority must be between 0 and 5")
  @@allow('read', project.space.members?[user == auth()])
  @@allow('create,update', project.space.members?[user == auth() && role != VIEWER])
  @@allow('delete', project.space.members?[user == auth() && role in [OWNER, ADMIN]])
  @@map("tasks")
}

model TimeEntry {
  id         Int        @id @default(autoincrement())
  membership Membership @relation(fields: [spaceId, userId], references: [spaceId, userId], onDelete: Cascade)
  spaceId    String     @map("space_id")
  userId     String     @map("user_id")
  minutes    Int
  note       String?

  @@allow('read', membership.space.members?[user == auth()])
  @@allow('create,update,delete', membership.user == auth())
  @@map("time_entries")
}
`;

const AT = new Date('2024-05-01T10:00:00.000Z');

/**
 * Space "acme": Alice OWNER, Bob MEMBER, Carol VIEWER; space "globex": Carol OWNER (hidden from the others).
 * Projects WEB (budget 1000) and API in acme, WEB in globex; task t1 has children t2 and t3; t5 is globex's.
 */
export async function seedSaas(s: TestSchema): Promise<void> {
    const p = s.prisma;
    for (const [id, name] of [['ualice', 'Alice'], ['ubob', 'Bob'], ['ucarol', 'Carol'], ['udave', 'Dave']]) {
        await p.user.create({ data: { id, email: `${name.toLowerCase()}@x.io`, name, password: 'hash', phone: `555-${name}`, createdAt: AT } });
    }
    await p.profile.create({ data: { id: 'palice', bio: 'hi', userId: 'ualice' } });
    await p.space.create({ data: { id: 'sacme', slug: 'acme', name: 'Acme', settings: { theme: 'dark' }, createdAt: AT } });
    await p.space.create({ data: { id: 'sglobex', slug: 'globex', name: 'Globex', createdAt: AT } });
    await p.membership.createMany({
        data: [
            { spaceId: 'sacme', userId: 'ualice', role: 'OWNER', joinedAt: AT },
            { spaceId: 'sacme', userId: 'ubob', role: 'MEMBER', joinedAt: AT },
            { spaceId: 'sacme', userId: 'ucarol', role: 'VIEWER', joinedAt: AT },
            { spaceId: 'sglobex', userId: 'ucarol', role: 'OWNER', joinedAt: AT },
        ],
    });
    await p.project.create({ data: { id: 'pweb', spaceId: 'sacme', key: 'WEB', name: 'Website', budget: 1000, meta: { color: 'red' } } });
    await p.project.create({ data: { id: 'papi', spaceId: 'sacme', key: 'API', name: 'API' } });
    await p.project.create({ data: { id: 'pglx', spaceId: 'sglobex', key: 'WEB', name: 'Globex web', budget: 7 } });
    await p.task.create({ data: { id: 't1', projectId: 'pweb', number: 1, title: 'Design', status: 'DOING', priority: 2, labels: ['ui'], assigneeId: 'ubob', dueAt: AT } });
    await p.task.create({ data: { id: 't2', projectId: 'pweb', number: 2, title: 'Build', priority: 1, parentId: 't1' } });
    await p.task.create({ data: { id: 't3', projectId: 'pweb', number: 3, title: 'Test', priority: 3, parentId: 't1', assigneeId: 'ualice' } });
    await p.task.create({ data: { id: 't4', projectId: 'papi', number: 1, title: 'Spec', status: 'DONE' } });
    await p.task.create({ data: { id: 't5', projectId: 'pglx', number: 1, title: 'Secret', assigneeId: 'ucarol' } });
    await p.timeEntry.create({ data: { spaceId: 'sacme', userId: 'ubob', minutes: 30 } });
    await p.timeEntry.create({ data: { spaceId: 'sacme', userId: 'ualice', minutes: 45 } });
}
