import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { describePg, requirePg } from '../support/postgres';
import { rpcAs } from './rpc-call';

/**
 * A concrete `@@delegate` model's field-level read rule through a relation makes ZenStack include that relation in
 * records read as the base model, and leave it there: `asset/findMany` answered each video's `post` (a draft the user
 * may not read, with its author) and `folder` (of a model nobody may read). Found by a review on 2026-12-01; 2.22.3
 * answers them too. Only the relations a read asks for are answered.
 */

const SCHEMA = `
model User {
  id     Int     @id
  name   String
  assets Asset[]
  posts  Post[]
  boxes  Box[]
  @@allow('all', true)
}
model Post {
  id        Int     @id
  title     String
  published Boolean @default(false)
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  videos    Video[]
  @@allow('read', published || auth() == author)
  @@allow('create,update,delete', true)
}
model Folder {
  id     Int     @id
  name   String
  assets Asset[]
  @@allow('read', false)
  @@allow('create,update,delete', true)
}
model Box {
  id      Int     @id
  items   Asset[]
  owner   User    @relation(fields: [ownerId], references: [id])
  ownerId Int
  @@allow('all', true)
}
model Asset {
  id       Int     @id
  kind     String
  folder   Folder? @relation(fields: [folderId], references: [id])
  folderId Int?
  owner    User    @relation(fields: [ownerId], references: [id])
  ownerId  Int
  box      Box?    @relation(fields: [boxId], references: [id])
  boxId    Int?
  @@delegate(kind)
  @@allow('all', true)
}
model Video extends Asset {
  post    Post   @relation(fields: [postId], references: [id])
  postId  Int
  caption String @default('cap') @allow('read', auth() == post.author)
  label   String @default('l') @allow('read', folder.name == 'open')
}
`;

const VIDEO = { id: 1, folderId: 1, kind: 'Video', ownerId: 2, boxId: 1, postId: 1 };

function cases(provider: Provider): void {
    let s: TestSchema | undefined;
    const bob = { id: 2 };
    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider });
        await s.prisma.user.createMany({ data: [{ id: 1, name: 'alice' }, { id: 2, name: 'bob' }] });
        await s.prisma.box.create({ data: { id: 1, ownerId: 2 } });
        await s.prisma.folder.create({ data: { id: 1, name: 'FOLDER-SECRET' } });
        await s.prisma.post.create({ data: { id: 1, title: 'alice SECRET draft', authorId: 1 } });
        const alice = s.enhance({ id: 1 }) as never as Record<string, { create: (a: unknown) => Promise<unknown> }>;
        await alice.video.create({ data: { id: 1, ownerId: 2, postId: 1, folderId: 1, boxId: 1 } });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it.each([
        ['a base model read', '/asset/findMany', {}, (data: unknown) => data],
        ['a nested include of the base model', '/user/findUnique', { where: { id: 2 }, include: { assets: true } }, (data: { assets: unknown }) => data.assets],
        ['an include of the base model in a list', '/box/findMany', { include: { items: true } }, (data: Array<{ items: unknown }>) => data[0].items],
    ])('%s answers no relation it did not ask for', async (_name, path, args, pick) => {
        if (!s) return;
        const res = await rpcAs(s, bob, 'GET', path, args);
        expect(res.status).toBe(200);
        expect(pick(res.body.data as never)).toEqual([VIDEO]);
        expect(res.text).not.toMatch(/SECRET|alice/);
    });

    it('relations it asks for are answered, under their rules', async () => {
        if (!s) return;
        const res = await rpcAs(s, bob, 'GET', '/asset/findMany', { include: { box: true, owner: { select: { name: true } } } });
        expect(res.body.data).toEqual([{ ...VIDEO, box: { id: 1, ownerId: 2 }, owner: { name: 'bob' } }]);
        const alice = await rpcAs(s, { id: 1 }, 'GET', '/video/findMany', { include: { post: { select: { title: true } } } });
        expect(alice.body.data[0].post).toEqual({ title: 'alice SECRET draft' });
    });
}

describe('RPC: relations ZenStack includes in @@delegate base records (SQLite)', () => cases('sqlite'));
describePg('RPC: relations ZenStack includes in @@delegate base records', () => cases('postgresql'));
