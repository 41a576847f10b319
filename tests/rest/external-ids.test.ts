import { RestApiHandler, type RestApiHandlerOptions } from '../../src/api/rest';
import type { Response } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * `externalIdMapping` (a unique constraint instead of the `@id` identifies a model's resources) and
 * `urlSegmentCharset`, the two `@zenstackhq/server` 2.x REST options beyond the spec's.
 */

const ENDPOINT = 'http://localhost/api';
const url = (p: string) => `${ENDPOINT}${p}`;

const SCHEMA = `
model User {
  id       Int      @id
  email    String   @unique
  nickname String?  @unique
  name     String
  posts    Post[]
  seats    Seat[]
  @@allow('all', true)
}

model Post {
  id       Int    @id
  title    String
  author   User?  @relation(fields: [authorId], references: [id])
  authorId Int?
  @@allow('all', true)
}

model Seat {
  id     Int    @id
  row    String
  number Int
  holder User?  @relation(fields: [holderId], references: [id])
  holderId Int?
  @@unique([row, number])
  @@allow('all', true)
}
`;

type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('REST externalIdMapping', () => {
    let s: TestSchema;
    let call: (method: string, path: string, body?: unknown, query?: Record<string, string>) => Promise<{ status: number; body: Body }>;

    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.user.create({ data: { id: 1, email: 'alice@example.com', name: 'Alice' } });
        await s.prisma.user.create({ data: { id: 2, email: 'bob@example.com', name: 'Bob' } });
        await s.prisma.post.create({ data: { id: 10, title: 'Hello', authorId: 1 } });
        await s.prisma.post.create({ data: { id: 11, title: 'Orphan' } });
        await s.prisma.seat.create({ data: { id: 100, row: 'A', number: 1, holderId: 2 } });
        const handle = RestApiHandler({ endpoint: ENDPOINT, externalIdMapping: { User: 'email', seat: 'row_number' } });
        call = async (method, path, body, query = {}) => {
            const res: Response = await handle({ method, path, query, requestBody: body, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });
            return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)) };
        };
    });
    afterAll(() => s.cleanup());

    it('identifies a mapped resource by its unique field, with the @id as an attribute', async () => {
        const res = await call('GET', '/user/alice%40example.com');
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({
            type: 'user',
            id: 'alice@example.com',
            attributes: { id: 1, nickname: null, name: 'Alice' },
            relationships: {
                posts: { links: { self: url('/user/alice%40example.com/relationships/posts'), related: url('/user/alice%40example.com/posts') } },
                seats: { links: { self: url('/user/alice%40example.com/relationships/seats'), related: url('/user/alice%40example.com/seats') } },
            },
            links: { self: url('/user/alice%40example.com') },
        });
        expect((await call('GET', '/user/1')).status).toBe(404);
    });

    it('lists mapped resources by external id, ordered by it', async () => {
        const res = await call('GET', '/user');
        expect(res.status).toBe(200);
        expect(res.body.data.map((r: Body) => r.id)).toEqual(['alice@example.com', 'bob@example.com']);
        expect(res.body.meta.total).toBe(2);
    });

    it('links an unmapped resource to a mapped one by the external id (not the foreign key)', async () => {
        const res = await call('GET', '/post/10', undefined, { include: 'author' });
        expect(res.status).toBe(200);
        expect(res.body.data.relationships.author.data).toEqual({ type: 'user', id: 'alice@example.com' });
        expect(res.body.data.attributes.authorId).toBe(1);
        expect(res.body.included.map((r: Body) => [r.type, r.id])).toEqual([['user', 'alice@example.com']]);

        const plain = await call('GET', '/post');
        expect(plain.body.data.map((r: Body) => r.relationships.author.data)).toEqual([{ type: 'user', id: 'alice@example.com' }, null]);
    });

    it('serves related resources and relationships of mapped resources', async () => {
        const related = await call('GET', '/user/alice%40example.com/posts');
        expect(related.status).toBe(200);
        expect(related.body.data.map((r: Body) => r.id)).toEqual([10]);

        const relationship = await call('GET', '/post/10/relationships/author');
        expect(relationship.status).toBe(200);
        expect(relationship.body.data).toEqual({ type: 'user', id: 'alice@example.com' });

        const byId = await call('GET', '/user/alice%40example.com/posts/10');
        expect(byId.status).toBe(200);
        expect(byId.body.data.id).toBe(10);
    });

    it('filters by a relationship with the external id', async () => {
        const res = await call('GET', '/post', undefined, { 'filter[author]': 'alice@example.com' });
        expect(res.status).toBe(200);
        expect(res.body.data.map((r: Body) => r.id)).toEqual([10]);
        const none = await call('GET', '/post', undefined, { 'filter[author]': '1' });
        expect(none.body.data).toEqual([]);
    });

    it('maps a compound unique constraint, joined with the id divider', async () => {
        const res = await call('GET', '/seat/A_1', undefined, { include: 'holder' });
        expect(res.status).toBe(200);
        expect(res.body.data.id).toBe('A_1');
        expect(res.body.data.attributes).toEqual({ id: 100, row: 'A', number: 1, holderId: 2 });
        expect(res.body.data.relationships.holder.data).toEqual({ type: 'user', id: 'bob@example.com' });
        const seats = await call('GET', '/user/bob%40example.com/relationships/seats');
        expect(seats.body.data).toEqual([{ type: 'seat', id: 'A_1' }]);
        expect((await call('GET', '/seat/A_2')).status).toBe(404);
        expect((await call('GET', '/seat/A')).status).toBe(400);
    });

    it('creates with the external id as data.id and connects relationships by external id', async () => {
        const created = await call('POST', '/user', { data: { type: 'user', id: 'carol@example.com', attributes: { id: 3, name: 'Carol' } } });
        expect(created.status).toBe(201);
        expect(created.body.data.id).toBe('carol@example.com');
        expect(created.body.links.self).toBe(url('/user/carol%40example.com'));

        const post = await call('POST', '/post', {
            data: { type: 'post', id: 12, attributes: { title: 'By Carol' }, relationships: { author: { data: { type: 'user', id: 'carol@example.com' } } } },
        });
        expect(post.status).toBe(201);
        expect(post.body.data.relationships.author.data).toEqual({ type: 'user', id: 'carol@example.com' });
        expect(await s.prisma.post.findUnique({ where: { id: 12 } })).toMatchObject({ authorId: 3 });
    });

    it('updates a mapped resource addressed by its external id; the external id is not an attribute', async () => {
        const updated = await call('PATCH', '/user/bob%40example.com', { data: { type: 'user', id: 'bob@example.com', attributes: { name: 'Robert' } } });
        expect(updated.status).toBe(200);
        expect(updated.body.data.attributes.name).toBe('Robert');

        const moved = await call('PATCH', '/user/bob%40example.com', { data: { type: 'user', attributes: { email: 'x@example.com' } } });
        expect([moved.status, moved.body.errors[0].code, moved.body.errors[0].source]).toEqual([409, 'id-conflict', { pointer: '/data/attributes/email' }]);
        expect(await s.prisma.user.findUnique({ where: { id: 2 } })).toMatchObject({ email: 'bob@example.com', name: 'Robert' });
    });

    it('refuses a foreign key sent next to a relationship that names its target by another field', async () => {
        const res = await call('POST', '/post', {
            data: { type: 'post', id: 13, attributes: { title: 'Both', authorId: 1 }, relationships: { author: { data: { type: 'user', id: 'alice@example.com' } } } },
        });
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toMatchObject({ code: 'invalid-payload', source: { pointer: '/data/attributes/authorId' } });
        expect(await s.prisma.post.findUnique({ where: { id: 13 } })).toBeNull();
    });

    it('replaces a to-one relationship with an identifier carrying the external id', async () => {
        const res = await call('PATCH', '/post/11/relationships/author', { data: { type: 'user', id: 'bob@example.com' } });
        expect(res.status).toBe(200);
        expect(await s.prisma.post.findUnique({ where: { id: 11 } })).toMatchObject({ authorId: 2 });
        const wrong = await call('PATCH', '/post/11/relationships/author', { data: { type: 'user', id: 'nobody@example.com' } });
        expect(wrong.status).toBe(404);
        expect(await s.prisma.post.findUnique({ where: { id: 11 } })).toMatchObject({ authorId: 2 });
    });
});

