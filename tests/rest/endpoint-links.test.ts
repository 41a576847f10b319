import { createFetchHandler } from '../../src/adapters/fetch';
import { RestApiHandler } from '../../src/api/rest';
import { seedBlog } from './read/support';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Every link (and `Location`) is built from the `endpoint` option. JSON:API 1.1 links are URI-references (RFC 3986):
 * an endpoint written with characters a URI cannot hold as they are (an internationalized host, a space or a
 * non-ASCII letter in its path) is written in its URI form, and one with a query or a fragment, after which no
 * path could be appended, is refused when the handler is created.
 */

const URI_REFERENCE = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

describe('links from the endpoint option', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema();
        await seedBlog(s.prisma);
    });
    afterAll(() => s.cleanup());

    const call = (endpoint: string, method: string, path: string, requestBody?: unknown) =>
        RestApiHandler({ endpoint })({ method, path, query: {}, requestBody, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, logger: null });

    it.each([
        ['http://bücher.example/api', 'http://xn--bcher-kva.example/api'],
        ['http://例え.jp/データ/api', 'http://xn--r8jz45g.jp/%E3%83%87%E3%83%BC%E3%82%BF/api'],
        ['http://localhost/my api/', 'http://localhost/my%20api'],
        ['HTTP://LOCALHOST:80/Api', 'http://localhost/Api'],
    ])('%s: links are URI-references under %s', async (endpoint, base) => {
        const res = await call(endpoint, 'GET', '/post/1');
        const body = res.body as { data: { links: { self: string }; relationships: Record<string, { links: Record<string, string> }> }; links: { self: string } };
        expect(res.status).toBe(200);
        expect(body.data.links.self).toBe(`${base}/post/1`);
        expect(body.links.self).toBe(`${base}/post/1`);
        for (const rel of Object.values(body.data.relationships)) {
            for (const link of Object.values(rel.links)) expect(link).toMatch(URI_REFERENCE);
        }
    });

    it('a create through an adapter under an internationalized endpoint answers 201 with its Location, not a 500 after the write', async () => {
        const handler = RestApiHandler({ endpoint: 'http://例え.jp/api' });
        const app = createFetchHandler({ handler, modelMeta: s.modelMeta, zodSchemas: s.zodSchemas, getPrisma: () => s.enhance({ id: 1 }) });
        const body = JSON.stringify({ data: { type: 'post', attributes: { title: 'idn' }, relationships: { author: { data: { type: 'user', id: 1 } } } } });
        const res = await app(new Request('http://localhost/post', { method: 'POST', body, headers: { 'content-type': 'application/vnd.api+json' } }));
        expect(res.status).toBe(201);
        const doc = (await res.json()) as { data: { id: number; links: { self: string } } };
        expect(res.headers.get('location')).toBe(`http://xn--r8jz45g.jp/api/post/${doc.data.id}`);
        expect(doc.data.links.self).toBe(res.headers.get('location'));
    });

    it.each(['http://localhost/api?tenant=1', 'http://localhost/api#top'])('%s is refused at creation', (endpoint) => {
        expect(() => RestApiHandler({ endpoint })).toThrow(/"endpoint" must not have a query or a fragment/);
    });

    it('a bare "?" or "#" at the end is no query or fragment', async () => {
        for (const endpoint of ['http://localhost/api?', 'http://localhost/api#']) {
            const res = await call(endpoint, 'GET', '/post/1');
            expect((res.body as { links: { self: string } }).links.self).toBe('http://localhost/api/post/1');
        }
    });
});
