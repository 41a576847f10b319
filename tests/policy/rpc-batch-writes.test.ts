import { delegateSchema } from '../support/delegate-schema';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * Batch and transactional RPC writes that ZenStack 2.22 made beyond the access policy or the call's arguments:
 * relations written inside `createMany` rows, a `limit` left out on `@@delegate` models, and (PostgreSQL) the
 * failure of an update in `$transaction/sequential` telling that a record the user cannot read exists.
 */

const POSTS = `
model User {
  id    Int    @id
  posts Post[]
  @@allow('all', true)
}
model Post {
  id        Int     @id
  published Boolean @default(false)
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  comments  Comment[]
  @@allow('read', published || auth() == author)
  @@allow('create,update,delete', auth() == author)
}
model Comment {
  id     Int    @id
  post   Post   @relation(fields: [postId], references: [id])
  postId Int
  @@allow('all', true)
}
`;

describe('relations in createMany rows', () => {
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(POSTS);
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        await s.prisma.post.create({ data: { id: 1, authorId: 1 } }); // Alice's draft
    });
    afterEach(() => s.cleanup());
    const state = async () => ({ users: await s.prisma.user.count(), posts: await s.prisma.post.findMany({ orderBy: { id: 'asc' } }), comments: await s.prisma.comment.count() });

    it.each([
        ['createMany, a connect of a record the rules let no one else update', '/user/createMany', { data: [{ id: 9, posts: { connect: { id: 1 } } }] }, 'data.0.posts'],
        ['createManyAndReturn, a create the rules refuse', '/user/createManyAndReturn', { data: [{ id: 10 }, { id: 11, posts: { create: { id: 2 } } }] }, 'data.1.posts'],
        ['a nested createMany', '/user/create', { data: { id: 12, posts: { create: { id: 3, authorId: 12, comments: { createMany: { data: [{ id: 1, post: { connect: { id: 1 } } }] } } } } } }, 'comments.createMany.data.0.post'],
    ])('are refused before anything is written (%s)', async (_name, path, args, place) => {
        const before = await state();
        const res = await rpcAs(s, { id: 2 }, 'POST', path, args);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain(`${place}" must be absent: createMany takes the fields of`);
        expect(await state()).toEqual(before);
    });

    it('the same in a sequential transaction; rows of fields alone are written as before', async () => {
        const before = await state();
        const refused = await rpcAs(s, { id: 2 }, 'POST', '/$transaction/sequential', [{ model: 'user', op: 'createMany', args: { data: [{ id: 11, posts: { create: { id: 3 } } }] } }]);
        expect(refused.status).toBe(400);
        expect(await state()).toEqual(before);
        const made = await rpcAs(s, { id: 2 }, 'POST', '/post/createMany', { data: [{ id: 5, authorId: 2 }, { id: 6, authorId: 2, published: true }] });
        expect([made.status, made.body.data]).toEqual([201, { count: 2 }]);
    });
});

const IMAGES = delegateSchema(`
model Image extends Asset {
  format String @default('png')
}
model Tag {
  id Int @id
  @@allow('all', true)
}
`);

