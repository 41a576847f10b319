import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A nested `upsert` whose record exists: ZenStack 2.22 checks that record's update rule, turns the upsert into
 * `{ where, data }` and visits that object's keys (`where`, `data`), not the update's fields, for nested writes: the
 * relation writes inside a nested upsert's `update` ran under no rule (2.x let Bob, who may update his post, delete
 * and rewrite Alice's comments on it). The RPC handler refuses them (400) at any depth, to-one and to-many; the
 * top-level upsert's `update` is checked by ZenStack (it runs as an `update`) and goes through as before.
 */

const SCHEMA = `
model User {
  id    Int    @id
  posts Post[]
  @@allow('read', true)
  @@allow('update', auth() == this)
}
model Post {
  id       Int       @id
  title    String
  author   User      @relation(fields: [authorId], references: [id])
  authorId Int
  comments Comment[]
  @@allow('read', true)
  @@allow('create,update', auth() == author)
}
model Comment {
  id        Int        @id
  text      String
  post      Post       @relation(fields: [postId], references: [id])
  postId    Int
  authorId  Int
  reactions Reaction[]
  @@allow('read', true)
  @@allow('create,update,delete', auth().id == authorId)
}
model Reaction {
  id        Int     @id
  emoji     String
  comment   Comment @relation(fields: [commentId], references: [id])
  commentId Int
  authorId  Int
  @@allow('read', true)
  @@allow('create,update,delete', auth().id == authorId)
}
`;

const ALICE = { id: 1 };
const BOB = { id: 2 };

