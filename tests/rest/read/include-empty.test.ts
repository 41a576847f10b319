import { RestApiHandler } from '../../../src/api/rest';
import { ENDPOINT, blogApi, type Api, type Query } from './support';

/**
 * JSON:API 1.1, "Inclusion of Related Resources": an empty `include` value indicates that no related resources
 * should be returned; a request that supplies `include` gets a compound document, with an `included` member even
 * when it is empty. (`@zenstackhq/server` 2.x answered `include=` as if it were not given.)
 */
describe('include= (an empty value)', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    const get = async (path: string, query: Query) => {
        const res = await api.get(path, query);
        return { status: res.status, body: api.body(res) };
    };

    it.each(['/post', '/post/1', '/user/1/posts', '/post/1/author'])('GET %s?include= answers the document without related resources and an empty included', async (path) => {
        const plain = await get(path, {});
        const empty = await get(path, { include: '' });
        expect(empty.status).toBe(200);
        expect(empty.body.included).toEqual([]);
        expect(empty.body.data).toEqual(plain.body.data);
        expect(empty.body.links.self).toBe(`${plain.body.links.self}?include=`);
    });

    it.each(['/user/1/relationships/posts', '/post/1/relationships/author'])('GET %s?include= answers the linkage and an empty included', async (path) => {
        const plain = await get(path, {});
        const empty = await get(path, { include: '' });
        expect([empty.status, empty.body.data, empty.body.included]).toEqual([200, plain.body.data, []]);
    });

    it('an empty value beside another include parameter adds no path', async () => {
        const one = await get('/post/1', { include: 'author' });
        const both = await get('/post/1', { include: ['', 'author'] });
        expect([both.status, both.body.included]).toEqual([200, one.body.included]);
        expect((await get('/post/1', { include: ['author', ''] })).body.included).toEqual(one.body.included);
    });

    it('is honoured on the answer of a write', async () => {
        const handle = RestApiHandler({ endpoint: ENDPOINT });
        const res = await handle({
            method: 'PATCH',
            path: '/post/1',
            query: { include: '' },
            requestBody: { data: { type: 'post', id: '1', attributes: { viewCount: 11 } } },
            prisma: api.s.enhance({ id: 1 }),
            modelMeta: api.s.modelMeta,
            zodSchemas: api.s.zodSchemas,
            logger: null,
        });
        const body = api.body(res);
        expect([res.status, body.data.attributes.viewCount, body.included]).toEqual([200, 11, []]);
    });

    it('an empty path inside a list is still refused', async () => {
        for (const include of ['author,', ',author', 'author,,comments']) {
            const res = await get('/post', { include });
            expect([res.status, res.body.errors[0].code]).toEqual([400, 'invalid-include']);
        }
    });
});
