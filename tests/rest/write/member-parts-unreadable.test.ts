import { firstError, openApi, type Api } from './harness';

/**
 * A long member list on SQLite is written in parts (member-parts.ts) in one transaction. A part after which the record
 * stopped being readable (a read rule on its members) used to end the write there: the parts so far were committed,
 * the rest (and the attributes, which go with the last part) never written, and the answer said the write was kept.
 */
const SCHEMA = `
model Post {
  id    Int     @id
  title String
  shown Boolean @default(false)
  tags  Tag[]
  @@allow('create,update', true)
  @@allow('read', true)
  @@deny('read', tags?[secret == true] && !shown)
}

model Tag {
  id     Int     @id
  secret Boolean @default(false)
  posts  Post[]
  @@allow('all', true)
}
`;

const N = 900;
const tags = Array.from({ length: N }, (_, i) => ({ type: 'tag', id: String(i + 1) }));

async function seeded(): Promise<Api> {
    // each member is linked one by one in the request's transaction: a busy machine needs more than Prisma's 5 s
    const api = await openApi(SCHEMA, 'sqlite', { transactionOptions: { timeout: 30_000 } });
    await api.s.prisma.post.create({ data: { id: 1, title: 'old' } });
    // the first tag makes the post unreadable as soon as it is linked: in the first part
    await api.s.prisma.tag.createMany({ data: Array.from({ length: N }, (_, i) => ({ id: i + 1, secret: i === 0 })) });
    return api;
}

async function stored(api: Api): Promise<{ title: string; shown: boolean; tags: number }> {
    const post = await api.s.prisma.post.findUnique({ where: { id: 1 }, include: { _count: { select: { tags: true } } } });
    return { title: post.title, shown: post.shown, tags: post._count.tags };
}

describe('a write in parts after whose first part the record is not readable [sqlite]', () => {
    let api: Api;
    beforeEach(async () => {
        api = await seeded();
    });
    afterEach(async () => {
        await api.cleanup();
    });

    it.each([
        ['PATCH', '/post/1', { data: { type: 'post', id: '1', attributes: { title: 'new' }, relationships: { tags: { data: tags } } } }, 'new'],
        ['POST', '/post/1/relationships/tags', { data: tags }, 'old'],
        ['PATCH', '/post/1/relationships/tags', { data: tags }, 'old'],
    ])('%s %s is written whole, then answered as not readable', async (method, path, body, title) => {
        const res = await api.call({ id: 1 }, method, path, body);
        expect([res.status, firstError(res).reason]).toEqual([403, 'RESULT_NOT_READABLE']);
        expect(await stored(api)).toEqual({ title, shown: false, tags: N });
    });

    it('answers the record when the attributes written last make it readable again', async () => {
        const res = await api.call({ id: 1 }, 'PATCH', '/post/1', {
            data: { type: 'post', id: '1', attributes: { title: 'new', shown: true }, relationships: { tags: { data: tags } } },
        });
        expect(res.status).toBe(200);
        expect(await stored(api)).toEqual({ title: 'new', shown: true, tags: N });
    });
});