describe('REST externalIdMapping configuration errors', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
    });
    afterAll(() => s.cleanup());

    async function requests(options: Partial<RestApiHandlerOptions>, paths: string[]): Promise<{ statuses: number[]; logged: string[] }> {
        const logged: string[] = [];
        const handle = RestApiHandler({ endpoint: ENDPOINT, ...options });
        const statuses: number[] = [];
        for (const path of paths) {
            const res = await handle({ method: 'GET', path, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: { error: (m: string) => logged.push(m) } });
            statuses.push(res.status);
        }
        return { statuses, logged };
    }

    it.each([
        [{ User: 'name' }, /model User, which has no such unique constraint \(it has: id, email, nickname\)/],
        [{ User: 'nickname' }, /field "nickname" of model User is optional/],
        [{ Usr: 'email' }, /externalIdMapping names model "Usr", which the schema does not have/],
    ])('%j is refused with a clear message, on every request to every model', async (externalIdMapping, message) => {
        const { statuses, logged } = await requests({ externalIdMapping }, ['/user', '/post', '/user']);
        expect(statuses).toEqual([500, 500, 500]);
        expect(logged).toHaveLength(3);
        for (const line of logged) expect(line).toMatch(message);
    });

    it.each([[{ externalIdMapping: [] }], [{ externalIdMapping: { User: 1 } }], [{ externalIdMapping: { User: '' } }]])('%j is refused at creation', (options) => {
        expect(() => RestApiHandler({ endpoint: ENDPOINT, ...(options as object) })).toThrow(/"externalIdMapping/);
    });
});

