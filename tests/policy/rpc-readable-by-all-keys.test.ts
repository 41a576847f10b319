import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A model everyone may read (`@@allow('read', true)`) can still have a unique field only its owner may read
 * (`email`). The nested-write guard skipped its lookups for such models, every row being visible, so a nested
 * write naming a user by another user's email found the record: `{ members: { connect: { email: 'alice@x' } } }`
 * answered 200 (and linked Alice) where a wrong guess answered 404, and a `connectOrCreate` linked her instead of
 * creating, a `disconnect`/`update`/`delete`/`upsert` by her email reached her record. Such a filter is now looked
 * up as for any other model: a value the user may not read finds nothing, so the write answers as for a missing
 * record. Bob naming himself by his own email works as before.
 */

const SCHEMA = `
model Team {
  id      Int    @id
  members User[]
  posts   Post[]
  @@allow('all', true)
}
model User {
  id     Int    @id
  name   String @default('')
  email  String @unique @allow('read', auth() == this)
  team   Team?  @relation(fields: [teamId], references: [id])
  teamId Int?
  posts  Post[]
  @@allow('read', true)
  @@allow('create,update,delete', true)
}
model Post {
  id       Int   @id
  author   User? @relation(fields: [authorId], references: [id])
  authorId Int?
  team     Team? @relation(fields: [teamId], references: [id])
  teamId   Int?
  @@allow('all', true)
}
`;

const BOB = { id: 2 };
let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
});

afterAll(async () => {
    await s.cleanup();
});

async function seed(): Promise<void> {
    await s.prisma.post.deleteMany();
    await s.prisma.user.deleteMany();
    await s.prisma.team.deleteMany();
    await s.prisma.team.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.user.createMany({ data: [{ id: 1, email: 'alice@x', teamId: 1 }, { id: 2, email: 'bob@x', teamId: 1 }] });
    await s.prisma.post.createMany({ data: [{ id: 3 }] });
}

async function state(): Promise<string> {
    const users = await s.prisma.user.findMany({ orderBy: { id: 'asc' }, select: { id: true, name: true, teamId: true } });
    const posts = await s.prisma.post.findMany({ orderBy: { id: 'asc' } });
    return JSON.stringify({ users, posts });
}

type Case = [string, string, string, (email: string) => unknown];

const members = { members: { select: { id: true, name: true } } };
const CASES: Case[] = [
    ['to-many connect', 'PUT', '/team/update', (email) => ({ where: { id: 2 }, data: { members: { connect: { email } } }, include: members })],
    ['to-many connect under a create', 'POST', '/team/create', (email) => ({ data: { id: 5, members: { connect: { email } } }, include: members })],
    [
        'to-many connectOrCreate',
        'PUT',
        '/team/update',
        (email) => ({ where: { id: 2 }, data: { members: { connectOrCreate: { where: { email }, create: { id: 9, email: 'new@x' } } } }, include: members }),
    ],
    ['to-many set', 'PUT', '/team/update', (email) => ({ where: { id: 1 }, data: { members: { set: [{ email }] } }, include: members })],
    ['to-many disconnect', 'PUT', '/team/update', (email) => ({ where: { id: 1 }, data: { members: { disconnect: { email } } }, include: members })],
    ['to-many update', 'PUT', '/team/update', (email) => ({ where: { id: 1 }, data: { members: { update: { where: { email }, data: { name: 'z' } } } } })],
    ['to-many delete', 'PUT', '/team/update', (email) => ({ where: { id: 1 }, data: { members: { delete: { email } } } })],
    [
        'to-many upsert',
        'PUT',
        '/team/update',
        (email) => ({ where: { id: 1 }, data: { members: { upsert: { where: { email }, create: { id: 9, email: 'new@x' }, update: { name: 'z' } } } }, include: members }),
    ],
    ['to-one connect', 'PUT', '/post/update', (email) => ({ where: { id: 3 }, data: { author: { connect: { email } } } })],
    ['to-one connect under a create', 'POST', '/post/create', (email) => ({ data: { id: 4, author: { connect: { email } } } })],
    [
        'to-one connectOrCreate',
        'PUT',
        '/post/update',
        (email) => ({ where: { id: 3 }, data: { author: { connectOrCreate: { where: { email }, create: { id: 9, email: 'new@x' } } } } }),
    ],
];

describe.each(CASES)('%s by an email Bob may not read', (_name, method, path, args) => {
    it('answers and writes the same for a right and a wrong guess', async () => {
        await seed();
        const right = await rpcAs(s, BOB, method, path, args('alice@x'));
        const rightState = await state();
        await seed();
        const wrong = await rpcAs(s, BOB, method, path, args('nobody@x'));
        const wrongState = await state();
        expect([right.status, right.text, rightState]).toEqual([wrong.status, wrong.text, wrongState]);
    });

    it('still finds Bob by his own email', async () => {
        await seed();
        const before = await state();
        const own = await rpcAs(s, BOB, method, path, args('bob@x'));
        expect(own.status).toBeLessThan(300);
        expect(await state()).not.toEqual(before);
    });
});
