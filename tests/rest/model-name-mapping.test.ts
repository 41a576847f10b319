import { RestApiHandler } from '../../src/api/rest';
import type { Response } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

// modelNameMapping names URL paths only, as in @zenstackhq/server 2.x: documents keep the model's
// type (`user`), links and routes use the mapped name (`users`), and request bodies may give either.

const ENDPOINT = 'http://localhost/api';
type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestSchema;
beforeEach(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'a@x', name: 'Alice' } });
});
afterEach(async () => {
    await s.cleanup();
});

function api(mapping: Record<string, string>) {
    const handle = RestApiHandler({ endpoint: ENDPOINT, modelNameMapping: mapping });
    return (method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Response & { body: Body }> =>
        handle({ method, path, query, requestBody: body, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null }) as never;
}

describe('modelNameMapping', () => {
    it('routes and links by the mapped name; documents carry the model type', async () => {
        const call = api({ User: 'users', Post: 'posts' });
        const res = await call('GET', '/users/1', undefined, { include: 'posts' });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ type: 'user', id: 1, links: { self: `${ENDPOINT}/users/1` } });
        expect(res.body.data.relationships.posts.links).toEqual({ self: `${ENDPOINT}/users/1/relationships/posts`, related: `${ENDPOINT}/users/1/posts` });
        expect((await call('GET', '/user/1')).status).toBe(404);
    });

    it('takes either name in data.type, identifiers and fields[]', async () => {
        const call = api({ User: 'users', Post: 'posts' });
        for (const [type, userType] of [
            ['post', 'user'],
            ['posts', 'users'],
        ]) {
            const res = await call('POST', '/posts', { data: { type, attributes: { title: `by ${type}` }, relationships: { author: { data: { type: userType, id: 1 } } } } });
            expect([res.status, res.body.data?.type, res.body.data?.relationships.author.data]).toEqual([201, 'post', { type: 'user', id: 1 }]);
        }
        const sparse = await call('GET', '/posts', undefined, { 'fields[posts]': 'title', 'fields[user]': 'name', include: 'author' });
        expect(sparse.body.data.map((p: Body) => Object.keys(p.attributes))).toEqual([['title'], ['title']]);
        expect(Object.keys(sparse.body.included[0].attributes)).toEqual(['name']);
        const wrong = await call('POST', '/posts', { data: { type: 'comment', attributes: { title: 'x' } } });
        expect([wrong.status, wrong.body.errors[0].code]).toEqual([409, 'type-conflict']);
    });

    it('a mapped name that is another model type names that model in bodies, never both', async () => {
        // Post's URL path is "user": /user is Post's collection, while "user" in a body still means User
        const call = api({ Post: 'user', User: 'people' });
        const res = await call('POST', '/user', { data: { type: 'post', attributes: { title: 'mine' }, relationships: { author: { data: { type: 'user', id: 1 } } } } });
        expect([res.status, res.body.data.type, res.body.data.links.self]).toEqual([201, 'post', `${ENDPOINT}/user/${res.body.data.id}`]);
        const confused = await call('POST', '/user', { data: { type: 'post', attributes: { title: 'x' }, relationships: { author: { data: { type: 'post', id: 1 } } } } });
        expect([confused.status, confused.body.errors[0].source.pointer]).toEqual([400, '/data/relationships/author/data/type']);
        const byPath = await call('POST', '/user', { data: { type: 'user', attributes: { title: 'x' } } });
        expect([byPath.status, byPath.body.errors[0].code]).toEqual([409, 'type-conflict']);
        const people = await call('PATCH', '/people/1', { data: { type: 'people', attributes: { name: 'Al' } } });
        expect([people.status, people.body.data.type, people.body.data.attributes.name]).toEqual([200, 'user', 'Al']);
    });

    it('refuses two models mapped to the same path', () => {
        const call = api({ User: 'things', Post: 'things' });
        return expect(call('GET', '/things')).resolves.toMatchObject({ status: 500 });
    });
});
