import Decimal from 'decimal.js';
import { ALICE, AT } from '../client/support/seed';
import { encodeBody, encodeQuery, seededBlogEach } from './support';

/**
 * Typed values (a Date, a Buffer, a Decimal, the client's null markers) arrive through the serialization metadata
 * and are decoded into class instances before the handler walks the arguments. They are values, not argument
 * objects: a walk that took a Date for the empty filter `{}` dropped `createdAt: <Date>`, so a `deleteMany` that
 * should have matched nothing deleted every row the user may delete. The arguments here are encoded the way
 * ZenStack's hooks encode them (superjson), and every answer is checked against the database afterwards.
 */

const ELSEWHEN = new Date('2000-01-01T00:00:00.000Z');

const blog = seededBlogEach({ id: ALICE });

const ids = (rows: Array<{ id: unknown }>) => rows.map((r) => r.id);
const postCount = () => blog.s.prisma.post.count();
const postTitles = async () => (await blog.s.prisma.post.findMany({ orderBy: { id: 'asc' } })).map((p: { title: string }) => p.title);

describe('a Date in a filter is a condition', () => {
    it('findMany matches on it, both ways', async () => {
        const none = await blog.rpc('GET', '/post/findMany', encodeQuery({ where: { createdAt: ELSEWHEN }, select: { id: true } }));
        expect(none.status).toBe(200);
        expect(none.body.data).toEqual([]);
        const same = await blog.rpc('GET', '/post/findMany', encodeQuery({ where: { createdAt: AT }, select: { id: true }, orderBy: { id: 'asc' } }));
        expect(ids(same.body.data)).toEqual([1, 2]);
    });

    it('deleteMany and updateMany touch no row it does not match', async () => {
        const before = await postTitles();
        const del = await blog.rpc('DELETE', '/post/deleteMany', encodeQuery({ where: { createdAt: ELSEWHEN } }));
        expect(del.status).toBe(200);
        expect(del.body.data).toEqual({ count: 0 });
        const upd = await blog.rpc('PATCH', '/post/updateMany', { body: encodeBody({ where: { createdAt: ELSEWHEN }, data: { title: 'changed' } }) });
        expect(upd.status).toBe(200);
        expect(upd.body.data).toEqual({ count: 0 });
        expect(await postTitles()).toEqual(before);
        expect(await postCount()).toBe(3);
    });

    it('under NOT, OR, a relation filter and a nested read', async () => {
        const not = await blog.rpc('GET', '/post/findMany', encodeQuery({ where: { NOT: { createdAt: AT } }, select: { id: true } }));
        expect(not.body.data).toEqual([]);
        const or = await blog.rpc('GET', '/post/findMany', encodeQuery({ where: { OR: [{ createdAt: AT }] }, select: { id: true }, orderBy: { id: 'asc' } }));
        expect(ids(or.body.data)).toEqual([1, 2]);
        const rel = await blog.rpc('GET', '/user/findMany', encodeQuery({ where: { posts: { some: { createdAt: ELSEWHEN } } }, select: { id: true } }));
        expect(rel.body.data).toEqual([]);
        const nested = await blog.rpc('GET', '/user/findUnique', encodeQuery({ where: { id: ALICE }, select: { posts: { where: { createdAt: ELSEWHEN }, select: { id: true } } } }));
        expect(nested.body.data).toEqual({ posts: [] });
    });

    it('in a nested write filter', async () => {
        const res = await blog.rpc('PUT', '/user/update', { body: encodeBody({ where: { id: ALICE }, data: { posts: { deleteMany: { createdAt: ELSEWHEN } } }, select: { id: true } }) });
        expect(res.status).toBe(200);
        expect(await postCount()).toBe(3);
    });
});

describe('other typed values in a filter', () => {
    it('an empty Buffer is a condition on a Bytes field', async () => {
        const none = await blog.rpc('GET', '/allTypes/findMany', encodeQuery({ where: { bytes: Buffer.alloc(0) }, select: { id: true } }));
        expect(none.status).toBe(200);
        expect(none.body.data).toEqual([]);
        const same = await blog.rpc('GET', '/allTypes/findMany', encodeQuery({ where: { bytes: Buffer.from([1, 2, 3]) }, select: { id: true } }));
        expect(ids(same.body.data)).toEqual(['typed']);
    });

    it('a DbNull marker on a non-Json field is refused, and nothing is deleted', async () => {
        const res = await blog.rpc('DELETE', '/post/deleteMany', {
            q: { where: { title: null } },
            meta: { serialization: { values: { 'where.title': [['custom', 'DbNull']] } } },
        });
        expect(res.status).toBe(400);
        expect(await postCount()).toBe(3);
    });
});

describe('a typed value where the arguments need an object', () => {
    it('a Date as `where` (or as an AND member) is a 400, and nothing is deleted', async () => {
        for (const where of [ELSEWHEN, { AND: ELSEWHEN }]) {
            const res = await blog.rpc('DELETE', '/post/deleteMany', encodeQuery({ where }));
            expect(res.status).toBe(400);
            expect(res.body.error.message).toMatch(/"where(\.AND)?" must be an object/);
        }
        expect(await postCount()).toBe(3);
    });

    it('Bytes as `data` or `create` is a 400, not a 500', async () => {
        const bytes = Buffer.from([1, 2, 3]);
        const calls: Array<[string, string, Record<string, unknown>]> = [
            ['POST', '/post/create', { data: bytes }],
            ['POST', '/post/createMany', { data: bytes }],
            ['POST', '/post/upsert', { where: { id: 99 }, create: bytes, update: {} }],
        ];
        for (const [method, path, args] of calls) {
            const res = await blog.rpc(method, path, { body: encodeBody(args) });
            expect([path, res.status]).toEqual([path, 400]);
        }
        expect(await postCount()).toBe(3);
    });
});

describe('a Decimal given for an integer field', () => {
    it('a fraction is a 400 on an Int key, and no record is deleted', async () => {
        const res = await blog.rpc('DELETE', '/post/delete', encodeQuery({ where: { id: new Decimal('2.7') }, select: { id: true } }));
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain('"where.id" must be an integer');
        expect(await postCount()).toBe(3);
    });

    it('a whole Decimal still names its record', async () => {
        const res = await blog.rpc('GET', '/post/findUnique', encodeQuery({ where: { id: new Decimal(2) }, select: { id: true } }));
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ id: 2 });
    });

    it('a fraction or a value past 64 bits is a 400 on a BigInt field', async () => {
        for (const value of [new Decimal('1.5'), new Decimal('1e30')]) {
            const res = await blog.rpc('GET', '/allTypes/findMany', encodeQuery({ where: { bigInt: value }, select: { id: true } }));
            expect(res.status).toBe(400);
            expect(res.body.error.message).toContain('"where.bigInt" must be a 64-bit integer');
        }
    });
});