describe('REST urlSegmentCharset', () => {
    let s: TestSchema;
    beforeAll(async () => {
        s = await loadSchema(SCHEMA);
        await s.prisma.user.create({ data: { id: 1, email: 'a.b', name: 'A' } });
    });
    afterAll(() => s.cleanup());

    const get = (options: Partial<RestApiHandlerOptions>, path: string) =>
        RestApiHandler({ endpoint: ENDPOINT, externalIdMapping: { User: 'email' }, ...options })({ method: 'GET', path, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });

    it('accepts every percent-encoded segment when not given', async () => {
        expect((await get({}, '/user/a.b')).status).toBe(200);
    });

    it('answers 400 invalid-path for a segment outside the given charset', async () => {
        const res = await get({ urlSegmentCharset: 'a-zA-Z0-9-_~ %' }, '/user/a.b');
        expect(res.status).toBe(400);
        expect((res.body as Body).errors[0].code).toBe('invalid-path');
    });

    it('matches segments as sent, so percent-encoded characters pass when "%" is allowed', async () => {
        expect((await get({ urlSegmentCharset: 'a-zA-Z0-9-_~ %' }, '/user/a%2Eb')).status).toBe(200);
        expect((await get({ urlSegmentCharset: 'a-zA-Z0-9.' }, '/user/a.b')).status).toBe(200);
    });

    it('writes every link so that the same charset takes it: a character it refuses is percent-encoded (2.x wrote links it refused, zenstackhq/zenstack#2716)', async () => {
        const options = { urlSegmentCharset: 'a-zA-Z0-9-_~ %', externalIdMapping: { User: 'email', seat: 'row_number' } };
        await s.prisma.post.create({ data: { id: 5, title: 'by a.b', authorId: 1 } });
        await s.prisma.seat.create({ data: { id: 9, row: 'B.2', number: -3, holderId: 1 } });
        const links: string[] = [];
        const collect = (resource: Body) => {
            links.push(resource.links.self);
            for (const rel of Object.values(resource.relationships) as Body[]) links.push(rel.links.self, rel.links.related);
        };
        for (const path of ['/user/a%2Eb', '/post/5', '/seat/B%2E2_-3']) {
            const res = await get(options, path);
            expect(res.status).toBe(200);
            collect((res.body as Body).data);
            links.push((res.body as Body).links.self);
        }
        expect(links).toContain(url('/user/a%2Eb'));
        expect(links).toContain(url('/seat/B%2E2_-3'));
        // the author's id in the post's related link, and the seat's compound id, in every view
        for (const link of links) {
            const res = await get(options, link.slice(ENDPOINT.length));
            expect([link, res.status]).toEqual([link, 200]);
        }
        // where the charset refuses "%" too, nothing can be encoded: the link is as before
        expect(((await get({ urlSegmentCharset: 'a-zA-Z0-9.' }, '/user/a.b')).body as Body).data.links.self).toBe(url('/user/a.b'));
    });

    it.each([[''], ['z-a'], [5]])('%j is refused at creation', (urlSegmentCharset) => {
        expect(() => RestApiHandler({ endpoint: ENDPOINT, urlSegmentCharset: urlSegmentCharset as string })).toThrow(/"urlSegmentCharset"/);
    });
});
