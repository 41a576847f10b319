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
    allTypes: await s.prisma.allTypes.count(),
});

/** The call is a 400 whose message matches, and nothing in the database changed. */
async function expectRefused(method: string, path: string, input: Record<string, unknown>, message: RegExp): Promise<void> {
    const before = await snapshot();
    const res = await call(method, path, input);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    expect(await snapshot()).toEqual(before);
}

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
        ['a _count of a scalar field', 'GET', '/user/findFirst', { q: { include: { _count: { select: { email: true } } } } }, /"include._count.select.email" must be a to-many relation of User/],
        ['a _count of a model without to-many relations (ZenStack crashed: a 500)', 'GET', '/allTypes/findFirst', { q: { select: { id: true, _count: true } } }, /"select._count" must be absent: AllTypes has no to-many relation/],
        ['a _count with where but no select (ZenStack crashed: a 500)', 'GET', '/user/findMany', { q: { include: { _count: { where: {} } } } }, /"include._count.where" must be absent/],
        ['null as upsert update', 'POST', '/post/upsert', { body: { where: { id: 1 }, create: { title: 'n', authorId: 1 }, update: null } }, /"update" must be an object/],
    ])('%s is a 400 and changes nothing', (_name, method, path, input, message) => expectRefused(method, path, input, message));

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
        for (const body of [{ where: { id: 2 } }, Buffer.from('{"where":{"id":2}}')]) {
            const res = await call('DELETE', '/post/deleteMany', { body });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toMatch(/"q" query parameter, not in the request body/);
        }
        // a string is the value of a JSON string literal, not arguments
        const text = await call('DELETE', '/post/deleteMany', { body: JSON.stringify({ where: { id: 2 } }) });
        expect([text.status, text.body.error.message]).toEqual([400, 'invalid request body: must be a JSON object, not a string']);
        expect(await snapshot()).toEqual(before);
        // an empty body is no body: q is used as usual
        const res = await call('DELETE', '/post/deleteMany', { q: { where: { id: 2 } }, body: {} });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ count: 1 });
    });

    it('a DELETE body repeating the arguments of q and meta (as the SWR hooks send it) is accepted; one that differs is refused', async () => {
        await s.prisma.post.create({ data: { id: 3, title: 'three', authorId: 1, createdAt: new Date('2020-01-01T00:00:00.000Z') } });
        const where = { createdAt: { lt: '2021-01-01T00:00:00.000Z' } };
        const serialization = { values: { 'where.createdAt.lt': ['Date'] } };
        const meta = { serialization };
        // the same arguments, keys in another order, as a parsed body and as text
        for (const body of [{ meta, where }, Buffer.from(JSON.stringify({ where, meta }))]) {
            await expectRefused('DELETE', '/post/deleteMany', { q: { where: { ...where, extra: 1 } }, meta, body }, /a body may only repeat them/);
            await expectRefused('DELETE', '/post/deleteMany', { q: { where }, body }, /a body may only repeat them/);
            await expectRefused('DELETE', '/post/deleteMany', { q: { where }, meta, body: { where } }, /a body may only repeat them/);
        }
        const res = await call('DELETE', '/post/deleteMany', { q: { where }, meta, body: { meta, where } });
        expect([res.status, res.body.data]).toEqual([200, { count: 1 }]);
        const one = await call('DELETE', '/post/delete', { q: { where: { id: 2 }, select: { id: true } }, body: Buffer.from(JSON.stringify({ where: { id: 2 }, select: { id: true } })) });
        expect([one.status, one.body.data]).toEqual([200, { id: 2 }]);
        expect(await s.prisma.post.count()).toBe(1);
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
        expect(await found({ where: { NOT: { id: 2 }, author: { email: 'u1@x' } } })).toEqual([1]);
        expect(await found({ where: { AND: [{ comments: { some: {} } }] } })).toEqual([1]);
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

describe('numbers Prisma would silently change', () => {
    const WRAPS = 2 ** 32 + 1; // Prisma's query compiler reads skip/take modulo 2^32: this one as 1

    it.each<[string, string, string, Record<string, unknown>, RegExp]>([
        ['a fractional id in findUnique (found post 1)', 'GET', '/post/findUnique', { q: { where: { id: 1.2 } } }, /"where.id" must be an integer/],
        ['a fractional id in delete (deleted post 1)', 'DELETE', '/post/delete', { q: { where: { id: 1.5 } } }, /"where.id" must be an integer/],
        ['fractional ids in deleteMany (deleted posts 1 and 2)', 'DELETE', '/post/deleteMany', { q: { where: { id: { in: [1.5, 2.5] } } } }, /"where.id.in.0" must be an integer/],
        ['a fraction under not', 'DELETE', '/post/deleteMany', { q: { where: { viewCount: { not: { lt: 0.5 } } } } }, /"where.viewCount.not.lt" must be an integer/],
        ['a fractional Int in update data (stored 2)', 'PATCH', '/post/update', { body: { where: { id: 1 }, data: { viewCount: 2.5 } } }, /"data.viewCount" must be an integer/],
        ['a fractional increment', 'PATCH', '/post/update', { body: { where: { id: 1 }, data: { viewCount: { increment: 0.5 } } } }, /"data.viewCount.increment"/],
        ['a fractional Int in a nested create', 'PATCH', '/user/update', { body: { where: { id: 1 }, data: { posts: { create: { title: 'n', viewCount: 1.5 } } } } }, /"data.posts.create.viewCount"/],
        ['a fractional Int in a nested update filter', 'PATCH', '/user/update', { body: { where: { id: 1 }, data: { posts: { updateMany: { where: { id: 1.5 }, data: { title: 'x' } } } } } }, /"data.posts.updateMany.where.id"/],
        ['a fractional Int in createMany', 'POST', '/allTypes/createMany', { body: { data: [{ id: 'a', int: 1 }, { id: 'b', int: 7.9 }] } }, /"data.1.int"/],
        ['an Int beyond 2^53 (SQLite stored it, then the read-back failed: a 500 after the write)', 'POST', '/allTypes/create', { body: { data: { id: 'a', int: 2 ** 53 + 2 } } }, /"data.int" must be an integer within/],
        ['a BigInt beyond 64 bits (the data layer\'s 400 named nothing)', 'POST', '/allTypes/create', { body: { data: { id: 'a', bigInt: '9223372036854775808' }, meta: { serialization: { values: { 'data.bigInt': ['bigint'] } } } } }, /"data.bigInt" must be a 64-bit integer/],
        ['NaN for a Float (the client sent it as nothing: "Argument `float` is missing")', 'POST', '/allTypes/create', { body: { data: { id: 'a', float: 'NaN' }, meta: { serialization: { values: { 'data.float': ['number'] } } } } }, /"data.float" must be a finite number/],
        ['Infinity in a Float filter', 'GET', '/allTypes/findMany', { q: JSON.stringify({ where: { float: { lt: 'Infinity' } } }), meta: { serialization: { values: { 'where.float.lt': ['number'] } } } }, /"where.float.lt" must be a finite number/],
        ['a fractional cursor', 'GET', '/post/findMany', { q: { cursor: { id: 1.5 } } }, /"cursor.id" must be an integer/],
        ['a fractional groupBy condition', 'GET', '/post/groupBy', { q: { by: ['authorId'], having: { viewCount: { _sum: { gt: 0.5 } } } } }, /"having.viewCount._sum.gt"/],
        ['a fractional _count condition', 'GET', '/post/groupBy', { q: { by: ['authorId'], having: { OR: [{ title: { _count: { gte: 1.5 } } }] } } }, /"having.OR.0.title._count.gte"/],
        ['skip beyond 32 bits (skipped 1)', 'GET', '/post/findMany', { q: { skip: WRAPS } }, /"skip" must be an integer from 0 to 2147483647/],
        ['take beyond 32 bits (took 1)', 'GET', '/post/findMany', { q: { take: WRAPS } }, /"take" must be an integer from -2147483647 to 2147483647/],
        ['take of -2^32 (took none)', 'GET', '/post/findMany', { q: { take: -(2 ** 32) } }, /"take" must be an integer/],
        ['a fractional skip', 'GET', '/post/findMany', { q: { skip: 1.5 } }, /"skip" must be an integer/],
        ['a negative skip', 'GET', '/post/findMany', { q: { skip: -1 } }, /"skip" must be an integer from 0/],
        ['skip of a count (counted 1 of 2)', 'GET', '/post/count', { q: { skip: WRAPS } }, /"skip"/],
        ['take of an aggregate', 'GET', '/post/aggregate', { q: { take: 2.5, _count: true } }, /"take"/],
        ['take of a nested to-many read', 'GET', '/user/findMany', { q: { include: { posts: { take: WRAPS } } } }, /"include.posts.take"/],
        ['skip of a nested to-many read', 'GET', '/user/findMany', { q: { select: { posts: { skip: WRAPS } } } }, /"select.posts.skip"/],
        ['a cursor of a nested read', 'GET', '/user/findMany', { q: { include: { posts: { cursor: { id: 1.5 } } } } }, /"include.posts.cursor.id"/],
        ['skip/take of a write\'s nested read', 'PATCH', '/post/update', { body: { where: { id: 1 }, data: { title: 'x' }, include: { comments: { take: 2 ** 40 } } } }, /"include.comments.take"/],
    ])('%s is a 400 and changes nothing', (_name, method, path, input, message) => expectRefused(method, path, input, message));

    it('is the same with zod schemas, which let these numbers through', async () => {
        const zod = rpcCaller(s, { user: { id: 1 }, zod: true });
        const before = await snapshot();
        for (const [method, path, input] of [
            ['DELETE', '/post/delete', { q: { where: { id: 1.5 } } }],
            ['PATCH', '/post/update', { body: { where: { id: 1 }, data: { viewCount: 2.5 } } }],
            ['GET', '/post/findMany', { q: { skip: WRAPS } }],
        ] as const) {
            const res = await zod(method, path, input);
            expect({ path, status: res.status }).toEqual({ path, status: 400 });
            expect(res.body.error.message).toMatch(/must be an integer/);
        }
        expect(await snapshot()).toEqual(before);
    });

    it('checks the fields of a compound unique key', async () => {
        const t = await loadSchema(`
model Seat {
  row    Int
  number Int
  label  String
  @@id([row, number])
  @@allow('all', true)
}
`);
        try {
            await t.prisma.seat.create({ data: { row: 1, number: 2, label: 'a' } });
            const seats = rpcCaller(t);
            const res = await seats('DELETE', '/seat/delete', { q: { where: { row_number: { row: 1, number: 2.5 } } } });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toMatch(/"where.row_number.number" must be an integer/);
            expect(await t.prisma.seat.count()).toBe(1);
            const ok = await seats('DELETE', '/seat/delete', { q: { where: { row_number: { row: 1, number: 2 } } } });
            expect([ok.status, ok.body.data.label]).toEqual([200, 'a']);
        } finally {
            await t.cleanup();
        }
    });

    it('integers, negative takes, averages and Float values still pass', async () => {
        const ids = async (q: unknown) => {
            const res = await call('GET', '/post/findMany', { q });
            expect(res.status).toBe(200);
            return res.body.data.map((p: { id: number }) => p.id);
        };
        expect(await ids({ take: -1, orderBy: { id: 'asc' } })).toEqual([2]);
        expect(await ids({ skip: 1, take: 2147483647, orderBy: { id: 'asc' } })).toEqual([2]);
        expect(await ids({ where: { id: { in: [1, 2] }, viewCount: { gte: -0 } }, orderBy: { id: 'asc' } })).toEqual([1, 2]);
        expect(await ids({ cursor: { id: 2 } })).toEqual([2]);
        const grouped = await call('GET', '/post/groupBy', { q: { by: ['authorId'], having: { viewCount: { _avg: { gte: 0.5 } } } } });
        expect([grouped.status, grouped.body.data]).toEqual([200, []]);
        const created = await call('POST', '/allTypes/create', { body: { data: { id: 'f', float: 2.5, int: 3 } } });
        expect([created.status, created.body.data.float, created.body.data.int]).toEqual([201, 2.5, 3]);
    });
});

describe("arguments Prisma's query compiler panics on", () => {
    // A panic of Prisma 6's WebAssembly query compiler disconnects the whole client, and about 150 of them
    // corrupt its memory for good: every later query of the process failed ("memory access out of bounds").
    it.each<[string, string, Record<string, unknown>, RegExp]>([
        ['an empty having', '/post/groupBy', { by: ['authorId'], having: {} }, /"having" must be a condition with at least one field/],
        ['an empty field condition', '/post/groupBy', { by: ['authorId'], having: { title: {} } }, /"having.title" must be a condition with at least one operator/],
        ['an empty not', '/post/groupBy', { by: ['authorId'], having: { title: { not: {} } } }, /"having.title.not"/],
        ['an empty aggregate condition', '/post/groupBy', { by: ['authorId'], having: { viewCount: { _sum: {} } } }, /"having.viewCount._sum"/],
        ['an empty condition under AND', '/post/groupBy', { by: ['authorId'], having: { AND: [{ viewCount: { _count: {} } }] } }, /"having.AND.0.viewCount._count"/],
        ['a JSON comparison with a boolean (PostgreSQL)', '/allTypes/findMany', { where: { json: { lt: true } } }, /"where.json.lt" must be a string or a number/],
        ['a JSON comparison with an object (PostgreSQL)', '/allTypes/findMany', { where: { AND: [{ json: { path: ['a'], gte: { x: 1 } } }] } }, /"where.AND.0.json.gte"/],
    ])('%s is a 400', async (_name, path, q, message) => {
        const res = await call('GET', path, { q });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(message);
    });

    it('a flood of them leaves the service working', async () => {
        const statuses = new Set<number>();
        for (let i = 0; i < 200; i++) {
            statuses.add((await call('GET', '/post/groupBy', { q: { by: ['authorId'], having: i % 2 ? {} : { title: {} } } })).status);
        }
        // without the check: 503s, then "memory access out of bounds" for this and every later query
        const after = await call('GET', '/post/findMany', { q: { select: { id: true }, orderBy: { id: 'asc' } } });
        expect([after.status, after.body.data]).toEqual([200, [{ id: 1 }, { id: 2 }]]);
        expect([...statuses]).toEqual([400]);
    });

    it('non-empty conditions, empty logical groups and JSON comparisons with strings or numbers still pass', async () => {
        const grouped = await call('GET', '/post/groupBy', { q: { by: ['authorId'], having: { AND: [{}], title: { _count: { gte: 1 } } }, _count: true } });
        expect([grouped.status, grouped.body.data]).toEqual([200, [{ authorId: 1, _count: 2 }]]);
        const json = await call('GET', '/allTypes/findMany', { q: { where: { json: { equals: { a: [1] } } } } });
        expect([json.status, json.body.data]).toEqual([200, []]);
        // `_count: false` means no counts (ZenStack crashed on it: a 500), on a model with or without to-many relations
        for (const [path, q] of [
            ['/post/findFirst', { select: { id: true, _count: false } }],
            ['/user/findFirst', { include: { posts: { include: { _count: false } }, _count: false } }],
            ['/allTypes/findMany', { select: { id: true, _count: false } }],
        ] as const) {
            const res = await call('GET', path, { q });
            expect([path, res.status]).toEqual([path, 200]);
            expect(JSON.stringify(res.body.data)).not.toMatch(/_count/);
        }
        const counted = await call('GET', '/user/findMany', { q: { select: { id: true, _count: { select: { posts: { where: { published: true } } } } } } });
        expect([counted.status, counted.body.data]).toEqual([200, [{ id: 1, _count: { posts: 1 } }]]);
    });

    it('aggregate selections take true or false (ZenStack crashed on a null: a 500)', async () => {
        for (const [path, q] of [
            ['/post/groupBy', { by: ['authorId'], _min: { title: null } }],
            ['/post/aggregate', { _max: { viewCount: null } }],
            ['/post/aggregate', { _count: { _all: 'yes' } }],
        ] as const) {
            const res = await call('GET', path, { q });
            expect([path, res.status]).toEqual([path, 400]);
            expect(res.body.error.message).toMatch(/must be true or false/);
        }
        const ok = await call('GET', '/post/aggregate', { q: { _max: { viewCount: true }, _min: { viewCount: false, title: true }, _count: { _all: true } } });
        expect([ok.status, ok.body.data]).toEqual([200, { _max: { viewCount: 0 }, _min: { title: 'one' }, _count: { _all: 2 } }]);
    });

    it('an aggregate selection is an object, _count also true (a list holding null crashed the serializer: a 500)', async () => {
        for (const [path, q] of [
            ['/post/aggregate', { _count: [null] }],
            ['/post/aggregate', { _avg: [null] }],
            ['/post/aggregate', { _sum: true }],
            ['/post/groupBy', { by: ['authorId'], _max: [null] }],
            ['/post/groupBy', { by: ['authorId'], _min: 'title' }],
        ] as const) {
            const res = await call('GET', path, { q });
            expect([path, res.status]).toEqual([path, 400]);
            expect(res.body.error.message).toMatch(/must be an object of fields/);
        }
        const inTransaction = await call('POST', '/$transaction/sequential', { body: [{ model: 'post', op: 'aggregate', args: { _count: [null] } }] });
        expect(inTransaction.status).toBe(400);
        const counted = await call('GET', '/post/groupBy', { q: { by: ['authorId'], _count: true } });
        expect([counted.status, counted.body.data]).toEqual([200, [{ authorId: 1, _count: 2 }]]);
    });
});

describe('field lists longer than the model has fields', () => {
    // Prisma compares every row on every name listed: a 1 MiB `distinct` of one name repeated 116,000 times made the
    // server hold 1.2 GB. Post has 6 scalar fields; a longer list repeats one.
    const seven = ['title', 'title', 'id', 'title', 'published', 'title', 'viewCount'];

    it('distinct (top level and in nested reads) and groupBy by: a 400 naming the place', async () => {
        for (const [path, q, place] of [
            ['/post/findMany', { distinct: seven }, 'distinct'],
            ['/post/count', { distinct: seven }, 'distinct'],
            ['/user/findMany', { include: { posts: { distinct: seven } } }, 'include.posts.distinct'],
            ['/user/findMany', { select: { posts: { select: { id: true }, distinct: seven } } }, 'select.posts.distinct'],
            ['/post/groupBy', { by: seven, orderBy: { title: 'asc' } }, 'by'],
        ] as const) {
            const res = await call('GET', path, { q });
            expect([path, res.status]).toEqual([path, 400]);
            expect(res.body.error.message).toBe(`invalid arguments: "${place}" must be a list of at most 6 field names (the scalar fields of Post, each once)`);
        }
    });

    it('lists as long as the fields pass, repeated names included (as in 2.x)', async () => {
        const six = seven.slice(0, 6);
        const found = await call('GET', '/post/findMany', { q: { distinct: six, select: { id: true }, orderBy: { id: 'asc' } } });
        expect([found.status, found.body.data]).toEqual([200, [{ id: 1 }, { id: 2 }]]);
        const nested = await call('GET', '/user/findMany', { q: { select: { posts: { select: { id: true }, distinct: ['title', 'title'], orderBy: { id: 'asc' } } } } });
        expect([nested.status, nested.body.data]).toEqual([200, [{ posts: [{ id: 1 }, { id: 2 }] }]]);
        const grouped = await call('GET', '/post/groupBy', { q: { by: ['title', 'title'], orderBy: { title: 'asc' } } });
        expect([grouped.status, grouped.body.data]).toEqual([200, [{ title: 'one' }, { title: 'two' }]]);
    });
});
