import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * ZenStack 2.22 tells a nested to-one `update`'s data from Prisma's `{ where?, data }` form by `args.data ?? args`.
 * On a model with a field named `data`, `post: { update: { data: 'x', title: 'evil' } }` is read as the data `'x'`:
 * no key of it is a field, so ZenStack checks no update rule, while Prisma writes `data` and `title` (2.x let Bob
 * retitle Alice's post through his comment on it). The RPC handler sends such an update in the long form
 * `{ data: { data: 'x', title: 'evil' } }`, which ZenStack checks.
 */

const schemaWith = (dataType: string) => `
model User {
  id       Int       @id
  posts    Post[]
  comments Comment[]
  @@allow('read', true)
  @@allow('update', auth() == this)
}
model Post {
  id       Int       @id
  title    String
  data     ${dataType}?
  author   User      @relation(fields: [authorId], references: [id])
  authorId Int
  comments Comment[]
  @@allow('read', true)
  @@allow('update', auth() == author)
}
model Comment {
  id       Int    @id
  text     String
  post     Post   @relation(fields: [postId], references: [id])
  postId   Int
  author   User   @relation(fields: [authorId], references: [id])
  authorId Int
  @@allow('read,create', true)
  @@allow('update', auth() == author)
}
`;

const ALICE = { id: 1 };
const BOB = { id: 2 };

describe.each([
    { type: 'String', value: 'x', other: { set: 'x' } },
    { type: 'Json', value: 'x', other: { any: ['json', 1] } },
])('RPC nested to-one update of a model with a $type field named "data"', ({ type, value, other }) => {
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(schemaWith(type));
        await s.prisma.user.createMany({ data: [ALICE, BOB] });
        await s.prisma.post.create({ data: { id: 1, title: 'alice post', authorId: 1 } });
        // Bob's comment and Alice's on Alice's post
        await s.prisma.comment.create({ data: { id: 1, text: 'bob says', postId: 1, authorId: 2 } });
        await s.prisma.comment.create({ data: { id: 2, text: 'alice says', postId: 1, authorId: 1 } });
    });
    afterEach(() => s?.cleanup());

    const post = () => s.prisma.post.findUnique({ where: { id: 1 }, select: { title: true, data: true } });
    const untouched = { title: 'alice post', data: null };
    const throughComment = (update: unknown) => ({ where: { id: 1 }, data: { post: { update } } });

    it('the short form with "data" beside other fields is checked: Bob may not retitle Alice\'s post (403)', async () => {
        for (const zod of [false, true]) {
            const res = await rpcAs(s, BOB, 'PUT', '/comment/update', throughComment({ data: value, title: 'evil' }), { zod });
            expect({ zod, status: res.status }).toEqual({ zod, status: 403 });
            expect(await post()).toEqual(untouched);
        }
    });

    it('so is "data" alone, with a value Prisma reads as the field\'s and not as the long form (403)', async () => {
        for (const update of [{ data: value }, { data: other }]) {
            const res = await rpcAs(s, BOB, 'PUT', '/comment/update', throughComment(update));
            expect({ update, status: res.status }).toEqual({ update, status: 403 });
            expect(await post()).toEqual(untouched);
        }
    });

    it('deeper: under a nested to-many update, and in a top-level upsert\'s update branch (403)', async () => {
        const nested = await rpcAs(s, BOB, 'PUT', '/user/update', {
            where: { id: 2 },
            data: { comments: { update: { where: { id: 1 }, data: { post: { update: { data: value, title: 'evil' } } } } } },
        });
        expect(nested.status).toBe(403);
        const upsert = await rpcAs(s, BOB, 'POST', '/comment/upsert', {
            where: { id: 1 },
            create: { id: 1, text: 'x', postId: 1, authorId: 2 },
            update: { post: { update: { data: value, title: 'evil' } } },
        });
        expect(upsert.status).toBe(403);
        expect(await post()).toEqual(untouched);
    });

    it('the long form is checked as well, and Alice writes in either form with the same answer', async () => {
        const long = await rpcAs(s, BOB, 'PUT', '/comment/update', throughComment({ data: { data: value, title: 'evil' } }));
        const short = await rpcAs(s, BOB, 'PUT', '/comment/update', throughComment({ data: value, title: 'evil' }));
        expect([long.status, short.status]).toEqual([403, 403]);
        expect(await post()).toEqual(untouched);
        const include = { post: { select: { title: true, data: true } } };
        const byLong = await rpcAs(s, ALICE, 'PUT', '/comment/update', { ...throughComment({ data: { data: value, title: 'new' } }), where: { id: 2 }, include });
        const byShort = await rpcAs(s, ALICE, 'PUT', '/comment/update', { ...throughComment({ data: value, title: 'new' }), where: { id: 2 }, include });
        expect(byShort).toEqual(byLong);
        expect([byShort.status, byShort.body.data.post]).toEqual([200, { title: 'new', data: value }]);
    });
});
