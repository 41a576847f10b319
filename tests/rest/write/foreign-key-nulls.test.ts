import { docOf, openApi, type Api } from './harness';

/**
 * A create may send a foreign key attribute as `null` ("no link") beside other links. Prisma takes a null
 * foreign key only in its unchecked input, the one without relations, so such a create writes every link as
 * its foreign key; a `null` sent for a foreign key with a default stays `null`.
 */

const SCHEMA = `
model Account {
  id    Int    @id
  posts Post[]
  @@allow('all', true)
}
model Space {
  id        Int    @id
  posts     Post[] @relation("space")
  homePosts Post[] @relation("home")
  @@allow('all', true)
}
model Post {
  id       Int     @id @default(autoincrement())
  title    String
  author   Account @relation(fields: [authorId], references: [id])
  authorId Int
  space    Space?  @relation("space", fields: [spaceId], references: [id])
  spaceId  Int?
  home     Space?  @relation("home", fields: [homeId], references: [id])
  homeId   Int?    @default(1)
  @@allow('all', true)
}
`;

describe('REST create with null foreign keys beside links', () => {
    let api: Api;
    beforeAll(async () => {
        api = await openApi(SCHEMA);
        await api.s.prisma.account.create({ data: { id: 1 } });
        await api.s.prisma.space.createMany({ data: [{ id: 1 }, { id: 2 }] });
    });
    afterAll(() => api.cleanup());

    const create = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
        api.call({ id: 1 }, 'POST', '/post', { data: { type: 'post', attributes, ...(relationships ? { relationships } : {}) } });
    const row = (title: string) => api.s.prisma.post.findFirst({ where: { title }, select: { authorId: true, spaceId: true, homeId: true } });

    it('a null foreign key beside another foreign key attribute: created without that link (2.x: 201 too)', async () => {
        const res = await create({ title: 'a', spaceId: null, authorId: 1 });
        expect(res.status).toBe(201);
        expect(docOf(res).data.attributes).toMatchObject({ authorId: 1, spaceId: null, homeId: 1 });
        expect(await row('a')).toEqual({ authorId: 1, spaceId: null, homeId: 1 });
    });

    it('null foreign keys beside a relationship; a null for a key with a default stays null', async () => {
        const res = await create({ title: 'b', spaceId: null, homeId: null }, { author: { data: { type: 'account', id: '1' } } });
        expect(res.status).toBe(201);
        expect(await row('b')).toEqual({ authorId: 1, spaceId: null, homeId: null });
        const linked = await create({ title: 'c', spaceId: 2, homeId: null, authorId: 1 });
        expect(linked.status).toBe(201);
        expect(await row('c')).toEqual({ authorId: 1, spaceId: 2, homeId: null });
    });

    it('a missing record named by a foreign key beside a null one is still a 404, and nothing is written', async () => {
        const res = await create({ title: 'd', spaceId: 7, homeId: null, authorId: 1 });
        expect(res.status).toBe(404);
        expect(await row('d')).toBeNull();
    });
});
