import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * Nested to-one writes through a required relation to a partner the user cannot read. ZenStack drops a record
 * whose required to-one relation it is asked to include and cannot read (`select: { blog: … }` answers null for
 * the note itself), so the partner read of `hidden-to-one.ts` saw no note and let the write through: ZenStack
 * then updated the hidden blog, with a 200. The note is readable, so its hidden partner is treated as none, as
 * on an optional relation: the update matches nothing (404), an upsert runs its create.
 */

const SCHEMA = `
model User {
  id     Int     @id
  name   String  @default('')
  hidden Boolean @default(false)
  assets Asset[]
  @@allow('read', !hidden)
  @@allow('create,update', true)
}

model Blog {
  id     Int     @id
  name   String  @default('')
  secret Boolean @default(false)
  notes  Note[]
  @@allow('read', !secret)
  @@allow('create,update', true)
}

model Note {
  id      Int    @id
  blog    Blog   @relation(fields: [blogId], references: [id])
  blogId  Int
  shelf   Shelf? @relation(fields: [shelfId], references: [id])
  shelfId Int?
  @@allow('all', true)
}

model Shelf {
  id    Int    @id
  notes Note[]
  @@allow('all', true)
}

model Asset {
  id        Int    @id
  owner     User   @relation(fields: [ownerId], references: [id])
  ownerId   Int
  assetType String
  @@delegate(assetType)
  @@allow('all', true)
}

model Video extends Asset {
  duration Int @default(0)
}
`;

let s: TestSchema;
beforeEach(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.blog.createMany({ data: [{ id: 1, name: 'open' }, { id: 2, name: 'SECRET', secret: true }] });
    await s.prisma.shelf.create({ data: { id: 1 } });
    await s.prisma.note.createMany({ data: [{ id: 1, blogId: 1, shelfId: 1 }, { id: 2, blogId: 2, shelfId: 1 }] });
    await s.prisma.user.createMany({ data: [{ id: 1, name: 'ann' }, { id: 3, name: 'HIDDEN', hidden: true }] });
    const db = s.enhance({ id: 1 }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    await db.video.create({ data: { id: 1, owner: { connect: { id: 1 } } } });
    await db.video.create({ data: { id: 2, owner: { connect: { id: 3 } } } });
});
afterEach(() => s.cleanup());

const put = (path: string, args: unknown) => rpcAs(s, { id: 1 }, 'PUT', path, args);

it('a nested update of a hidden required partner answers as one whose filter matches nothing, and changes nothing', async () => {
    // the note is there for the user, its blog is not
    expect((await rpcAs(s, { id: 1 }, 'GET', '/note/findUnique', { where: { id: 2 } })).body.data).toEqual({ id: 2, blogId: 2, shelfId: 1 });
    const missed = await put('/note/update', { where: { id: 1 }, data: { blog: { update: { where: { name: 'nope' }, data: { name: 'x' } } } } });
    const hidden = await put('/note/update', { where: { id: 2 }, data: { blog: { update: { name: 'x' } } } });
    expect(missed.status).toBe(404);
    expect({ status: hidden.status, text: hidden.text }).toEqual({ status: missed.status, text: missed.text });
    expect(await s.prisma.blog.findUnique({ where: { id: 2 } })).toEqual({ id: 2, name: 'SECRET', secret: true });
    // a readable partner is written as before
    expect((await put('/note/update', { where: { id: 1 }, data: { blog: { update: { name: 'x' } } } })).status).toBe(200);
    expect((await s.prisma.blog.findUnique({ where: { id: 1 } })).name).toBe('x');
});

it('a nested upsert of a hidden required partner runs its create', async () => {
    const res = await put('/note/update', { where: { id: 2 }, data: { blog: { upsert: { create: { id: 7, name: 'new' }, update: { name: 'x' } } } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: 2, blogId: 7, shelfId: 1 });
    expect(await s.prisma.blog.findUnique({ where: { id: 2 } })).toEqual({ id: 2, name: 'SECRET', secret: true });
});

it('below a to-many update', async () => {
    const nested = (note: number) => ({ where: { id: 1 }, data: { notes: { update: { where: { id: note }, data: { blog: { update: { name: 'x' } } } } } } });
    expect((await put('/shelf/update', nested(2))).status).toBe(404);
    expect(await s.prisma.blog.findUnique({ where: { id: 2 } })).toEqual({ id: 2, name: 'SECRET', secret: true });
    expect((await put('/shelf/update', nested(1))).status).toBe(200);
    expect((await s.prisma.blog.findUnique({ where: { id: 1 } })).name).toBe('x');
});

it('through a relation a @@delegate model inherits from its base', async () => {
    const hidden = await put('/video/update', { where: { id: 2 }, data: { owner: { update: { name: 'x' } } } });
    expect(hidden.status).toBe(404);
    expect((await s.prisma.user.findUnique({ where: { id: 3 } })).name).toBe('HIDDEN');
    expect((await put('/video/update', { where: { id: 1 }, data: { owner: { update: { name: 'x' } } } })).status).toBe(200);
    expect((await s.prisma.user.findUnique({ where: { id: 1 } })).name).toBe('x');
});
