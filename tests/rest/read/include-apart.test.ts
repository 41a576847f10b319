import { ENDPOINT } from '../write/fixtures';
import type { Response } from '../../../src/types';
import { docOf, openApi, type Api } from '../write/harness';

// Including a required to-one relationship whose target the user may not read (ZenStack would filter
// the including records by the target's read rule): the primary data stays what it is without the include.

const SCHEMA = `
model User {
  id       Int       @id
  name     String    @default("")
  posts    Post[]
  comments Comment[]
  @@allow('all', true)
}
model Post {
  id        Int       @id
  title     String    @default("")
  published Boolean   @default(false)
  author    User      @relation(fields: [authorId], references: [id])
  authorId  Int
  comments  Comment[]
  @@allow('read', published || auth() == author)
  @@allow('create,update,delete', auth() == author)
}
model Comment {
  id       Int    @id
  body     String @default("")
  post     Post   @relation(fields: [postId], references: [id])
  postId   Int
  author   User   @relation(fields: [authorId], references: [id])
  authorId Int
  @@allow('all', auth() == author)
}
model Slot {
  day      Int
  n        Int
  open     Boolean   @default(true)
  bookings Booking[]
  @@id([day, n])
  @@allow('read', open)
}
model Booking {
  id      Int  @id
  slot    Slot @relation(fields: [slotDay, slotN], references: [day, n])
  slotDay Int
  slotN   Int
  @@allow('all', true)
}
`;

const ALICE = { id: 1 };
const BOB = { id: 2 };
const ids = (res: Response) => (docOf(res).data as { id: unknown }[]).map((r) => r.id);
const included = (res: Response) => ((docOf(res).included ?? []) as { type: string; id: unknown }[]).map((r) => `${r.type}:${r.id}`).sort();

let api: Api;
beforeAll(async () => {
    api = await openApi(SCHEMA);
    const p = api.s.prisma;
    await p.user.createMany({ data: [{ id: 1, name: 'Alice' }, { id: 2, name: 'Bob' }] });
    await p.post.create({ data: { id: 1, title: 'published', published: true, authorId: 1 } });
    await p.post.create({ data: { id: 2, title: 'draft', authorId: 1 } }); // Bob cannot read it
    await p.comment.create({ data: { id: 1, body: 'on the published post', postId: 1, authorId: 2 } });
    await p.comment.create({ data: { id: 2, body: 'on the draft', postId: 2, authorId: 2 } });
    await p.slot.create({ data: { day: 1, n: 1 } });
    await p.slot.create({ data: { day: 1, n: 2, open: false } });
    await p.booking.create({ data: { id: 1, slotDay: 1, slotN: 1 } });
    await p.booking.create({ data: { id: 2, slotDay: 1, slotN: 2 } });
});
afterAll(async () => {
    await api?.cleanup();
});