function delegateLimitTests(provider: Provider) {
    let s: TestSchema | undefined;
    const ready = async () => provider === 'sqlite' || (await requirePg());
    beforeEach(async () => {
        if (!(await ready())) return;
        s = await loadSchema(IMAGES, { provider });
        await s.prisma.user.create({ data: { id: 1 } });
        for (let id = 1; id <= 4; id++) await s.enhance({ id: 1 }).image.create({ data: { id, ownerId: 1 } });
    });
    afterEach(async () => {
        await s?.cleanup();
        s = undefined;
    });
    // through the owner's client: an image's base fields live in the asset table
    const images = async () => s!.enhance({ id: 1 }).image.findMany({ orderBy: { id: 'asc' }, select: { id: true, label: true, format: true } });

    it.each([
        ['deleteMany of the concrete model', 'DELETE', '/image/deleteMany', { where: {}, limit: 1 }],
        ['deleteMany of the base model', 'DELETE', '/asset/deleteMany', { where: {}, limit: 1 }],
        ['updateMany of a base field', 'PATCH', '/image/updateMany', { where: {}, data: { label: 'x' }, limit: 1 }],
        // related to the hierarchy: ZenStack's delegate layer makes its deleteMany the same way
        ['deleteMany of a model related to it', 'DELETE', '/user/deleteMany', { where: {}, limit: 1 }],
    ])('a limit ZenStack would leave out is refused, nothing written (%s)', async (_name, method, path, args) => {
        if (!s) return;
        const before = [await images(), await s.prisma.user.count()];
        const res = await rpcAs(s, { id: 1 }, method, path, args);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/"limit" is not offered on (update|delete)Many of (Image|Asset|User) records/);
        expect([await images(), await s.prisma.user.count()]).toEqual(before);
    });

    it('a limit on fields of the concrete model alone, or on a model apart from the hierarchy, still holds', async () => {
        if (!s) return;
        const res = await rpcAs(s, { id: 1 }, 'PATCH', '/image/updateMany', { where: {}, data: { format: 'gif' }, limit: 1 });
        expect([res.status, res.body.data]).toEqual([200, { count: 1 }]);
        expect((await images()).filter((i: { format: string }) => i.format === 'gif')).toHaveLength(1);
        await s.prisma.tag.createMany({ data: [{ id: 1 }, { id: 2 }, { id: 3 }] });
        const tags = await rpcAs(s, { id: 1 }, 'DELETE', '/tag/deleteMany', { where: {}, limit: 1 });
        expect([tags.status, tags.body.data, await s.prisma.tag.count()]).toEqual([200, { count: 1 }, 2]);
    });
}

describe('limit on @@delegate models [sqlite]', () => delegateLimitTests('sqlite'));
describePg('limit on @@delegate models', () => delegateLimitTests('postgresql'));

const DROPS = `
model User {
  id Int @id
  @@allow('all', true)
}
model Drop {
  id    Int @id
  owner Int
  @@allow('create,update,delete', true)
  @@allow('read', owner == auth().id)
}
`;

function hiddenTargetTests(provider: Provider) {
    it('an update of a record the user cannot read fails in a transaction as for a missing one (404), whatever the error', async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        const s = await loadSchema(DROPS, { provider });
        try {
            await s.prisma.drop.createMany({ data: [{ id: 1, owner: 1 }, { id: 2, owner: 1 }] });
            const taken = await rpcAs(s, { id: 2 }, 'POST', '/$transaction/sequential', [{ model: 'drop', op: 'update', args: { where: { id: 1 }, data: { id: 2 } } }]);
            const missing = await rpcAs(s, { id: 2 }, 'POST', '/$transaction/sequential', [{ model: 'drop', op: 'update', args: { where: { id: 99 }, data: { id: 2 } } }]);
            expect([taken.status, taken.body.error.code, taken.body.error.failedOperation]).toEqual([404, 'P2025', 0]);
            expect([missing.status, missing.body.error.code]).toEqual([404, 'P2025']);
            // the owner, who reads it, is told what failed
            const own = await rpcAs(s, { id: 1 }, 'POST', '/$transaction/sequential', [{ model: 'drop', op: 'update', args: { where: { id: 1 }, data: { id: 2 } } }]);
            expect([own.status, own.body.error.code]).toEqual([400, 'P2002']);
            expect(await s.prisma.drop.findMany({ orderBy: { id: 'asc' } })).toEqual([{ id: 1, owner: 1 }, { id: 2, owner: 1 }]);
        } finally {
            await s.cleanup();
        }
    });
}

describe('hidden records in $transaction/sequential [sqlite]', () => hiddenTargetTests('sqlite'));
describePg('hidden records in $transaction/sequential', () => hiddenTargetTests('postgresql'));
