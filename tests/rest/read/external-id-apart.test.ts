import { RestApiHandler } from '../../../src/api/rest';
import { loadSchema, type TestSchema } from '../../support/schema';

/**
 * A required to-one to a model not everyone may read, when that model's resource id is another unique field
 * (`externalIdMapping`): the foreign key does not give the linkage, which is read from the target, apart
 * from the records (a nested read would make ZenStack drop every record whose target the user cannot read).
 */

const SCHEMA = `
model User {
  id    Int    @id
  email String @unique
  posts Post[]
  @@allow('read', auth() != null)
}
model Post {
  id        Int     @id
  title     String
  published Boolean @default(true)
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  @@allow('read', published)
}
`;

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('REST: required to-one read apart under externalIdMapping', () => {
    let s: TestSchema;
    const handle = RestApiHandler({ endpoint: 'http://localhost/api', externalIdMapping: { User: 'email' } });
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.user.createMany({ data: [{ id: 1, email: 'alice@x' }, { id: 2, email: 'bob@x' }] });
        await s.prisma.post.createMany({
            data: [
                { id: 1, title: 'one', authorId: 1 },
                { id: 2, title: 'two', authorId: 2 },
                { id: 3, title: 'draft', authorId: 1, published: false },
            ],
        });
    });
    afterAll(() => s.cleanup());

    const get = async (path: string, query: Record<string, string> = {}, user?: { id: number }): Promise<{ status: number; body: Body }> => {
        const res = await handle({ method: 'GET', path, query, prisma: s.enhance(user), modelMeta: s.modelMeta, logger: null });
        return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) };
    };
    const authors = (body: Body) => (body.data as Body[]).map((r) => r.relationships.author.data);

    it('keeps the records whose author the user cannot read, without their linkage', async () => {
        for (const query of [{}, { include: 'author' }] as Array<Record<string, string>>) {
            const res = await get('/post', query);
            expect([res.status, res.body.data.map((r: Body) => r.id), res.body.meta.total]).toEqual([200, [1, 2], 2]);
            expect(authors(res.body)).toEqual([undefined, undefined]);
            expect(res.body.included ?? []).toEqual([]);
        }
        expect((await get('/post/1')).status).toBe(200);
        expect((await get('/post', { 'fields[post]': 'title' })).body.data.map((r: Body) => r.id)).toEqual([1, 2]);
    });

    it('links the author by its external id where the user can read it, included or not', async () => {
        const alice = { id: 1 };
        expect(authors((await get('/post', {}, alice)).body)).toEqual([
            { type: 'user', id: 'alice@x' },
            { type: 'user', id: 'bob@x' },
        ]);
        const included = await get('/post/2', { include: 'author' }, alice);
        expect([included.body.data.relationships.author.data, included.body.included.map((r: Body) => r.id)]).toEqual([{ type: 'user', id: 'bob@x' }, ['bob@x']]);
    });

    it('answers the related and relationship endpoints: the author, or null where it cannot be read', async () => {
        const related = await get('/post/1/author');
        const relationship = await get('/post/1/relationships/author');
        expect([related.status, related.body.data, relationship.status, relationship.body.data]).toEqual([200, null, 200, null]);
        const alice = { id: 1 };
        expect((await get('/post/1/author', {}, alice)).body.data.id).toBe('alice@x');
        expect((await get('/post/1/relationships/author', {}, alice)).body.data).toEqual({ type: 'user', id: 'alice@x' });
    });

    it('includes the related resources of a relationship endpoint with the linkage read apart, as its related endpoint answers them', async () => {
        const alice = { id: 1 };
        const relationship = await get('/user/alice@x/relationships/posts', { include: 'posts' }, alice);
        const related = await get('/user/alice@x/posts', {}, alice);
        expect([relationship.status, relationship.body.data]).toEqual([200, [{ type: 'post', id: 1 }]]);
        expect(relationship.body.included).toEqual(related.body.data);
        expect(relationship.body.included[0].relationships.author.data).toEqual({ type: 'user', id: 'alice@x' });
    });
});
