import { BLOG_MODELS, docOf, errorsOf, openApi, seedBlog, snapshot, type Api } from './harness';

/**
 * JSON:API 1.1, "@-Members": members whose names begin with "@" (JSON-LD's `@context`, `@id` …) may appear
 * anywhere in a document and must be ignored when interpreting the specification's definitions: an @-member of
 * an attributes object is not an attribute, nor is one of a relationships object a relationship. A write that
 * carries them is the write without them (`@zenstackhq/server` 2.x handed them to the ORM, which refused them).
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

const ALICE = () => ({ id: ids.u1 });
const JSON_LD = { '@context': { title: 'https://schema.org/headline' }, '@type': 'BlogPosting' };

describe('@-members in request documents', () => {
    it('are not attributes or relationships on create', async () => {
        const res = await api.call(ALICE(), 'POST', '/post', {
            data: {
                type: 'post',
                attributes: { ...JSON_LD, title: 'linked data' },
                relationships: { '@id': 'https://example.com/posts/new', author: { data: { type: 'user', id: ids.u1 } } },
            },
        });
        expect(res.status).toBe(201);
        const created = docOf(res).data;
        expect([created.attributes.title, created.relationships.author.data]).toEqual(['linked data', { type: 'user', id: ids.u1 }]);
        expect(Object.keys(created.attributes).some((k) => k.startsWith('@'))).toBe(false);
    });

    it('are not attributes or relationships on update, and change nothing by themselves', async () => {
        const res = await api.call(ALICE(), 'PATCH', `/post/${ids.draft}`, {
            data: { type: 'post', id: String(ids.draft), attributes: { ...JSON_LD, viewCount: 7 }, relationships: { '@graph': [] } },
        });
        expect([res.status, docOf(res).data.attributes.viewCount]).toEqual([200, 7]);
        const before = await snapshot(api.s, BLOG_MODELS);
        const only = await api.call(ALICE(), 'PATCH', `/post/${ids.draft}`, { data: { type: 'post', attributes: JSON_LD, relationships: { '@id': 'x' } } });
        expect(only.status).toBe(200);
        expect(await snapshot(api.s, BLOG_MODELS)).toEqual(before);
    });

    it('are ignored in upserts too', async () => {
        const res = await api.call(ALICE(), 'POST', '/user', {
            data: { type: 'user', attributes: { '@type': 'Person', email: 'u1@x', name: 'One again' } },
            meta: { operation: 'upsert', matchFields: ['email'] },
        });
        expect([res.status, docOf(res).data.attributes.name]).toEqual([201, 'One again']);
    });

    it('a name with "@" elsewhere than first is still an unknown attribute', async () => {
        const res = await api.call(ALICE(), 'POST', '/post', { data: { type: 'post', attributes: { title: 't', 'a@b': 1 } } });
        expect([res.status, errorsOf(res)[0].source?.pointer]).toEqual([400, '/data/attributes/a@b']);
    });
});
