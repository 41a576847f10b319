import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller, type RpcCaller } from './support';

/**
 * Filters and write payloads that are not objects where Prisma requires objects, sent without zod
 * schemas (validation off): a 400 naming the place, and nothing written. ZenStack's policy layer
 * crashed on some of them (a 500) and silently dropped others: `deleteMany` with `where: 5` deleted
 * every row the user may delete.
 */

let s: TestSchema;
let call: RpcCaller;

const snapshot = async () => ({
    posts: await s.prisma.post.findMany({ orderBy: { id: 'asc' }, select: { id: true, title: true, authorId: true } }),
    comments: await s.prisma.comment.count(),
    profiles: await s.prisma.profile.count(),
});

beforeEach(async () => {
    s = await loadSchema();
    await s.prisma.user.create({
        data: { id: 1, email: 'u1@x', posts: { create: [{ id: 1, title: 'one', published: true, comments: { create: [{ content: 'c' }] } }, { id: 2, title: 'two' }] } },
    });
    call = rpcCaller(s, { user: { id: 1 } });
});

afterEach(async () => {
    await s.cleanup();
});

describe('malformed filters and payloads without zod', () => {
    it.each<[string, string, string, Record<string, unknown>, RegExp]>([
        ['deleteMany with a number as where', 'DELETE', '/post/deleteMany', { q: { where: 5 } }, /"where" must be an object/],
        ['deleteMany with true as where', 'DELETE', '/post/deleteMany', { q: { where: true } }, /"where" must be an object/],
        ['updateMany with a list as where', 'PATCH', '/post/updateMany', { body: { where: [], data: { title: 'all' } } }, /"where" must be an object/],
        ['updateMany with 0 as where', 'PUT', '/post/updateMany', { body: { where: 0, data: { title: 'all' } } }, /"where" must be an object/],
        ['a number as a to-one relation filter', 'GET', '/post/findMany', { q: { where: { author: 5 } } }, /"where.author" must be a relation filter/],
        ['null as a to-many relation filter', 'GET', '/user/findMany', { q: { where: { posts: null } } }, /"where.posts" must be a relation filter/],
        ['a string under some', 'GET', '/user/findMany', { q: { where: { posts: { some: 'x' } } } }, /"where.posts.some" must be an object/],
        ['null inside OR', 'DELETE', '/post/deleteMany', { q: { where: { OR: [{ id: 1 }, null] } } }, /"where.OR.1" must be an object/],
        ['a number as a nested read filter', 'GET', '/user/findMany', { q: { include: { posts: { where: 3 } } } }, /"include.posts.where" must be an object/],
        ['a null row in createMany', 'POST', '/post/createMany', { body: { data: [{ title: 'x', authorId: 1 }, null] } }, /"data.1" must be an object/],
        ['a number as create data', 'POST', '/post/create', { body: { data: 7 } }, /"data" must be an object/],
        ['a null nested update', 'PATCH', '/post/update', { body: { where: { id: 1 }, data: { title: 'changed', comments: { update: [null] } } } }, /"data.comments.update.0" must be an object/],
        ['a string as nested writes', 'PATCH', '/post/update', { body: { where: { id: 1 }, data: { title: 'changed', comments: 'delete all' } } }, /"data.comments" must be an object of nested writes/],
        ['a null upsert update', 'PATCH', '/user/update', { body: { where: { id: 1 }, data: { profile: { upsert: { create: { gender: 'x' }, update: null } } } } }, /"data.profile.upsert.update" must be an object/],
        ['a number as deleteMany of a relation', 'PATCH', '/user/update', { body: { where: { id: 1 }, data: { posts: { deleteMany: 1 } } } }, /"data.posts.deleteMany" must be an object or a list/],
        ['null as upsert update', 'POST', '/post/upsert', { body: { where: { id: 1 }, create: { title: 'n', authorId: 1 }, update: null } }, /"update" must be an object/],
    ])('%s is a 400 and changes nothing', async (_name, method, path, input, message) => {
        const before = await snapshot();
        const res = await call(method, path, input);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(message);
        expect(await snapshot()).toEqual(before);
    });

    it('an empty key in an argument object is a 400 (Prisma crashed on it: a 500), except inside Json values', async () => {
        const before = await snapshot();
        for (const [method, path, input] of [
            ['GET', '/post/findMany', { q: { where: { '': 1 } } }],
            ['GET', '/post/findMany', { q: { where: { author: { '': 1 } } } }],
            ['GET', '/post/findMany', { q: { where: { title: { not: { '': 'x' } } } } }],
            ['GET', '/allTypes/findMany', { q: { where: { json: { '': false } } } }],
            ['GET', '/post/findMany', { q: { orderBy: { '': 'asc' } } }],
            ['GET', '/post/findMany', { q: { include: { comments: { where: { '': 1 } } } } }],
            ['GET', '/post/count', { q: { select: { '': true } } }],
            ['GET', '/post/groupBy', { q: { by: ['title'], having: { '': 1 } } }],
            ['PATCH', '/post/update', { body: { where: { id: 1 }, data: { '': 1 } } }],
            ['PATCH', '/post/update', { body: { where: { id: 1 }, data: { comments: { '': [] } } } }],
            ['PATCH', '/post/update', { body: { where: { id: 1 }, data: { viewCount: { '': 1 } } } }],
        ] as const) {
            const res = await call(method, path, input);
            expect({ path, input, status: res.status }).toEqual({ path, input, status: 400 });
            expect(res.body.error.message).toMatch(/must be free of empty keys/);
        }
        expect(await snapshot()).toEqual(before);
        // Json values may hold one
        const created = await call('POST', '/allTypes/create', { body: { data: { id: 'j', string: 's', json: { '': [1] } } } });
        expect(created.status).toBe(201);
        const found = await call('GET', '/allTypes/findMany', { q: { where: { json: { equals: { '': [1] } } }, select: { id: true } } });
        expect([found.status, found.body.data]).toEqual([200, [{ id: 'j' }]]);
    });

    it('_min and _max of a Bytes field are a 400 (the data layer cannot read them back), _count works', async () => {
        await s.prisma.allTypes.create({ data: { id: 'a', string: 's', bytes: Buffer.from([1, 2]) } });
        for (const [path, q] of [
            ['/allTypes/aggregate', { _max: { bytes: true } }],
            ['/allTypes/aggregate', { _min: { string: true, bytes: true } }],
            ['/allTypes/groupBy', { by: ['string'], _max: { bytes: true } }],
        ] as const) {
            const res = await call('GET', path, { q });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toMatch(/cannot compute _m(in|ax) of a Bytes field/);
        }
        const count = await call('GET', '/allTypes/aggregate', { q: { _count: { bytes: true }, _max: { string: true } } });
        expect([count.status, count.body.data]).toEqual([200, { _count: { bytes: 1 }, _max: { string: 's' } }]);
    });

    it('a DELETE with its arguments in the body is refused, not run without them', async () => {
        const before = await snapshot();
        for (const body of [{ where: { id: 2 } }, JSON.stringify({ where: { id: 2 } }), Buffer.from('{"where":{"id":2}}')]) {
            const res = await call('DELETE', '/post/deleteMany', { body });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toMatch(/"q" query parameter, not in the request body/);
        }
        expect(await snapshot()).toEqual(before);
        // an empty body is no body: q is used as usual
        const res = await call('DELETE', '/post/deleteMany', { q: { where: { id: 2 } }, body: {} });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ count: 1 });
    });

    it('the forms Prisma accepts still pass', async () => {
        const found = async (q: unknown) => {
            const res = await call('GET', '/post/findMany', { q });
            expect(res.status).toBe(200);
            return res.body.data.map((p: { id: number }) => p.id);
        };
        expect(await found({ where: { author: null } })).toEqual([]);
        expect(await found({ where: { author: { is: null } } })).toEqual([]);
        expect(await found({ where: { author: { email: 'u1@x' } }, orderBy: { id: 'asc' } })).toEqual([1, 2]);
        expect(await found({ where: { NOT: { comments: { none: {} } } } })).toEqual([1]);
        expect(await found({ where: { AND: { id: 2 } } })).toEqual([2]);

        const update = await call('PATCH', '/user/update', {
            body: {
                where: { id: 1 },
                data: {
                    profile: { create: { gender: 'x' } },
                    posts: { update: [{ where: { id: 1 }, data: { title: 'one!' } }], updateMany: { where: { id: 2 }, data: { viewCount: 3 } } },
                },
                include: { posts: { where: { id: { in: [1, 2] } }, orderBy: { id: 'asc' } }, profile: true },
            },
        });
        expect(update.status).toBe(200);
        expect(update.body.data.posts.map((p: { title: string; viewCount: number }) => [p.title, p.viewCount])).toEqual([
            ['one!', 0],
            ['two', 3],
        ]);
        // a to-one update: the data itself, or { data }
        for (const profile of [{ update: { gender: 'y' } }, { update: { data: { gender: 'z' } } }, { upsert: { create: { gender: 'n' }, update: { gender: 'u' } } }]) {
            const res = await call('PATCH', '/user/update', { body: { where: { id: 1 }, data: { profile } } });
            expect(res.status).toBe(200);
        }
        expect((await s.prisma.profile.findFirst()).gender).toBe('u');
        const detach = await call('PATCH', '/post/update', { body: { where: { id: 2 }, data: { author: { disconnect: true } } } });
        expect(detach.status).toBe(403); // the post is then unreadable to its former author: written, not readable
        expect(detach.body.error.reason).toBe('RESULT_NOT_READABLE');
        expect((await s.prisma.post.findUnique({ where: { id: 2 } })).authorId).toBeNull();
    });
});
