import { RestApiHandler } from '../../src/api/rest';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * ZenStack 2.x leaves out a field's read rule when the field's condition is falsy (`false`, `0`, `''`,
 * `null`): `{ vip: false }` then lists everyone who is not a VIP, and so tells who is, and `{ phone: null }`
 * tells whose hidden phone is empty (2.x answers both). Both handlers send such conditions in a form the
 * policy guards. Bob (id 2) may read his own `vip`, `phone` and `salary`, no one else's.
 */

const SCHEMA = `
model User {
  id     Int     @id
  name   String
  email  String  @unique @allow('read', auth() == this)
  phone  String? @allow('read', auth() == this)
  vip    Boolean @default(false) @allow('read', auth() == this)
  salary Int     @default(0) @allow('read', auth() == this)
  posts  Post[]
  @@allow('all', true)
}

model Post {
  id        Int     @id
  title     String
  published Boolean @default(true)
  author    User    @relation(fields: [authorId], references: [id])
  authorId  Int
  @@allow('read', published || auth() == author)
  @@allow('create,update,delete', auth() == author)
}
`;

const BOB = { id: 2 };
let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    // Alice is a VIP with a phone and a salary; Carol, like Bob, is none of that, but Bob may not know it
    await s.prisma.user.create({ data: { id: 1, name: 'alice', email: 'alice@x', phone: '555', vip: true, salary: 100 } });
    await s.prisma.user.create({ data: { id: 2, name: 'bob', email: 'bob@x', salary: 50 } });
    await s.prisma.user.create({ data: { id: 3, name: 'carol', email: '', salary: 0 } });
    await s.prisma.post.createMany({
        data: [
            { id: 1, title: 'alice post', authorId: 1 },
            { id: 2, title: 'bob post', authorId: 2 },
            { id: 3, title: 'carol post', authorId: 3 },
        ],
    });
});

afterAll(async () => {
    await s.cleanup();
});

const rpc = (method: string, path: string, args: unknown) => rpcAs(s, BOB, method, path, args);
const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort();

describe('RPC', () => {
    it.each([
        ['false', '/user/findMany', { where: { vip: false } }, [2]],
        ['null', '/user/findMany', { where: { phone: null } }, [2]],
        ['0', '/user/findMany', { where: { salary: 0 } }, []],
        ["''", '/user/findMany', { where: { email: '' } }, []],
        ['through a to-one relation', '/post/findMany', { where: { author: { vip: false } } }, [2]],
        ['through is', '/post/findMany', { where: { author: { is: { phone: null } } } }, [2]],
        ['through some', '/user/findMany', { where: { posts: { some: { author: { salary: 0 } } } } }, []],
        ['in a negated relation filter, moved to the top', '/user/findMany', { where: { NOT: { posts: { none: { author: { vip: false } } } } } }, [2]],
        ['under AND in a to-one relation filter, moved up', '/post/findMany', { where: { author: { AND: [{ vip: false }] } } }, [2]],
        ['under AND inside some, moved up', '/user/findMany', { where: { posts: { some: { AND: { author: { salary: 0 } } } } } }, []],
    ])('a falsy condition on a protected field (%s) matches only rows whose field Bob may read', async (_name, path, args, expected) => {
        const res = await rpc('GET', path, { ...args, select: { id: true } });
        expect(res.status).toBe(200);
        expect(ids(res.body.data)).toEqual(expected);
    });

    it('in counts, aggregates and updateMany too', async () => {
        expect((await rpc('GET', '/user/count', { where: { vip: false } })).body.data).toBe(1);
        expect((await rpc('GET', '/user/aggregate', { where: { phone: null }, _count: true })).body.data).toEqual({ _count: 1 });
        expect((await rpc('GET', '/user/groupBy', { by: ['name'], where: { vip: false } })).body.data).toEqual([{ name: 'bob' }]);
        const updated = await rpc('PUT', '/user/updateMany', { where: { vip: false, salary: 0 }, data: { name: 'renamed' } });
        expect(updated.body.data).toEqual({ count: 0 });
        expect(await s.prisma.user.findUnique({ where: { id: 3 } })).toMatchObject({ name: 'carol' });
    });

    it('in the filters of nested reads and relation counts', async () => {
        const nested = await rpc('GET', '/post/findMany', {
            where: { id: 3 },
            select: { id: true, author: { select: { posts: { where: { author: { vip: false } }, select: { id: true } }, _count: { select: { posts: { where: { author: { salary: 0 } } } } } } } },
        });
        expect(nested.body.data).toEqual([{ id: 3, author: { posts: [], _count: { posts: 0 } } }]);
        const underAnd = await rpc('GET', '/post/findMany', {
            where: { id: 3 },
            select: { id: true, author: { select: { posts: { where: { AND: [{ author: { vip: false } }] }, select: { id: true } }, _count: { select: { posts: { where: { AND: { author: { salary: 0 } } } } } } } } },
        });
        expect(underAnd.body.data).toEqual([{ id: 3, author: { posts: [], _count: { posts: 0 } } }]);
    });

    it('Bob still finds himself by his own values', async () => {
        const res = await rpc('GET', '/user/findMany', { where: { vip: false, phone: null }, select: { id: true, vip: true, phone: true } });
        expect(res.body.data).toEqual([{ id: 2, vip: false, phone: null }]);
    });

    it('a findUnique by a protected unique field with an empty value is refused (that form cannot be guarded)', async () => {
        const res = await rpc('GET', '/user/findUnique', { where: { email: '' } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/"email" of User cannot be used/);
        expect((await rpc('GET', '/user/findUnique', { where: { email: 'bob@x' }, select: { id: true } })).body.data).toEqual({ id: 2 });
    });
});

describe('JSON:API', () => {
    const handler = RestApiHandler({ endpoint: 'http://localhost/api' });
    async function restIds(path: string, query: Record<string, string>): Promise<unknown[]> {
        const res = await handler({ method: 'GET', path, query, prisma: s.enhance(BOB), modelMeta: s.modelMeta, logger: null });
        expect(res.status).toBe(200);
        return (res.body as { data: { id: unknown }[] }).data.map((r) => r.id);
    }

    it('$isNull on a protected field matches only records whose field Bob may read', async () => {
        expect(await restIds('/user', { 'filter[phone$isNull]': 'true' })).toEqual([2]);
        expect(await restIds('/post', { 'filter[author][phone$isNull]': 'true' })).toEqual([2]);
        expect(await restIds('/user', { 'filter[phone$isNull]': 'false' })).toEqual([]);
    });
});
