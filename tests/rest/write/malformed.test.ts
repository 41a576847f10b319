import { BLOG_MODELS, errorsOf, openApi, seedBlog, snapshot, type Api } from './harness';

// Every class of malformed write through the public handler: a 4xx JSON:API error with a pointer
// to the offending member, and nothing written (the tables, read with the raw client, are unchanged).

let api: Api;
let ids: Awaited<ReturnType<typeof seedBlog>>;
let before: Record<string, unknown[]>;

beforeAll(async () => {
    api = await openApi();
    ids = await seedBlog(api.s);
    before = await snapshot(api.s, BLOG_MODELS);
});
afterAll(async () => {
    await api?.cleanup();
});

type Case = [name: string, method: string, path: () => string, body: unknown, status: number, code: string, pointer?: string];

const post = (extra: Record<string, unknown>) => ({ data: { type: 'post', ...extra } });
const author = (data: unknown) => post({ attributes: { title: 't' }, relationships: { author: { data } } });

const CASES: Case[] = [
    // document shape
    ['body not an object', 'POST', () => '/post', 'text', 400, 'invalid-payload', ''],
    ['no body', 'POST', () => '/post', undefined, 400, 'invalid-payload', ''],
    ['missing data', 'POST', () => '/post', { meta: {} }, 400, 'invalid-payload', ''],
    ['data is an array', 'POST', () => '/post', { data: [post({}).data] }, 400, 'invalid-payload', '/data'],
    ['data is a string', 'PATCH', () => `/post/${ids.draft}`, { data: 'post' }, 400, 'invalid-payload', '/data'],
    ['missing type', 'POST', () => '/post', { data: { attributes: { title: 't' } } }, 400, 'invalid-payload', '/data'],
    ['type of another endpoint', 'POST', () => '/post', { data: { type: 'comment', attributes: { content: 'c' } } }, 409, 'type-conflict', '/data/type'],
    ['id differing from the URL', 'PATCH', () => `/post/${ids.draft}`, () => post({ id: String(ids.pub) }), 409, 'id-conflict', '/data/id'],
    ['malformed data.id', 'POST', () => '/post', post({ id: 'one', attributes: { title: 't' } }), 400, 'invalid-id', '/data/id'],
    ['attributes is an array', 'POST', () => '/post', post({ attributes: ['t'] }), 400, 'invalid-payload', '/data/attributes'],
    ['relationships is a string', 'POST', () => '/post', post({ relationships: 'author' }), 400, 'invalid-payload', '/data/relationships'],
    // members
    ['unknown attribute', 'POST', () => '/post', post({ attributes: { title: 't', subtitle: 's' } }), 400, 'invalid-payload', '/data/attributes/subtitle'],
    ['relationship sent as attribute', 'POST', () => '/post', post({ attributes: { title: 't', author: { id: 1 } } }), 400, 'invalid-payload', '/data/attributes/author'],
    ['id attribute naming another record than the URL', 'PATCH', () => `/post/${ids.draft}`, post({ attributes: { id: 99 } }), 409, 'id-conflict', '/data/attributes/id'],
    ['id attribute contradicting data.id', 'POST', () => '/post', post({ id: '98', attributes: { id: 99, title: 't' } }), 400, 'invalid-payload', '/data/attributes/id'],
    ['attribute sent as relationship', 'POST', () => '/post', post({ relationships: { title: { data: 't' } } }), 400, 'invalid-payload', '/data/relationships/title'],
    ['unknown relationship', 'POST', () => '/post', post({ relationships: { editor: { data: null } } }), 400, 'invalid-payload', '/data/relationships/editor'],
    ['relationship without data', 'POST', () => '/post', post({ relationships: { author: { links: {} } } }), 400, 'invalid-payload', '/data/relationships/author'],
    // a "__proto__" key (own property after JSON.parse) would become a prototype in the ORM's copy of the value
    ['"__proto__" in a Json value', 'POST', () => '/allTypes', JSON.parse('{"data":{"type":"allTypes","id":"pp1","attributes":{"json":{"b":2,"__proto__":{"isAdmin":true}}}}}'), 400, 'invalid-payload', '/data/attributes/json/__proto__'],
    ['"__proto__" deep in a Json list', 'PATCH', () => `/post/${ids.draft}`, JSON.parse('{"data":{"type":"post","attributes":{"title":"t"}},"meta":{"x":[{"__proto__":1}]}}'), 400, 'invalid-payload', '/meta/x/0/__proto__'],
    ['"__proto__" as an attribute name', 'POST', () => '/post', JSON.parse('{"data":{"type":"post","attributes":{"title":"t","__proto__":{"x":1}}}}'), 400, 'invalid-payload', '/data/attributes/__proto__'],
    // wrong JSON types
    ['string for an Int', 'PATCH', () => `/post/${ids.draft}`, post({ attributes: { viewCount: '3' } }), 400, 'invalid-payload', '/data/attributes/viewCount'],
    ['object for a String', 'PATCH', () => `/post/${ids.draft}`, post({ attributes: { title: { en: 't' } } }), 400, 'invalid-payload', '/data/attributes/title'],
    ['number for a Boolean', 'PATCH', () => `/post/${ids.draft}`, post({ attributes: { published: 1 } }), 400, 'invalid-payload', '/data/attributes/published'],
    ['null for a required field', 'PATCH', () => `/post/${ids.draft}`, post({ attributes: { title: null } }), 400, 'invalid-payload', '/data/attributes/title'],
    ['bad date', 'PATCH', () => `/post/${ids.draft}`, post({ attributes: { createdAt: 'soon' } }), 400, 'invalid-payload', '/data/attributes/createdAt'],
    ['bad BigInt', 'POST', () => '/allTypes', { data: { type: 'allTypes', attributes: { bigInt: '12abc' } } }, 400, 'invalid-payload', '/data/attributes/bigInt'],
    ['bad Decimal', 'POST', () => '/allTypes', { data: { type: 'allTypes', attributes: { decimal: '1,5' } } }, 400, 'invalid-payload', '/data/attributes/decimal'],
    ['bad Base64', 'POST', () => '/allTypes', { data: { type: 'allTypes', attributes: { bytes: '%%%' } } }, 400, 'invalid-payload', '/data/attributes/bytes'],
    // identifiers
    ['identifier without type', 'POST', () => '/post', author({ id: 1 }), 400, 'invalid-payload', '/data/relationships/author/data'],
    ['identifier without id', 'POST', () => '/post', author({ type: 'user' }), 400, 'invalid-payload', '/data/relationships/author/data'],
    ['identifier of the wrong type', 'POST', () => '/post', author({ type: 'comment', id: 1 }), 400, 'invalid-payload', '/data/relationships/author/data/type'],
    ['identifier with a malformed id', 'POST', () => '/post', author({ type: 'user', id: '1.5' }), 400, 'invalid-id', '/data/relationships/author/data/id'],
    ['array for a to-one', 'POST', () => '/post', author([{ type: 'user', id: 1 }]), 400, 'invalid-payload', '/data/relationships/author/data'],
    ['object for a to-many', 'PATCH', () => `/user/${ids.u1}`, { data: { type: 'user', relationships: { posts: { data: { type: 'post', id: 1 } } } } }, 400, 'invalid-payload', '/data/relationships/posts/data'],
    // conflicts between members
    ['foreign key conflicting with the relationship', 'POST', () => '/post', { data: { type: 'post', attributes: { title: 't', authorId: 2 }, relationships: { author: { data: { type: 'user', id: 1 } } } } }, 400, 'invalid-payload', '/data/attributes/authorId'],
    // serialization metadata
    ['meta.serialization not an object', 'POST', () => '/post', { ...post({ attributes: { title: 't' } }), meta: { serialization: [] } }, 400, 'invalid-payload', '/meta/serialization'],
    ['undecodable tagged value', 'POST', () => '/allTypes', { data: { type: 'allTypes', attributes: { bigInt: 'x' } }, meta: { serialization: { values: { 'data.attributes.bigInt': ['bigint'] } } } }, 400, 'invalid-payload'],
    ['tag on a path that is not there', 'POST', () => '/allTypes', { data: { type: 'allTypes', attributes: {} }, meta: { serialization: { values: { 'data.attributes.bytes.x.y': [['custom', 'Bytes']] } } } }, 400, 'invalid-payload'],
    ['prototype path in metadata', 'POST', () => '/allTypes', { data: { type: 'allTypes' }, meta: { serialization: { values: { '__proto__.polluted': ['Date'] } } } }, 400, 'invalid-payload'],
    // relationship endpoints
    ['relationship body without data', 'PATCH', () => `/post/${ids.pub}/relationships/author`, { id: 1 }, 400, 'invalid-payload', ''],
    ['to-one relationship given an array', 'PATCH', () => `/post/${ids.pub}/relationships/author`, { data: [] }, 400, 'invalid-payload', '/data'],
    ['to-many relationship given null', 'PATCH', () => `/user/${ids.u1}/relationships/posts`, { data: null }, 400, 'invalid-payload', '/data'],
    ['add to a to-one relationship', 'POST', () => `/post/${ids.pub}/relationships/author`, { data: [{ type: 'user', id: 1 }] }, 400, 'invalid-verb'],
    ['replace a to-many at its related URL', 'PATCH', () => `/user/${ids.u1}/posts`, { data: [] }, 400, 'invalid-verb'],
    ['bad identifier in a list', 'POST', () => `/user/${ids.u1}/relationships/posts`, { data: [{ type: 'post', id: 2 }, { type: 'post' }] }, 400, 'invalid-payload', '/data/1'],
];

