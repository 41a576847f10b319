import { RestApiHandler } from '../../../src/api/rest';
import type { LoggerConfig } from '../../../src/types';
import { at, blogApi, JSONAPI, type Api, type Query } from './support';

/** Every error of the read endpoints, as JSON:API error documents. */

describe('REST read errors', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
    });
    afterAll(() => api.s.cleanup());

    it('unknown type: an exact 404 unsupported-model document', async () => {
        const res = await api.get('/nope');
        expect(res.status).toBe(404);
        expect(res.headers).toEqual({ 'content-type': 'application/vnd.api+json' });
        expect(api.body(res)).toEqual({
            errors: [{ status: 404, code: 'unsupported-model', title: 'Unsupported model type', detail: 'model "nope" does not exist' }],
            jsonapi: JSONAPI,
        });
    });

    it.each<[string, number, string]>([
        ['/post/99', 404, 'not-found'],
        ['/post/99/comments', 404, 'not-found'],
        ['/post/99/author', 404, 'not-found'],
        ['/post/99/relationships/comments', 404, 'not-found'],
        ['/post/99/relationships/author', 404, 'not-found'],
        ['/post/99/comments/1', 404, 'not-found'],
        ['/post/1/comments/99', 404, 'not-found'],
        ['/post/1/nope', 404, 'unsupported-relationship'],
        ['/post/1/relationships/nope', 404, 'unsupported-relationship'],
        ['/post/1/nope/1', 404, 'unsupported-relationship'],
        ['/post/abc', 400, 'invalid-id'],
        ['/post/1.5/comments', 400, 'invalid-id'],
        ['/post/1/comments/x', 400, 'invalid-id'],
        ['/post/3000000000', 400, 'invalid-id'], // beyond Prisma's 32-bit Int
        ['/post/1/comments/-2147483649', 400, 'invalid-id'],
        ['/', 400, 'invalid-path'],
        ['/post/1/relationships/comments/1', 400, 'invalid-path'],
        ['/post/%E0%A4%A', 400, 'invalid-path'],
        // an empty id: dropping the segment would read "comments" as the id (2.x answers 400 too)
        ['/post//comments', 400, 'invalid-path'],
        ['/post/1//author', 400, 'invalid-path'],
    ])('GET %s → %i %s', async (path, status, code) => {
        const res = await api.get(path);
        expect(res.status).toBe(status);
        const body = api.body(res);
        expect(body.jsonapi).toEqual(JSONAPI);
        expect(body.errors).toHaveLength(1);
        expect(body.errors[0]).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String) });
    });

    it('tolerates slashes before and after the path', async () => {
        const res = await api.get('//post/1/');
        expect([res.status, api.body(res).data.id]).toEqual([200, 1]);
    });

    it('names the resource in not-found details', async () => {
        expect(api.body(await api.get('/post/99')).errors[0].detail).toBe('post "99" not found');
        expect(api.body(await api.get('/post/1/comments/99')).errors[0].detail).toBe('comment "99" not found in relationship "comments" of post "1"');
        // a comment that exists but belongs to another post is answered alike
        const other = api.body(await api.get('/post/1/comments/3'));
        expect(other.errors[0].detail).toBe('comment "3" not found in relationship "comments" of post "1"');
    });

    it('unsupported verbs on read-only routes', async () => {
        for (const [method, path] of [
            ['DELETE', '/post'],
            ['POST', '/post/1/comments/1'],
            ['OPTIONS', '/post/1'],
        ]) {
            const res = await api.call(method, path);
            expect([method, path, res.status, api.body(res).errors[0].code]).toEqual([method, path, 400, 'invalid-verb']);
        }
    });

    it.each<[string, Query, RegExp]>([
        ['/post', { foo: '1' }, /unsupported query parameter "foo"/],
        ['/post', { 'page[offset]x': '1' }, /unsupported query parameter/],
        ['/post', { 'sort[x]': 'title' }, /takes no brackets/],
        ['/post/1', { sort: 'title' }, /"sort" parameter is not supported on a single resource/],
        ['/post/1', { 'filter[title]': 'x' }, /"filter" parameter is not supported on a single resource/],
        ['/post/1', { 'page[limit]': '1' }, /"page" parameter is not supported/],
        ['/post/1/author', { sort: 'name' }, /not supported on a single resource/],
        ['/post/1/relationships/author', { 'filter[name]': 'x' }, /"filter" parameter is not supported on to-one relationship endpoints/],
        ['/post/1/relationships/author', { 'page[limit]': '1' }, /"page" parameter is not supported on to-one relationship endpoints/],
    ])('GET %s %j → 400 unknown-parameter', async (path, query, detail) => {
        const res = await api.get(path, query);
        expect(res.status).toBe(400);
        expect(api.body(res).errors[0]).toMatchObject({ code: 'unknown-parameter', detail: expect.stringMatching(detail), source: { parameter: Object.keys(query)[0] } });
    });

    it('answers 500 with a generic message and logs the detail', async () => {
        const logged: string[] = [];
        const logger: LoggerConfig = { error: (message) => logged.push(message) };
        const handle = RestApiHandler({ endpoint: at('') });
        // a request context whose client is broken: the failure is not the client's business
        const broken = { post: { findUnique: () => Promise.reject(new Error('socket exploded at /internal/path')) } };
        const res = await handle({ method: 'GET', path: '/post/1', prisma: broken as never, modelMeta: api.s.modelMeta, logger });
        expect(res.status).toBe(500);
        expect(JSON.parse(JSON.stringify(res.body))).toEqual({
            errors: [{ status: 500, code: 'unknown-error', title: 'Unknown error', detail: 'an unexpected error occurred' }],
            jsonapi: JSONAPI,
        });
        expect(logged.join('\n')).toMatch(/socket exploded/);
    });
});
