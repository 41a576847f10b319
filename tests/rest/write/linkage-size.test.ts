import { BLOG_MODELS, docOf, firstError, openApi, snapshot, type Api } from './harness';

/**
 * ZenStack and Prisma check and link the members of a to-many relationship one by one, in one transaction: 30,000
 * identifiers (a 1 MiB body holds 35,000) kept the server busy for 12 s, and on SQLite every other request waiting.
 * A relationship of a request lists at most 1,000 identifiers; more is a 400 naming it, before anything is written.
 */

let api: Api;
let user: number;
const identifiers = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ type: 'post', id: String(from + i) }));

beforeAll(async () => {
    api = await openApi();
    user = (await api.s.prisma.user.create({ data: { email: 'linkage@x' } })).id;
    await api.s.prisma.post.createMany({ data: Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, title: `p${i}`, authorId: user })) });
});

afterAll(async () => {
    await api?.cleanup();
});

it.each([
    ['POST', 'relationship endpoint', () => `/user/${user}/relationships/posts`, (data: unknown) => ({ data }), '/data'],
    ['PATCH', 'relationship endpoint', () => `/user/${user}/relationships/posts`, (data: unknown) => ({ data }), '/data'],
    ['DELETE', 'relationship endpoint', () => `/user/${user}/relationships/posts`, (data: unknown) => ({ data }), '/data'],
    ['PATCH', 'resource', () => `/user/${user}`, (data: unknown) => ({ data: { type: 'user', id: String(user), relationships: { posts: { data } } } }), '/data/relationships/posts/data'],
    ['POST', 'resource', () => '/user', (data: unknown) => ({ data: { type: 'user', attributes: { email: 'new@x' }, relationships: { posts: { data } } } }), '/data/relationships/posts/data'],
])('%s on a %s: 1,001 identifiers are a 400 naming the list, nothing written', async (method, _what, path, body, pointer) => {
    const before = await snapshot(api.s, BLOG_MODELS);
    const res = await api.call({ id: user }, method, path(), body(identifiers(1001)));
    expect(res.status).toBe(400);
    expect(firstError(res)).toMatchObject({ code: 'invalid-payload', source: { pointer }, detail: 'at most 1000 resource identifiers per relationship in one request, got 1001' });
    expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
});

it('1,000 identifiers are taken', async () => {
    const same = await api.call({ id: user }, 'PATCH', `/user/${user}/relationships/posts`, { data: identifiers(1000) });
    expect([same.status, docOf(same).meta.total]).toEqual([200, 1000]);
    const removed = await api.call({ id: user }, 'DELETE', `/user/${user}/relationships/posts`, { data: identifiers(1000) });
    expect([removed.status, docOf(removed).meta.total]).toEqual([200, 0]);
    expect(await api.s.prisma.post.count({ where: { authorId: user } })).toBe(0);
});
