import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * Pins what a top-level `upsert` with a guarded nested write (here a nested to-one `update` of the record's
 * document) does when its `where` names a record the user may update but not read (docs/rpc.md, differences from
 * 2.x): it runs as the `create` it is for that user, and answers what that create gets. The guards read the
 * record under the policy and cannot see it; ZenStack would have run the update branch, unguarded, as 2.x did,
 * and that update could even make the record readable (a tag of a private document turns visible when the
 * document is made public), which answered 201 there. Where the user may never update such a record, ZenStack
 * refuses an upsert before any lookup, and so does the create it runs as.
 */

const SCHEMA = `
model User {
  id   Int   @id
  docs Doc[]
  @@allow('all', true)
}
model Doc {
  id      Int    @id
  level   String @default('LOW')
  owner   User?  @relation(fields: [ownerId], references: [id])
  ownerId Int?
  tags    Tag[]
  notes   Note[]
  @@allow('read', level == 'LOW' || owner == auth())
  @@allow('create,update,delete', owner == auth())
}
model Note {
  id    Int    @id
  text  String @default('')
  doc   Doc?   @relation(fields: [docId], references: [id])
  docId Int?
  @@allow('create', true)
  @@allow('read,update', auth() != null)
}
model Tag {
  doc    Doc    @relation(fields: [docId], references: [id], onDelete: Cascade)
  docId  Int
  name   String
  weight Int    @default(1)
  @@id([docId, name])
  @@allow('read', doc.level == 'LOW')
  @@allow('create,update,delete', doc.owner == auth())
}
`;

const BEN = { id: 2 };

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
});

beforeEach(async () => {
    await s.prisma.note.deleteMany();
    await s.prisma.tag.deleteMany();
    await s.prisma.doc.deleteMany();
    await s.prisma.user.deleteMany();
    await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
    // Ann's public document 1; Ben's private document 2 and public document 3
    await s.prisma.doc.createMany({ data: [{ id: 1, ownerId: 1 }, { id: 2, level: 'HIGH', ownerId: 2 }, { id: 3, ownerId: 2 }] });
    // tag x of document 2: Ben may update it, nobody may read it
    await s.prisma.tag.create({ data: { docId: 2, name: 'x' } });
});

afterAll(async () => {
    await s.cleanup();
});

const HIDDEN = { docId_name: { docId: 2, name: 'x' } };
const MAKE_PUBLIC = { doc: { update: { level: 'LOW' } } };

const upsert = (create: unknown, update: unknown): Promise<Res> => rpcAs(s, BEN, 'POST', '/tag/upsert', { where: HIDDEN, create, update });

async function rows(): Promise<string> {
    const docs = await s.prisma.doc.findMany({ orderBy: { id: 'asc' } });
    const tags = await s.prisma.tag.findMany({ orderBy: [{ docId: 'asc' }, { name: 'asc' }] });
    return JSON.stringify({ docs, tags });
}

it('the tag is there, and hidden from its document\'s owner', async () => {
    expect(await s.prisma.tag.findUnique({ where: HIDDEN })).not.toBeNull();
    expect((await rpcAs(s, BEN, 'GET', '/tag/findUnique', { where: HIDDEN })).body.data).toBeNull();
});

it('runs as its create: refused by the create rule on a document of another user, and nothing is written', async () => {
    const before = await rows();
    const res = await upsert({ name: 'z', doc: { connect: { id: 1 } } }, MAKE_PUBLIC);
    expect([res.status, res.body.error?.code]).toEqual([403, 'P2004']);
    // document 2 stays private: the update branch did not run
    expect(await rows()).toBe(before);
});

it('runs as its create: a new tag on a public document of the user is created and answered', async () => {
    const res = await upsert({ name: 'z', doc: { connect: { id: 3 } } }, MAKE_PUBLIC);
    expect([res.status, res.body.data]).toEqual([200, { docId: 3, name: 'z', weight: 1 }]);
    expect(await s.prisma.doc.findUnique({ where: { id: 2 }, select: { level: true } })).toEqual({ level: 'HIGH' });
    expect(await s.prisma.tag.count()).toBe(2);
});

it('runs as its create: the hidden record\'s own key is a unique violation, and nothing is written', async () => {
    const before = await rows();
    const res = await upsert({ name: 'x', doc: { connect: { id: 2 } } }, MAKE_PUBLIC);
    expect([res.status, res.body.error?.code]).toEqual([400, 'P2002']);
    expect(await rows()).toBe(before);
});

it('a user who may never update such a record is refused before the create, as ZenStack refuses the upsert: 403, nothing written', async () => {
    // anyone may create a note, only signed-in users update (or read) one
    const anonymous = (update: unknown) => rpcAs(s, undefined, 'POST', '/note/upsert', { where: { id: 9 }, create: { id: 9, text: 'new' }, update });
    const guarded = await anonymous({ doc: { update: { level: 'LOW' } } });
    expect([guarded.status, guarded.body.error?.reason]).toEqual([403, 'ACCESS_POLICY_VIOLATION']);
    expect(await s.prisma.note.count()).toBe(0);
    // the same answer as the upsert ZenStack runs itself
    expect((await anonymous({ text: 'changed' })).text).toBe(guarded.text);
    expect(await s.prisma.note.count()).toBe(0);
    // a plain create is theirs to make (kept, and not readable back)
    const created = await rpcAs(s, undefined, 'POST', '/note/create', { data: { id: 9, text: 'new' } });
    expect([created.status, created.body.error?.reason, await s.prisma.note.count()]).toEqual([403, 'RESULT_NOT_READABLE', 1]);
});