describe.each(CASES)('%s', (_name, method, path, body, status, code, pointer) => {
    it(`answers ${status} ${code} and writes nothing`, async () => {
        const res = await api.call({ id: ids.u1 }, method, path(), typeof body === 'function' ? body() : body);
        expect(res.status).toBe(status);
        expect(res.headers?.['content-type']).toBe('application/vnd.api+json');
        const [error] = errorsOf(res);
        expect(error).toMatchObject({ status, code });
        expect(typeof error.detail).toBe('string');
        if (pointer !== undefined) expect(error.source).toEqual({ pointer });
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });
});

it('rejects an unsupported query parameter on a write before writing', async () => {
    const res = await api.call({ id: ids.u1 }, 'POST', '/post', author({ type: 'user', id: ids.u1 }), { query: { 'page[limit]': '1' } });
    expect([res.status, errorsOf(res)[0].code]).toEqual([400, 'unknown-parameter']);
    expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
});

it.each<Record<string, string>>([{ 'filter[title]': 'nothing matches' }, { foo: 'bar' }, { include: 'author' }])('a DELETE with query parameters %j is a 400 and deletes nothing', async (query) => {
    const res = await api.call({ id: ids.u1 }, 'DELETE', `/post/${ids.draft}`, undefined, { query });
    expect([res.status, errorsOf(res)[0].code]).toEqual([400, 'unknown-parameter']);
    expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
});

it('does not pollute Object.prototype through any of the above', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});
