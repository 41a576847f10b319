import { RestApiHandler } from '../../src/api/rest';
import { BOB, loadLeakSchema, SECRETS } from './fixture';
import type { TestSchema } from '../support/schema';

/** Proof that JSON:API answers reveal nothing Bob may not read: not through filter, sort, include, fields, meta.total or errors. */

let s: TestSchema;
const handler = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadLeakSchema();
});

afterAll(async () => {
    await s.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Res = { status: number; body: any; text: string };

async function get(path: string, query: Record<string, string> = {}): Promise<Res> {
    const res = await handler({ method: 'GET', path, query, prisma: s.enhance(BOB), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}

function expectNoSecrets(res: Res): void {
    for (const secret of SECRETS) {
        expect(res.text).not.toContain(secret);
    }
}

const ids = (res: Res): unknown[] => res.body.data.map((r: { id: unknown }) => r.id);

describe('documents carry only what Bob may read', () => {
    it('lists users without others’ protected attributes and without any password', async () => {
        const res = await get('/user', { sort: 'id' });
        expect(res.status).toBe(200);
        expect(res.body.data.map((r: { attributes: unknown }) => r.attributes)).toEqual([{ name: 'alice' }, { name: 'bob', email: 'bob@x', salary: 50 }, { name: 'carol' }]);
        expectNoSecrets(res);
    });

    it('meta.total, included and related fetches count and show readable rows only', async () => {
        const posts = await get('/post');
        expect(posts.body.meta.total).toBe(2);
        const withAuthors = await get('/user', { include: 'posts' });
        expect(withAuthors.body.included.map((r: { id: unknown }) => r.id).sort()).toEqual([1, 3]);
        expectNoSecrets(withAuthors);
        const related = await get('/user/1/posts');
        expect(related.body.meta.total).toBe(1);
        expectNoSecrets(related);
        const relationship = await get('/user/3/relationships/posts');
        expect(relationship.body.data).toEqual([]);
        expect((await get('/post/2')).status).toBe(404);
        expect((await get('/user/1/posts/2')).status).toBe(404);
    });

    it('sparse fieldsets cannot ask for what is not readable', async () => {
        const res = await get('/user', { 'fields[user]': 'email,salary' });
        expectNoSecrets(res);
        const password = await get('/user', { 'fields[user]': 'password' });
        expect(password.status).toBe(400);
        expectNoSecrets(password);
    });
});

describe('filters cannot probe protected values', () => {
    it.each([
        [{ 'filter[email]': 'alice@x' }],
        [{ 'filter[email$startsWith]': 'a' }],
        [{ 'filter[email$contains]': 'carol' }],
        [{ 'filter[posts][author][email]': 'alice@x' }],
    ])('%j matches no row whose field Bob cannot read', async (query) => {
        const res = await get('/user', query);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.meta.total).toBe(0);
    });

    it('a deep filter through a to-one relation finds nothing of others', async () => {
        const res = await get('/post', { 'filter[author][email]': 'alice@x' });
        expect(res.body.data).toEqual([]);
    });

    it.each<[string, Record<string, string>]>([
        ['/user', { 'filter[password]': 'hash-alice' }],
        ['/user', { 'filter[password$startsWith]': 'hash-a' }],
        ['/post', { 'filter[author][password]': 'hash-alice' }],
    ])(
        'filtering %s by an @omit field (%j) is refused',
        async (path, query) => {
            const res = await get(path, query);
            expect(res.status).toBe(400);
            expect(res.body.errors[0].code).toBe('invalid-filter');
            expectNoSecrets(res);
        },
    );
});

describe('sorting cannot reveal the order of protected values', () => {
    it.each(['salary', '-salary', 'email', 'name,-email', 'password'])('sort=%s is refused', async (sort) => {
        const res = await get('/user', { sort });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].code).toBe('invalid-sort');
    });

    it('sort through a to-one relation on a protected field is refused', async () => {
        const res = await get('/post', { sort: 'author.salary' });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].code).toBe('invalid-sort');
    });

    it('sorting by readable fields still works', async () => {
        expect(ids(await get('/user', { sort: '-name' }))).toEqual([3, 2, 1]);
        expect(ids(await get('/post', { sort: 'author.name,-id' }))).toEqual([1, 3]);
    });
});

