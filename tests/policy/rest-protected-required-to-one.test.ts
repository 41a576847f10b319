import { openApi, type Api } from '../rest/write/harness';

/**
 * A required to-one relation with a field-level read rule of its own (`post Post @allow('read', auth() != null)`),
 * whose targets have a read rule too. Included, it was nested in the read, where ZenStack drops every record whose
 * target the user may not read: `GET /comment?include=post` lost comments that `GET /comment` lists (and its total
 * disagreed with its pages), and the related and relationship endpoints of such a comment answered that the comment
 * itself was not found. `include` never changes the primary data.
 */
const SCHEMA = `
model User {
  id Int @id
  @@allow('all', true)
}
model Post {
  id        Int       @id
  published Boolean
  comments  Comment[]
  @@allow('read', published)
  @@allow('create', true)
}
model Comment {
  id     Int  @id
  post   Post @relation(fields: [postId], references: [id]) @allow('read', auth() != null)
  postId Int
  @@allow('all', true)
}
`;

describe('an included required to-one with a field-level read rule', () => {
    let api: Api;
    beforeAll(async () => {
        api = await openApi(SCHEMA);
        await api.s.prisma.user.create({ data: { id: 1 } });
        await api.s.prisma.post.createMany({ data: [{ id: 1, published: true }, { id: 2, published: false }] });
        await api.s.prisma.comment.createMany({ data: [{ id: 1, postId: 1 }, { id: 2, postId: 2 }, { id: 3, postId: 2 }] });
    });
    afterAll(() => api.cleanup());

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const get = async (user: { id: number } | undefined, path: string, query: Record<string, string> = {}): Promise<{ status: number; body: any }> =>
        api.call(user, 'GET', path, undefined, { query }) as never;
    const ids = (body: { data: { id: number }[] }) => body.data.map((r) => r.id);

    it.each([
        ['signed in (the rule lets them read it)', { id: 1 }],
        ['anonymous (the rule hides it)', undefined],
    ])('leaves the primary data and its total as they are without the include: %s', async (_name, user) => {
        const plain = await get(user, '/comment');
        const included = await get(user, '/comment', { include: 'post' });
        expect([ids(included.body), included.body.meta.total]).toEqual([ids(plain.body), plain.body.meta.total]);
        expect(ids(included.body)).toEqual([1, 2, 3]);
        const page = await get(user, '/comment', { include: 'post', 'page[limit]': '1', 'page[offset]': '1' });
        expect(ids(page.body)).toEqual([2]);
    });

    it('includes a target only where the rule allows and the user may read it; linkage follows the readable key', async () => {
        const signedIn = await get({ id: 1 }, '/comment', { include: 'post' });
        expect(signedIn.body.included.map((r: { id: number }) => r.id)).toEqual([1]);
        expect(signedIn.body.data.map((r: { relationships: { post: { data: unknown } } }) => r.relationships.post.data)).toEqual([1, 2, 2].map((id) => ({ type: 'post', id })));
        const anonymous = await get(undefined, '/comment', { include: 'post' });
        expect(anonymous.body.included).toEqual([]);
    });

    it('its endpoints find the comment: the related one answers the relation as hidden when its target is not readable', async () => {
        const shown = await get({ id: 1 }, '/comment/1/post');
        expect([shown.status, shown.body.data?.id]).toEqual([200, 1]);
        const related = await get({ id: 1 }, '/comment/2/post');
        expect([related.status, related.body.errors[0].detail]).toEqual([404, 'relationship "post" of comment "2" not found']);
        // the linkage its readable foreign key gives, as in the documents
        const relationship = await get({ id: 1 }, '/comment/2/relationships/post');
        expect([relationship.status, relationship.body.data]).toEqual([200, { type: 'post', id: 2 }]);
        expect((await get({ id: 1 }, '/comment/2', { include: 'post' })).status).toBe(200);
        expect((await get({ id: 1 }, '/comment/99/post')).status).toBe(404);
    });
});