describe('an included required to-one the user may not read', () => {
    it('leaves the collection, its total and the linkage as they are without the include', async () => {
        const plain = await api.call(BOB, 'GET', '/comment');
        const res = await api.call(BOB, 'GET', '/comment', undefined, { query: { include: 'post' } });
        expect(res.status).toBe(200);
        expect([ids(res), docOf(res).meta.total]).toEqual([ids(plain), docOf(plain).meta.total]);
        expect(ids(res)).toEqual([1, 2]);
        expect(docOf(res).meta.total).toBe(2);
        expect((docOf(res).data as { relationships: Record<string, { data: unknown }> }[]).map((r) => r.relationships.post.data)).toEqual([
            { type: 'post', id: 1 },
            { type: 'post', id: 2 },
        ]);
        // the readable post is included, the draft is not
        expect(included(res)).toEqual(['post:1']);
    });

    it('reads a single resource, its related resource (null when not readable) and nested includes', async () => {
        const one = await api.call(BOB, 'GET', '/comment/2', undefined, { query: { include: 'post' } });
        expect([one.status, included(one)]).toEqual([200, []]);
        expect(docOf(one).data.relationships.post.data).toEqual({ type: 'post', id: 2 });

        const related = await api.call(BOB, 'GET', '/comment/2/post');
        expect([related.status, docOf(related).data]).toEqual([200, null]);
        // by the related id: the readable post, and a 404 for the one the user may not read
        const byId = await api.call(BOB, 'GET', '/comment/1/post/1', undefined, { query: { include: 'author' } });
        expect([byId.status, docOf(byId).data.id, included(byId)]).toEqual([200, 1, ['user:1']]);
        expect((await api.call(BOB, 'GET', '/comment/2/post/2')).status).toBe(404);
        const readable = await api.call(BOB, 'GET', '/comment/1/post', undefined, { query: { include: 'author' } });
        expect([readable.status, docOf(readable).data.id, included(readable)]).toEqual([200, 1, ['user:1']]);

        // through a to-many relationship, and beyond the relationship read apart
        const user = await api.call(BOB, 'GET', '/user/2', undefined, { query: { include: 'comments.post.author' } });
        expect(user.status).toBe(200);
        expect(included(user)).toEqual(['comment:1', 'comment:2', 'post:1', 'user:1']);
        const related2 = await api.call(BOB, 'GET', '/user/2/comments', undefined, { query: { include: 'post' } });
        expect([ids(related2), included(related2)]).toEqual([[1, 2], ['post:1']]);
    });

    it('reads the target when the user may read it, with sparse fieldsets that leave the foreign key out', async () => {
        const res = await api.call(ALICE, 'GET', '/comment', undefined, { query: { include: 'post', 'fields[comment]': 'body' } });
        // Alice wrote no comment: none to see; as Bob, with the fieldset
        expect(ids(res)).toEqual([]);
        const bob = await api.call(BOB, 'GET', '/comment', undefined, { query: { include: 'post', 'fields[comment]': 'body,post', 'fields[post]': 'title' } });
        expect(included(bob)).toEqual(['post:1']);
        expect(docOf(bob).included?.[0].attributes).toEqual({ title: 'published' });
        expect(docOf(bob).data[0].attributes).toEqual({ body: 'on the published post' });
    });

    it('works for a compound id target', async () => {
        const res = await api.call(undefined, 'GET', '/booking', undefined, { query: { include: 'slot' } });
        expect([ids(res), docOf(res).meta.total, included(res)]).toEqual([[1, 2], 2, ['slot:1_1']]);
        expect((docOf(res).data as { relationships: Record<string, { data: unknown }> }[]).map((r) => r.relationships.slot.data)).toEqual([
            { type: 'slot', id: '1_1' },
            { type: 'slot', id: '1_2' },
        ]);
        const one = await api.call(undefined, 'GET', '/booking/2', undefined, { query: { include: 'slot' } });
        expect([one.status, included(one)]).toEqual([200, []]);
    });

    it('answers a write that includes it with the written record (the write is not refused as unreadable)', async () => {
        const body = { data: { type: 'comment', attributes: { id: 3, body: 'new' }, relationships: { post: { data: { type: 'post', id: 2 } }, author: { data: { type: 'user', id: 2 } } } } };
        const created = await api.call(BOB, 'POST', '/comment', body, { query: { include: 'post' } });
        expect([created.status, docOf(created).data.id, included(created)]).toEqual([201, 3, []]);
        const updated = await api.call(BOB, 'PATCH', '/comment/3', { data: { type: 'comment', id: '3', attributes: { body: 'edited' } } }, { query: { include: 'post,author' } });
        expect([updated.status, docOf(updated).data.attributes.body, included(updated)]).toEqual([200, 'edited', ['user:2']]);
        expect(docOf(updated).data.links.self).toBe(`${ENDPOINT}/comment/3`);
        // an upsert (2.x form) answers the same way, the readable post included
        const upsert = {
            data: { type: 'comment', attributes: { id: 3, body: 'upserted' }, relationships: { post: { data: { type: 'post', id: 1 } }, author: { data: { type: 'user', id: 2 } } } },
            meta: { operation: 'upsert', matchFields: ['id'] },
        };
        const upserted = await api.call(BOB, 'POST', '/comment', upsert, { query: { include: 'post' } });
        expect([upserted.status, docOf(upserted).data.attributes.body, included(upserted)]).toEqual([201, 'upserted', ['post:1']]);
    });
});
