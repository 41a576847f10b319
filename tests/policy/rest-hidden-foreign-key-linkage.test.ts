import { openApi, type Api } from '../rest/write/harness';

/**
 * A to-one relationship whose foreign key the user may not read (a field-level rule): the key's absence says nothing
 * about the link. The relationship endpoint answered 200 `data: null` and documents carried `data: null`, claiming the
 * post has no author, where the README promises a 404 and no linkage for a relationship hidden by a field-level rule.
 */
const SCHEMA = `
model User {
  id    Int    @id
  posts Post[]
  edits Post[] @relation("edits")
  @@allow('all', true)
}

model Post {
  id       Int   @id
  author   User? @relation(fields: [authorId], references: [id]) @deny('read', auth() == null)
  authorId Int?  @deny('read', auth() == null)
  editor   User? @relation("edits", fields: [editorId], references: [id])
  editorId Int?  @deny('read', auth() == null)
  @@allow('all', true)
}
`;

describe('a to-one relationship whose foreign key is hidden by a field-level rule', () => {
    let api: Api;
    beforeAll(async () => {
        api = await openApi(SCHEMA);
        await api.s.prisma.user.create({ data: { id: 1 } });
        await api.s.prisma.post.create({ data: { id: 1, authorId: 1, editorId: 1 } });
        await api.s.prisma.post.create({ data: { id: 2 } });
    });
    afterAll(() => api.cleanup());

    const get = (user: { id: number } | undefined, path: string, query: Record<string, string> = {}) => api.call(user, 'GET', path, undefined, { query });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const relationshipsOf = (res: { body: unknown }) => (res.body as any).data.relationships;

    it('answers 404 at its relationship endpoint, with or without an author, as at its related endpoint', async () => {
        for (const path of ['/post/1/relationships/author', '/post/2/relationships/author', '/post/1/author']) {
            expect([path, (await get(undefined, path)).status]).toEqual([path, 404]);
        }
    });

    it('has links but no linkage in documents, included or not', async () => {
        for (const query of [{}, { include: 'author' }] as Record<string, string>[]) {
            const author = relationshipsOf(await get(undefined, '/post/1', query)).author;
            expect(author.links).toBeDefined();
            expect('data' in author).toBe(false);
        }
    });

    it('is linked from the relation when only the key is hidden: at its endpoint, and where it is included', async () => {
        const res = await get(undefined, '/post/1/relationships/editor');
        expect([res.status, (res.body as { data: unknown }).data]).toEqual([200, { type: 'user', id: 1 }]);
        expect(relationshipsOf(await get(undefined, '/post/1', { include: 'editor' })).editor.data).toEqual({ type: 'user', id: 1 });
        // not included, the relation is not read: no linkage rather than a false null
        expect('data' in relationshipsOf(await get(undefined, '/post/1')).editor).toBe(false);
    });

    it('is linked as before for a user the rules let read it', async () => {
        const res = await get({ id: 1 }, '/post/1/relationships/author');
        expect([res.status, (res.body as { data: unknown }).data]).toEqual([200, { type: 'user', id: 1 }]);
        expect(relationshipsOf(await get({ id: 1 }, '/post/2')).author.data).toBeNull();
    });
});

describe('a required to-one whose target not everyone may read, and whose foreign key is hidden', () => {
    // read apart from its record (to-one-apart.ts): a hidden key was taken for no link, `data: null` and nothing included
    let api: Api;
    beforeAll(async () => {
        api = await openApi(`
model User {
  id    Int    @id
  posts Post[]
  @@allow('read', id > 0)
  @@allow('create,update,delete', true)
}

model Post {
  id       Int  @id
  editor   User @relation(fields: [editorId], references: [id])
  editorId Int  @deny('read', auth() == null)
  @@allow('all', true)
}
`);
        await api.s.prisma.user.create({ data: { id: 1 } });
        await api.s.prisma.post.create({ data: { id: 1, editorId: 1 } });
    });
    afterAll(() => api.cleanup());

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const get = async (path: string, query: Record<string, string> = {}): Promise<{ status: number; body: any }> => api.call(undefined, 'GET', path, undefined, { query });

    it('has no linkage in documents, not data: null', async () => {
        for (const [path, query] of [['/post/1', {}], ['/post/1', { include: 'editor' }], ['/post', { include: 'editor' }]] as [string, Record<string, string>][]) {
            const res = await get(path, query);
            const post = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
            expect([path, query, res.status, 'data' in post.relationships.editor]).toEqual([path, query, 200, false]);
        }
        const nested = await get('/user/1', { include: 'posts.editor' });
        expect('data' in nested.body.included[0].relationships.editor).toBe(false);
    });

    it('is read through the relation at its related and relationship endpoints', async () => {
        const related = await get('/post/1/editor');
        expect([related.status, related.body.data?.id]).toEqual([200, 1]);
        const relationship = await get('/post/1/relationships/editor');
        expect([relationship.status, relationship.body.data]).toEqual([200, { type: 'user', id: 1 }]);
    });
});
