import { describePg, requirePg } from '../../support/postgres';
import { loadSchema } from '../../support/schema';
import { blogApi, makeApi, type Api, type Query } from './support';

/** Filter operators that only PostgreSQL has: scalar lists, full-text search, case-insensitive mode. */

const ARTICLES = `
model Article {
  id     Int      @id @default(autoincrement())
  title  String
  body   String   @default("")
  tags   String[]
  scores Int[]
  @@allow('all', true)
}
`;

describePg('REST filters', () => {
    let api: Api | undefined;
    let plain: Api | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        const s = await loadSchema(ARTICLES, { provider: 'postgresql', previewFeatures: ['fullTextSearchPostgres'] });
        await s.prisma.article.createMany({
            data: [
                { id: 1, title: 'Hello World', body: 'the quick brown fox', tags: ['news', 'tech'], scores: [1, 2] },
                { id: 2, title: 'hello again', body: 'lazy dogs sleep', tags: ['tech'], scores: [3] },
                { id: 3, title: 'Untagged', body: 'a fox and a dog', tags: [], scores: [] },
            ],
        });
        api = makeApi(s);
        // the same schema generated without the full-text preview feature
        const s2 = await loadSchema(ARTICLES, { provider: 'postgresql' });
        plain = makeApi(s2);
    });
    afterAll(async () => {
        await api?.s.cleanup();
        await plain?.s.cleanup();
    });

    async function ids(query: Query): Promise<number[]> {
        const res = await api!.get('/article', query);
        const body = api!.body(res);
        if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
        expect(body.meta.total).toBe(body.data.length);
        return body.data.map((r: { id: number }) => r.id);
    }

    it('$has, $hasEvery, $hasSome and $isEmpty on scalar lists', async () => {
        if (!api) return;
        expect(await ids({ 'filter[tags$has]': 'news' })).toEqual([1]);
        expect(await ids({ 'filter[tags$has]': 'news,tech' })).toEqual([1, 2]);
        expect(await ids({ 'filter[tags$hasEvery]': 'news,tech' })).toEqual([1]);
        expect(await ids({ 'filter[tags$hasSome]': 'news,tech' })).toEqual([1, 2]);
        expect(await ids({ 'filter[tags$isEmpty]': 'true' })).toEqual([3]);
        expect(await ids({ 'filter[tags$isEmpty]': 'false' })).toEqual([1, 2]);
        expect(await ids({ 'filter[scores$has]': '3' })).toEqual([2]);
        expect(await ids({ 'filter[scores$hasSome]': '2,3' })).toEqual([1, 2]);
    });

    it('two operators on one scalar list both hold (they were merged into one list filter, which Prisma refuses: a 400)', async () => {
        if (!api) return;
        expect(await ids({ 'filter[tags$has]': 'news', 'filter[tags$hasSome]': 'tech,news' })).toEqual([1]);
        expect(await ids({ 'filter[tags$hasEvery]': 'tech', 'filter[tags$isEmpty]': 'false' })).toEqual([1, 2]);
        expect(await ids({ 'filter[scores$has]': '1', 'filter[scores$hasSome]': '3,2' })).toEqual([1]);
    });

    it('plain equality on a scalar list means "has" (any-of with commas)', async () => {
        if (!api) return;
        expect(await ids({ 'filter[tags]': 'tech' })).toEqual([1, 2]);
        expect(await ids({ 'filter[tags]': 'news,none' })).toEqual([1]);
    });

    it('types list values and rejects list operators on single values', async () => {
        if (!api) return;
        const bad = api.body(await api.get('/article', { 'filter[scores$has]': 'x' }));
        expect(bad.errors[0]).toMatchObject({ status: 400, code: 'invalid-value' });
        const misuse = api.body(await api.get('/article', { 'filter[title$has]': 'x' }));
        expect(misuse.errors[0]).toMatchObject({ status: 400, code: 'invalid-filter', detail: expect.stringMatching(/does not apply to "title"/) });
        const notList = api.body(await api.get('/article', { 'filter[tags$contains]': 'x' }));
        expect(notList.errors[0]).toMatchObject({ status: 400, code: 'invalid-filter' });
    });

    it('$icontains is case-insensitive and $contains case-sensitive', async () => {
        if (!api) return;
        expect(await ids({ 'filter[title$icontains]': 'HELLO' })).toEqual([1, 2]);
        expect(await ids({ 'filter[title$contains]': 'Hello' })).toEqual([1]);
        expect(await ids({ 'filter[title$contains]': 'HELLO' })).toEqual([]);
    });

    it('$contains, $icontains, $startsWith and $endsWith match % _ and \\ literally (Prisma leaves them LIKE wildcards)', async () => {
        if (!api) return;
        await api.s.prisma.article.createMany({
            data: [
                { id: 10, title: '100% sure' },
                { id: 11, title: 'snake_case' },
                { id: 12, title: 'back\\slash' },
                { id: 13, title: '1000 sure' },
            ],
        });
        try {
            const titles = async (query: Query) => (await ids(query)).filter((id) => id >= 10);
            expect(await titles({ 'filter[title$contains]': '%' })).toEqual([10]);
            expect(await titles({ 'filter[title$contains]': '100%' })).toEqual([10]);
            expect(await titles({ 'filter[title$contains]': 'e_c' })).toEqual([11]);
            expect(await titles({ 'filter[title$contains]': '_' })).toEqual([11]);
            expect(await titles({ 'filter[title$contains]': '\\' })).toEqual([12]);
            expect(await titles({ 'filter[title$icontains]': 'SNAKE_' })).toEqual([11]);
            expect(await titles({ 'filter[title$startsWith]': '100%' })).toEqual([10]);
            expect(await titles({ 'filter[title$endsWith]': '_case' })).toEqual([11]);
            expect(await titles({ 'filter[title$contains]': 'sure' })).toEqual([10, 13]);
        } finally {
            await api.s.prisma.article.deleteMany({ where: { id: { gte: 10 } } });
        }
    });

    it('$search runs a full-text search', async () => {
        if (!api) return;
        expect(await ids({ 'filter[body$search]': 'fox' })).toEqual([1, 3]);
        expect(await ids({ 'filter[body$search]': 'fox & dog' })).toEqual([3]);
    });

    it('$search with a query to_tsquery cannot parse is a 400, not a 500', async () => {
        if (!api) return;
        for (const q of ['quick fox', 'a & | b', "'", '(']) {
            const res = await api.get('/article', { 'filter[body$search]': q });
            expect([q, res.status]).toEqual([q, 400]);
            expect(api.body(res).errors[0]).toMatchObject({ code: 'orm-error', detail: expect.stringMatching(/invalid full-text search query/) });
        }
        expect(await ids({ 'filter[body$search]': 'quick & fox' })).toEqual([1]);
    });

    it('$search without the preview feature is a clear 400', async () => {
        if (!plain) return;
        const res = await plain.get('/article', { 'filter[body$search]': 'fox' });
        expect(res.status).toBe(400);
        expect(plain.body(res).errors[0]).toMatchObject({ code: 'unsupported-feature', detail: expect.stringMatching(/fullTextSearchPostgres/) });
    });

    it('the blog filters work the same on PostgreSQL', async () => {
        if (!(await requirePg())) return;
        const blog = await blogApi({}, { provider: 'postgresql' });
        try {
            const body = blog.body(await blog.get('/post', { 'filter[author][name$icontains]': 'BO', 'filter[viewCount$between]': '1,10' }));
            expect(body.data.map((r: { id: number }) => r.id)).toEqual([3]);
            const users = blog.body(await blog.get('/user', { 'filter[posts][title$contains]': 'draft' }, 2));
            expect(users.data.map((r: { id: number }) => r.id)).toEqual([2]);
            const nulls = blog.body(await blog.get('/post', { 'filter[authorId$ne]': '1' }));
            expect(nulls.data.map((r: { id: number }) => r.id)).toEqual([3, 5]);
        } finally {
            await blog.s.cleanup();
        }
    });
});