describe('errors reveal nothing', () => {
    it('an unknown id and an unreadable id look the same', async () => {
        const hidden = await get('/post/2');
        const missing = await get('/post/99');
        expect(hidden.status).toBe(404);
        expect(hidden.body.errors[0].code).toBe(missing.body.errors[0].code);
        expect(hidden.body.errors[0].title).toBe(missing.body.errors[0].title);
        expectNoSecrets(hidden);
    });

    it.each<[string, string, (id: string) => string, ((id: string) => unknown) | undefined]>([
        ['an update', 'PATCH', (id) => `/post/${id}`, (id) => ({ data: { type: 'post', id, attributes: { title: 'mine' } } })],
        ['an update without attributes (ZenStack checks no update rule)', 'PATCH', (id) => `/post/${id}`, (id) => ({ data: { type: 'post', id, attributes: {} } })],
        ['an update with no members at all', 'PUT', (id) => `/post/${id}`, (id) => ({ data: { type: 'post', id } })],
        ['a relationship update', 'PATCH', (id) => `/post/${id}/relationships/author`, () => ({ data: { type: 'user', id: '2' } })],
        ['a delete', 'DELETE', (id) => `/post/${id}`, undefined],
    ])('%s of an unreadable record answers as one of a missing record, and writes nothing', async (_name, method, path, body) => {
        const send = async (id: string) => {
            const res = await handler({ method, path: path(id), query: {}, requestBody: body?.(id), prisma: s.enhance(BOB), modelMeta: s.modelMeta, logger: null });
            // the detail names the id the request gave: the only difference allowed
            return { status: res.status, text: JSON.stringify(res.body).split(`post \\"${id}\\"`).join('post <id>') };
        };
        const before = await s.prisma.post.findUnique({ where: { id: 2 } });
        const hidden = await send('2');
        const missing = await send('99');
        expect(missing.status).toBe(404);
        expect(hidden).toEqual(missing);
        expect(await s.prisma.post.findUnique({ where: { id: 2 } })).toEqual(before);
    });

    it('a unique violation on create does not echo the other user’s value', async () => {
        const res = await handler({
            method: 'POST',
            path: '/user',
            requestBody: { data: { type: 'user', id: '9', attributes: { name: 'mallory', email: 'alice@x' } } },
            prisma: s.enhance(BOB),
            modelMeta: s.modelMeta,
            logger: null,
        });
        expect(res.status).toBe(409);
        expectNoSecrets({ status: res.status, body: res.body, text: JSON.stringify(res.body) });
    });
});

describe('an upsert cannot tell whether a guess of a protected value is right', () => {
    const upsert = (matchFields: string[], attributes: Record<string, unknown>) =>
        handler({
            method: 'POST',
            path: '/user',
            requestBody: { data: { type: 'user', id: '1', attributes: { name: 'alice', email: 'new@x', ...attributes } }, meta: { operation: 'upsert', matchFields } },
            prisma: s.enhance(BOB),
            modelMeta: s.modelMeta,
            logger: null,
        });

    it('a protected field beyond the unique constraint is refused the same way for the right and a wrong guess, nothing written', async () => {
        const before = await s.prisma.user.findMany({ orderBy: { id: 'asc' } });
        const right = await upsert(['id', 'salary'], { salary: 100 });
        const wrong = await upsert(['id', 'salary'], { salary: 101 });
        expect(right.status).toBe(400);
        expect(right.body).toMatchObject({ errors: [{ code: 'invalid-payload', source: { pointer: '/meta/matchFields/1' } }] });
        expect(wrong).toEqual(right);
        const byEmail = await upsert(['id', 'email'], { email: 'alice@x' });
        expect(byEmail.status).toBe(400);
        expect(await s.prisma.user.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
    });

    it('a protected unique field may still be the match (it names the record)', async () => {
        const res = await handler({
            method: 'POST',
            path: '/user',
            requestBody: { data: { type: 'user', id: '2', attributes: { name: 'bobby', email: 'bob@x' } }, meta: { operation: 'upsert', matchFields: ['email'] } },
            prisma: s.enhance(BOB),
            modelMeta: s.modelMeta,
            logger: null,
        });
        expect(res.status).toBe(201); // an upsert answers 201 either way, as in 2.x
        expect(await s.prisma.user.findUnique({ where: { id: 2 } })).toMatchObject({ name: 'bobby' });
    });
});

describe('@omit fields are write-only attributes (a sign-up sends the password, no document shows it)', () => {
    const write = async (method: string, path: string, requestBody: unknown): Promise<Res> => {
        const res = await handler({ method, path, requestBody, prisma: s.enhance(BOB), modelMeta: s.modelMeta, logger: null });
        return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
    };

    it('a create and an update may set one; the answer never carries it', async () => {
        const created = await write('POST', '/user', { data: { type: 'user', id: '20', attributes: { name: 'dave', email: 'dave@x', password: 'hash-dave' } } });
        expect(created.status).toBe(201);
        expect(created.text).not.toContain('hash-dave');
        expect(await s.prisma.user.findUnique({ where: { id: 20 } })).toMatchObject({ password: 'hash-dave' });

        const updated = await write('PATCH', '/user/2', { data: { type: 'user', id: '2', attributes: { password: 'hash-bob-2' } } });
        expect(updated.status).toBe(200);
        expect(Object.keys(updated.body.data.attributes).sort()).toEqual(['email', 'name', 'salary']);
        expect(await s.prisma.user.findUnique({ where: { id: 2 } })).toMatchObject({ password: 'hash-bob-2' });
    });

    it('its value is checked like any attribute, and only its own model has it', async () => {
        const wrongType = await write('POST', '/user', { data: { type: 'user', id: '21', attributes: { name: 'erin', email: 'erin@x', password: 42 } } });
        expect(wrongType.status).toBe(400);
        expect(wrongType.body.errors[0].source).toEqual({ pointer: '/data/attributes/password' });
        expect(await s.prisma.user.findUnique({ where: { id: 21 } })).toBeNull();

        const posts = await write('PATCH', '/post/3', { data: { type: 'post', id: '3', attributes: { password: 'x' } } });
        expect(posts.status).toBe(400);
    });
});
