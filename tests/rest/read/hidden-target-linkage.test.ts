import { RestApiHandler } from '../../../src/api/rest';
import { loadSchema, type TestSchema } from '../../support/schema';

/**
 * To-one relationships whose target the user may not read, where the foreign key does not give the linkage (it is
 * hidden by a field-level rule, or it is not the target's resource id). Found by a review on 2026-12-01: the related
 * and relationship endpoints of a required one answered that the record itself was not found (which `GET /post/1`
 * answers), and an optional one got `data: null` beside a foreign key attribute naming its target.
 */

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const HIDDEN_KEY_SCHEMA = `
model User {
  id    Int    @id
  posts Post[]
  @@allow('read', id != 2)
  @@allow('create', true)
}
model Post {
  id       Int  @id
  editor   User @relation(fields: [editorId], references: [id])
  editorId Int  @deny('read', auth() == null)
  @@allow('all', true)
}
`;

const OTHER_KEY_SCHEMA = `
model User {
  id       Int    @id
  email    String @unique
  authored Post[] @relation("author")
  reviewed Post[] @relation("reviewer")
  @@allow('read', id != 3)
  @@allow('create', true)
}
model Post {
  id            Int     @id
  author        User?   @relation("author", fields: [authorId], references: [id])
  authorId      Int?
  reviewer      User?   @relation("reviewer", fields: [reviewerEmail], references: [email])
  reviewerEmail String?
  @@allow('all', true)
}
`;

function getter(s: () => TestSchema, options: Record<string, unknown> = {}) {
    const handle = RestApiHandler({ endpoint: 'http://localhost/api', ...options });
    return async (path: string, query: Record<string, string> = {}): Promise<{ status: number; body: Body }> => {
        const res = await handle({ method: 'GET', path, query, prisma: s().enhance(), modelMeta: s().modelMeta, logger: null });
        return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) };
    };
}

describe('REST: a required to-one whose foreign key and target are both hidden', () => {
    let s: TestSchema;
    const get = getter(() => s);
    beforeAll(async () => {
        s = await loadSchema(HIDDEN_KEY_SCHEMA);
        await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
        await s.prisma.post.createMany({ data: [{ id: 1, editorId: 2 }, { id: 2, editorId: 1 }] });
    });
    afterAll(() => s.cleanup());

    it('the record is found; its related and relationship endpoints answer the unreadable target as null', async () => {
        expect((await get('/post/1')).status).toBe(200);
        for (const path of ['/post/1/editor', '/post/1/relationships/editor']) {
            const res = await get(path);
            expect([path, res.status, res.body.data]).toEqual([path, 200, null]);
        }
        const included = await get('/post/1/relationships/editor', { include: 'editor' });
        expect([included.status, included.body.data, included.body.included]).toEqual([200, null, []]);
        expect((await get('/post/1/editor/2')).status).toBe(404);
        expect((await get('/post/1/editor/2')).body.errors[0].detail).not.toContain('post "1" not found');
    });

    it('a readable target is answered as before, and a missing record is still a 404', async () => {
        expect((await get('/post/2/editor')).body.data).toMatchObject({ type: 'user', id: 1 });
        expect((await get('/post/2/relationships/editor')).body.data).toEqual({ type: 'user', id: 1 });
        const missing = await get('/post/9/relationships/editor');
        expect([missing.status, missing.body.errors[0].detail]).toEqual([404, 'post "9" not found']);
        expect((await get('/post/9/editor')).status).toBe(404);
    });
});

describe('REST: an optional to-one whose foreign key is not the target resource id, to a hidden target', () => {
    let s: TestSchema;
    const mapped = getter(() => s, { externalIdMapping: { User: 'email' } });
    const plain = getter(() => s);
    beforeAll(async () => {
        s = await loadSchema(OTHER_KEY_SCHEMA);
        await s.prisma.user.createMany({ data: [{ id: 1, email: 'e1' }, { id: 3, email: 'e3' }] });
        await s.prisma.post.createMany({
            data: [
                { id: 1, authorId: 3, reviewerEmail: 'e3' },
                { id: 2, authorId: 1, reviewerEmail: 'e1' },
                { id: 3, authorId: null, reviewerEmail: null },
            ],
        });
    });
    afterAll(() => s.cleanup());

    const linkage = (body: Body, name: string) => (body.data as Body[]).map((r) => (name in r.relationships ? r.relationships[name].data : 'absent'));

    it.each([
        ['externalIdMapping', 'author', { User: 'email' }],
        ['references a unique field', 'reviewer', undefined],
    ])('leaves the linkage of a set key out, rather than claiming no link (%s)', async (_name, relation, mapping) => {
        const get = mapping ? mapped : plain;
        const id = mapping ? 'e1' : 1;
        for (const query of [{}, { include: relation }, { 'fields[post]': relation }] as Array<Record<string, string>>) {
            const res = await get('/post', query);
            expect([res.status, res.body.data.map((r: Body) => r.id)]).toEqual([200, [1, 2, 3]]);
            expect(linkage(res.body, relation)).toEqual([undefined, { type: 'user', id }, null]);
        }
        const one = await get('/post/1');
        expect([one.status, one.body.data.relationships[relation].data]).toEqual([200, undefined]);
        expect(one.body.data.relationships[relation].links.related).toBe(`http://localhost/api/post/1/${relation}`);
        // the endpoints answer an unreadable target as null, as for every to-one
        expect((await get(`/post/1/${relation}`)).body.data).toBeNull();
        expect((await get(`/post/1/relationships/${relation}`)).body.data).toBeNull();
    });
});