describe('RPC nested upsert: relation writes in its update branch', () => {
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.user.createMany({ data: [ALICE, BOB] });
        // Bob's post, with a comment of Alice's and one of his own; on his, a reaction of each
        await s.prisma.post.create({ data: { id: 1, title: 'bob post', authorId: 2 } });
        await s.prisma.comment.create({ data: { id: 1, text: 'alice says', postId: 1, authorId: 1 } });
        await s.prisma.comment.create({ data: { id: 2, text: 'bob says', postId: 1, authorId: 2 } });
        await s.prisma.reaction.create({ data: { id: 1, emoji: 'alice', commentId: 2, authorId: 1 } });
        await s.prisma.reaction.create({ data: { id: 2, emoji: 'bob', commentId: 2, authorId: 2 } });
    });
    afterEach(() => s?.cleanup());

    const state = async () => ({
        posts: await s.prisma.post.findMany({ orderBy: { id: 'asc' }, select: { id: true, title: true } }),
        comments: await s.prisma.comment.findMany({ orderBy: { id: 'asc' }, select: { id: true, text: true, postId: true } }),
        reactions: await s.prisma.reaction.findMany({ orderBy: { id: 'asc' }, select: { id: true, emoji: true } }),
    });
    const refused = (via: string, relation: string) => ({
        status: 400,
        message: expect.stringMatching(new RegExp(`"update" of a nested upsert on relation "${via}" writes relation "${relation}"`)),
    });
    const answer = (res: { status: number; body: { error?: { message?: string } } }) => ({ status: res.status, message: res.body.error?.message });
    const postsUpsert = (update: unknown) => ({
        where: { id: 2 },
        data: { posts: { upsert: { where: { id: 1 }, create: { id: 1, title: 'x' }, update } } },
    });

    it('to-many: a deleteMany, update, create, connect or upsert of comments there is a 400, and nothing is written', async () => {
        const before = await state();
        for (const comments of [
            { deleteMany: {} },
            { update: { where: { id: 1 }, data: { text: 'bob wrote this' } } },
            { create: { id: 3, text: 'as alice', authorId: 1 } },
            { connect: { id: 1 } },
            { upsert: { where: { id: 1 }, create: { id: 1, text: 'x', authorId: 2 }, update: { text: 'bob wrote this' } } },
        ]) {
            const res = await rpcAs(s, BOB, 'PUT', '/user/update', postsUpsert({ title: 'retitled', comments }));
            expect({ comments, ...answer(res) }).toEqual({ comments, ...refused('posts', 'comments') });
            expect(await state()).toEqual(before);
        }
    });

    it('to-one: a nested upsert of a comment\'s post that deletes its comments is a 400', async () => {
        const before = await state();
        const res = await rpcAs(s, BOB, 'PUT', '/comment/update', {
            where: { id: 2 },
            data: { post: { upsert: { create: { id: 1, title: 'x', authorId: 2 }, update: { comments: { deleteMany: {} } } } } },
        });
        expect(answer(res)).toEqual(refused('post', 'comments'));
        expect(await state()).toEqual(before);
    });

    it('deeper: under a nested update, under a nested upsert and in a top-level upsert\'s update branch', async () => {
        const before = await state();
        const commentsUpsert = { upsert: { where: { id: 2 }, create: { id: 2, text: 'x', authorId: 2 }, update: { reactions: { deleteMany: {} } } } };
        const underUpdate = await rpcAs(s, BOB, 'PUT', '/user/update', {
            where: { id: 2 },
            data: { posts: { update: { where: { id: 1 }, data: { comments: commentsUpsert } } } },
        });
        expect(answer(underUpdate)).toEqual(refused('comments', 'reactions'));
        const underUpsert = await rpcAs(s, BOB, 'PUT', '/user/update', postsUpsert({ comments: commentsUpsert }));
        expect(answer(underUpsert)).toEqual(refused('posts', 'comments'));
        const inTopLevelUpsert = await rpcAs(s, BOB, 'POST', '/post/upsert', {
            where: { id: 1 },
            create: { id: 1, title: 'x', authorId: 2 },
            update: { comments: commentsUpsert },
        });
        expect(answer(inTopLevelUpsert)).toEqual(refused('comments', 'reactions'));
        expect(await state()).toEqual(before);
    });

    it('is refused whether or not the record exists; its scalar fields and its create branch go through as before', async () => {
        const missing = await rpcAs(s, BOB, 'PUT', '/user/update', {
            where: { id: 2 },
            data: { posts: { upsert: { where: { id: 5 }, create: { id: 5, title: 'new' }, update: { comments: { deleteMany: {} } } } } },
        });
        expect(answer(missing)).toEqual(refused('posts', 'comments'));
        const scalar = await rpcAs(s, BOB, 'PUT', '/user/update', postsUpsert({ title: 'retitled' }));
        expect(scalar.status).toBe(200);
        const created = await rpcAs(s, BOB, 'PUT', '/user/update', {
            where: { id: 2 },
            data: { posts: { upsert: { where: { id: 5 }, create: { id: 5, title: 'new', comments: { create: { id: 5, text: 'first', authorId: 2 } } }, update: { title: 'x' } } } },
        });
        expect(created.status).toBe(200);
        // the create branch is checked in full (ZenStack's create of the subtree): a comment as Alice is refused
        const forged = await rpcAs(s, BOB, 'PUT', '/user/update', {
            where: { id: 2 },
            data: { posts: { upsert: { where: { id: 6 }, create: { id: 6, title: 'new', comments: { create: { id: 6, text: 'as alice', authorId: 1 } } }, update: { title: 'x' } } } },
        });
        expect(forged.status).toBe(403);
        expect(await state()).toEqual({
            posts: [
                { id: 1, title: 'retitled' },
                { id: 5, title: 'new' },
            ],
            comments: [
                { id: 1, text: 'alice says', postId: 1 },
                { id: 2, text: 'bob says', postId: 1 },
                { id: 5, text: 'first', postId: 5 },
            ],
            reactions: [
                { id: 1, emoji: 'alice' },
                { id: 2, emoji: 'bob' },
            ],
        });
    });

    it('the top-level upsert\'s update branch is checked by ZenStack (it runs as an update) and not refused', async () => {
        const before = await state();
        const rewrite = await rpcAs(s, BOB, 'POST', '/post/upsert', {
            where: { id: 1 },
            create: { id: 1, title: 'x', authorId: 2 },
            update: { comments: { update: { where: { id: 1 }, data: { text: 'bob wrote this' } } } },
        });
        expect(rewrite.status).toBe(403);
        // a deleteMany there deletes only what the delete rule allows (Bob's own comment, after its reactions)
        await s.prisma.reaction.deleteMany({});
        const deleted = await rpcAs(s, BOB, 'POST', '/post/upsert', {
            where: { id: 1 },
            create: { id: 1, title: 'x', authorId: 2 },
            update: { comments: { deleteMany: {} } },
        });
        expect(deleted.status).toBe(200);
        expect((await state()).comments).toEqual([before.comments[0]]);
        // and the same write one level down, in a nested upsert, is the 400 above
        const nested = await rpcAs(s, BOB, 'PUT', '/user/update', postsUpsert({ comments: { deleteMany: {} } }));
        expect(answer(nested)).toEqual(refused('posts', 'comments'));
    });
});
