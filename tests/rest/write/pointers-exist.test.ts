import { BLOG_MODELS, firstError, openApi, seedBlog, snapshot, type Api } from './harness';

/**
 * JSON:API 1.1, error objects: `source.pointer` "MUST point to a value in the request document that exists". A
 * malformed document missing a member is answered with a pointer to the member's container (the detail names what
 * is missing), never to the absent member itself. (A `422` for a required attribute left out still points at the
 * attribute, where form libraries attach the message.)
 */

let api: Api;
let ids: Awaited<ReturnType<typeof seedBlog>>;

beforeAll(async () => {
    api = await openApi();
    ids = await seedBlog(api.s);
});
afterAll(async () => {
    await api?.cleanup();
});

/** Resolves an RFC 6901 pointer in `doc`; `undefined` when it names nothing. */
function resolve(doc: unknown, pointer: string): unknown {
    if (pointer === '') return doc;
    let value: unknown = doc;
    for (const raw of pointer.slice(1).split('/')) {
        const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
        if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, token)) return undefined;
        value = (value as Record<string, unknown>)[token];
    }
    return value;
}

const post = (data: Record<string, unknown>) => ({ data: { type: 'post', attributes: { title: 't' }, ...data } });

const CASES: [name: string, method: string, path: () => string, body: Record<string, unknown>, pointer: string, detail: RegExp][] = [
    ['no data', 'POST', () => '/post', { meta: {} }, '', /needs a "data" member/],
    ['no type', 'POST', () => '/post', { data: { attributes: { title: 't' } } }, '/data', /needs a string "type"/],
    ['no type on update', 'PATCH', () => `/post/${ids.draft}`, { data: { id: 'x' } }, '/data', /needs a string "type"/],
    ['identifier without id', 'POST', () => '/post', post({ relationships: { author: { data: { type: 'user' } } } }), '/data/relationships/author/data', /needs an "id"/],
    ['identifier without type', 'POST', () => '/post', post({ relationships: { author: { data: { id: 1 } } } }), '/data/relationships/author/data', /needs a string "type"/],
    ['to-many identifier without id', 'POST', () => `/post/${ids.pub}/relationships/comments`, { data: [{ type: 'comment' }] }, '/data/0', /needs an "id"/],
    ['relationship body without data', 'PATCH', () => `/post/${ids.pub}/relationships/author`, { id: 1 }, '', /needs a "data" member/],
    // JSON:API: data and errors must not coexist (it was a 201; 2.22.3: 400; a review on 2026-12-01)
    ['data beside errors', 'POST', () => '/post', { ...post({}), errors: [] }, '/errors', /"data" or "errors", not both/],
];

describe('source.pointer of a missing member', () => {
    it.each(CASES)('%s: points at a value of the document', async (_name, method, path, body, pointer, detail) => {
        const before = await snapshot(api.s, BLOG_MODELS);
        const res = await api.call({ id: ids.u1 }, method, path(), body);
        const error = firstError(res);
        expect([res.status, error.code, error.source?.pointer]).toEqual([400, 'invalid-payload', pointer]);
        expect(error.detail).toMatch(detail);
        expect(resolve(body, pointer)).toBeDefined();
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('a member that is there but wrong is still pointed at itself', async () => {
        const res = await api.call({ id: ids.u1 }, 'POST', '/post', post({ relationships: { author: { data: { type: 'user', id: true } } } }));
        expect(firstError(res).source?.pointer).toBe('/data/relationships/author/data/id');
        const typed = await api.call({ id: ids.u1 }, 'POST', '/post', { data: { type: 7 } });
        expect(firstError(typed).source?.pointer).toBe('/data/type');
    });
});
