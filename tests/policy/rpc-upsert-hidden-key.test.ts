import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * Pins what a top-level `upsert` answers when its `where` names, by a unique field other than the id, a record the
 * user cannot read (docs/rpc.md, known limitations). ZenStack looks the record up without the read rule, so the
 * update branch runs and is denied: 403, where a missing record runs the create (200). That tells that a record
 * with the value exists, which a plain `create` with the same value tells as well (400 P2002 against 201): the
 * unique constraint is the database's, whatever the read rule. The 403 is the same as for a record the user can read
 * but not update, and names no record (2.x's message names the hidden record's id). When the user may never
 * create, ZenStack refuses the upsert before any lookup: 403 either way.
 */

const SCHEMA = (createRule: string) => `
model User {
  id    Int    @id
  posts Post[]
  @@allow('all', true)
}
model Post {
  id        Int     @id @default(autoincrement())
  slug      String  @unique
  title     String  @default('')
  published Boolean @default(false)
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  @@allow('read', published || auth() == author)
  @@allow('create', ${createRule})
  @@allow('update,delete', auth() == author)
}
`;

const BOB = { id: 2 };

async function seed(s: TestSchema): Promise<void> {
    await s.prisma.post.deleteMany();
    await s.prisma.user.deleteMany();
    await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.post.createMany({
        data: [
            { id: 1, slug: 'public', published: true, authorId: 1 },
            { id: 2, slug: 'draft', authorId: 1 },
            { id: 3, slug: 'mine', authorId: 2 },
        ],
    });
}

const upsert = (slug: string, createSlug: string) => ({ where: { slug }, create: { slug: createSlug, author: { connect: { id: 2 } } }, update: { title: 'x' } });

async function posts(s: TestSchema): Promise<string> {
    return JSON.stringify(await s.prisma.post.findMany({ orderBy: { id: 'asc' }, select: { slug: true, title: true } }));
}

describe('a user who may create posts', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(SCHEMA('auth() == author'));
    });
    beforeEach(async () => seed(s));
    afterAll(async () => {
        await s.cleanup();
    });
    const call = (args: unknown, path = '/post/upsert'): Promise<Res> => rpcAs(s, BOB, 'POST', path, args);

    it('an upsert naming a hidden record by its slug answers 403 and writes nothing, where a missing one runs the create', async () => {
        const before = await posts(s);
        const hidden = await call(upsert('draft', 'other'));
        expect(hidden.status).toBe(403);
        expect(hidden.body.error).toMatchObject({ reason: 'ACCESS_POLICY_VIOLATION', code: 'P2004' });
        expect(await posts(s)).toBe(before);
        // the same answer as for a record Bob can read but not update, naming no record
        const readable = await call(upsert('public', 'other'));
        expect([readable.status, readable.text]).toEqual([hidden.status, hidden.text]);
        expect(hidden.text).not.toMatch(/"id"|draft/);
        // the create branch gives the hidden record's slug: the same 403
        expect((await call(upsert('draft', 'draft'))).text).toBe(hidden.text);

        const missing = await call(upsert('nope', 'other'));
        expect([missing.status, missing.body.data?.slug]).toEqual([200, 'other']);
        const own = await call(upsert('mine', 'other'));
        expect([own.status, own.body.data?.title]).toEqual([200, 'x']);
    });

    it('a plain create with the slug tells the same: a unique violation against 201', async () => {
        const taken = await call({ data: { slug: 'draft', author: { connect: { id: 2 } } } }, '/post/create');
        expect([taken.status, taken.body.error?.code]).toEqual([400, 'P2002']);
        const free = await call({ data: { slug: 'nope', author: { connect: { id: 2 } } } }, '/post/create');
        expect(free.status).toBe(201);
    });
});

describe('a user who may never create posts', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(SCHEMA('auth().id == 1'));
    });
    beforeEach(async () => seed(s));
    afterAll(async () => {
        await s.cleanup();
    });

    it('an upsert is refused before any lookup: the same 403 for a hidden, a missing and an own record', async () => {
        const answers = [];
        for (const slug of ['draft', 'nope', 'mine']) answers.push(await rpcAs(s, BOB, 'POST', '/post/upsert', upsert(slug, 'other')));
        expect(answers[0].status).toBe(403);
        expect(answers.map((a) => [a.status, a.text])).toEqual(Array(3).fill([answers[0].status, answers[0].text]));
    });
});
