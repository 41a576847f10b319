import vm from 'node:vm';
import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller, type RpcCaller } from './support';

/** Names and payloads meant to reach something other than a model operation. */

let s: TestSchema;
let call: RpcCaller;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ title: 'keep', published: true }] } } });
    call = rpcCaller(s, { user: { id: 1 } });
});

afterAll(async () => {
    await s.cleanup();
});

afterEach(() => {
    // nothing may have leaked onto shared prototypes
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

describe('model segment', () => {
    const names = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', '$queryRaw', '$queryRawUnsafe', '$executeRawUnsafe', '$connect', '_engine', '%5F%5Fproto%5F%5F', '%24queryRaw'];
    it.each(names)('/%s/… is an unknown model', async (name) => {
        for (const [method, op] of [
            ['GET', 'findMany'],
            ['POST', 'create'],
            ['GET', 'call'],
        ]) {
            const res = await call(method, `/${name}/${op}`, { q: { where: {} }, body: { data: {} } });
            expect(res.status).toBe(400);
            expect(res.body.error.message).toMatch(/unknown model/);
        }
    });

    it('raw SQL through a client method name never runs', async () => {
        const res = await call('POST', '/$executeRawUnsafe/create', { body: { data: 'DELETE FROM Post' } });
        expect(res.status).toBe(400);
        expect(await s.prisma.post.count({ where: { title: 'keep' } })).toBe(1);
    });
});

describe('operation segment', () => {
    const ops = ['constructor', '__proto__', 'toString', 'valueOf', 'findUniqueOrThrow', 'findFirstOrThrow', '$queryRaw', 'fields', '$parent', 'then'];
    it.each(ops)('/post/%s is an unknown operation', async (op) => {
        const res = await call('GET', `/post/${op}`);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/unknown operation/);
    });

    it('a malformed percent-encoding in the path is a 400', async () => {
        expect((await call('GET', '/post/%E0%A4%A')).status).toBe(400);
    });
});

describe('payloads', () => {
    it('refuses "__proto__" keys anywhere in a body, q or meta', async () => {
        const bodies = [
            '{"data":{"title":"p","authorId":1,"__proto__":{"polluted":true}}}',
            '{"data":{"title":"p","author":{"connect":{"__proto__":{"polluted":true},"id":1}}}}',
            '{"__proto__":{"polluted":true},"data":{"title":"p","authorId":1}}',
            '{"data":{"title":"p","authorId":1},"meta":{"serialization":{"values":{"__proto__":["Date"]}}}}',
        ];
        for (const text of bodies) {
            const res = await call('POST', '/post/create', { body: JSON.parse(text) });
            expect({ text, status: res.status }).toEqual({ text, status: 400 });
            expect(res.body.error.message).toMatch(/__proto__/);
        }
        const q = await call('GET', '/post/findMany', { q: '{"where":{"__proto__":{"polluted":true}}}' });
        expect(q.status).toBe(400);
        const meta = await call('GET', '/post/findMany', { q: '{}', meta: '{"serialization":{"values":{"x":["Date"]},"__proto__":{"polluted":true}}}' });
        expect(meta.status).toBe(400);
        expect(await s.prisma.post.count({ where: { title: 'p' } })).toBe(0);
    });

    it("keys named like Object.prototype's members are unknown arguments (400), not a crash", async () => {
        const names = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__');
        expect(names).toEqual(expect.arrayContaining(['constructor', 'toString', 'hasOwnProperty', 'valueOf']));
        const { id: postId } = await s.prisma.post.findFirstOrThrow({ where: { title: 'keep' } });
        for (const name of names) {
            for (const q of [{ where: { [name]: { equals: 1 } } }, { where: { author: { [name]: { equals: 1 } } } }, { where: { [name]: 1 } }, { orderBy: { [name]: 'asc' } }]) {
                const res = await call('GET', '/post/findMany', { q });
                expect({ q, status: res.status }).toEqual({ q, status: 400 });
            }
            const update = await call('PUT', '/user/update', { body: { where: { id: 1 }, data: { posts: { set: [{ [name]: 1 }] } } } });
            expect({ name, status: update.status }).toEqual({ name, status: 400 });
            // ZenStack looks the filters of writes up itself, before Prisma validates them
            for (const body of [
                { where: { id: 1, [name]: 1 }, data: {} },
                { where: { id: 1 }, data: { posts: { update: { where: { id: 1, [name]: 1 }, data: {} } } } },
                { where: { id: 1 }, data: { posts: { delete: { id: 1, [name]: 1 } } } },
            ]) {
                const res = await call('PUT', '/user/update', { body });
                expect({ body, status: res.status }).toEqual({ body, status: 400 });
            }
            const nested = await call('PUT', '/post/update', { body: { where: { id: postId }, data: { author: { update: { where: { [name]: 1 }, data: {} } } } } });
            expect({ name, status: nested.status }).toEqual({ name, status: 400 });
        }
        expect(await s.prisma.post.count({ where: { authorId: 1 } })).toBe(1);
    });

    it('takes an object literal made in another realm (a vm context) as a plain object', async () => {
        const body = vm.runInNewContext('({ data: { title: "other realm", author: { connect: { id: 1 } } } })');
        expect(Object.getPrototypeOf(body)).not.toBe(Object.prototype);
        const res = await call('POST', '/post/create', { body });
        expect(res.status).toBe(201);
        expect(res.body.data.title).toBe('other realm');
        // a class instance is still not one
        class Args {
            data = { title: 'instance', author: { connect: { id: 1 } } };
        }
        expect((await call('POST', '/post/create', { body: new Args() })).status).toBe(400);
        await s.prisma.post.deleteMany({ where: { title: 'other realm' } });
    });

    it('refuses serialization paths through prototypes', async () => {
        for (const path of ['data.constructor.prototype.polluted', 'data.__proto__.polluted', 'constructor']) {
            const res = await call('POST', '/post/create', { body: { data: { title: 'p', authorId: 1 }, meta: { serialization: { values: { [path]: ['Date'] } } } } });
            expect({ path, status: res.status }).toEqual({ path, status: 400 });
        }
    });

    it('refuses absurd nesting with a 400, not a crash', async () => {
        const deep = (n: number) => `${'{"AND":'.repeat(n)}{"id":1}${'}'.repeat(n)}`;
        const res = await call('GET', '/post/findMany', { q: `{"where":${deep(5000)}}` });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/nested too deeply/);
        const body = await call('PATCH', '/post/updateMany', { body: `{"where":${deep(5000)},"data":{"title":"deep"}}` });
        expect(body.status).toBe(400);
        // a reasonable depth still works
        expect((await call('GET', '/post/findMany', { q: `{"where":${deep(20)}}` })).status).toBe(200);
    });

    it('a body of bytes is parsed as JSON; a string is a value (a JSON string literal), never parsed a second time', async () => {
        const ok = await call('POST', '/post/create', { body: Buffer.from(JSON.stringify({ data: { title: 'from-bytes', authorId: 1 } })) });
        expect(ok.status).toBe(201);
        const before = await s.prisma.post.count();
        // what an adapter hands over for the body "{\"data\":…}": 2.x refuses it; it was run as the arguments inside
        const text = await call('POST', '/post/create', { body: JSON.stringify({ data: { title: 'from-string', authorId: 1 } }) });
        expect([text.status, text.body.error.message]).toEqual([400, 'invalid request body: must be a JSON object, not a string']);
        const tx = await call('POST', '/$transaction/sequential', { body: JSON.stringify([{ model: 'post', op: 'create', args: { data: { title: 'tx', authorId: 1 } } }]) });
        expect(tx.status).toBe(400);
        // bytes are parsed, by a transaction as by a single call (it refused them)
        const txBytes = await call('POST', '/$transaction/sequential', { body: Buffer.from(JSON.stringify([{ model: 'post', op: 'count', args: {} }])) });
        expect([txBytes.status, txBytes.body.data]).toEqual([200, [before]]);
        for (const body of [42, true, ['x'], 'null']) {
            const res = await call('POST', '/post/create', { body });
            expect({ body, status: res.status }).toEqual({ body, status: 400 });
        }
        expect(await s.prisma.post.count()).toBe(before);
    });
});

describe('a query a framework parsed itself', () => {
    it('q or meta that is not JSON text (qs turns q[where][id]=1 into an object) is a 400, not a crash', async () => {
        const handler = RPCApiHandler();
        const prisma = s.enhance({ id: 1 });
        const queries: Array<Record<string, unknown>> = [
            { q: { where: { id: '1' } } },
            { q: [{ where: {} }] },
            { q: 5 },
            { q: '{}', meta: { serialization: 'x' } },
            { q: '{}', meta: [{ serialization: {} }] },
        ];
        for (const query of queries) {
            const res = await handler({ method: 'GET', path: '/post/findMany', query: query as Record<string, string>, prisma, modelMeta: s.modelMeta, logger: null });
            expect({ query, status: res.status }).toEqual({ query, status: 400 });
            expect((res.body as { error: { message: string } }).error.message).toMatch(/^invalid "(q|meta)" query parameter: must be JSON text$/);
        }
        // the text form of the same request still works
        const ok = await handler({ method: 'GET', path: '/post/findMany', query: { q: '{"where":{"title":"keep"}}' }, prisma, modelMeta: s.modelMeta, logger: null });
        expect(ok.status).toBe(200);
        expect((ok.body as { data: unknown }).data).toEqual([expect.objectContaining({ title: 'keep' })]);
    });
});

describe('arguments an operation does not take', () => {
    // found by the fuzz suite: ZenStack's policy layer crashed (500) on these before Prisma could reject them
    it.each([
        ['DELETE', '/post/deleteMany', { q: { where: { id: 999 }, include: { author: true }, take: 1 } }],
        ['DELETE', '/post/delete', { q: { where: { id: 999 }, take: 1 } }],
        ['PATCH', '/post/updateMany', { body: { where: {}, data: { title: 'x' }, include: { author: true } } }],
        ['GET', '/post/count', { q: { include: { author: true } } }],
    ] as const)('%s %s answers 400 naming the argument, and writes nothing', async (method, path, input) => {
        const before = await s.prisma.post.findMany({ orderBy: { id: 'asc' } });
        const res = await call(method, path, input);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/unknown argument "(include|take)"/);
        expect(await s.prisma.post.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
    });
});

describe('select and include shaped as Prisma requires', () => {
    // found by the long fuzz run: ZenStack's policy layer crashed (500) on a null include entry
    it.each([
        [{ include: { author: null } }, /"include.author" must be true, false or an object/],
        [{ include: { z: null, y: false } }, /"include.z" must be true, false or an object/],
        [{ select: { id: true, author: 'yes' } }, /"select.author" must be true, false or an object/],
        [{ include: { author: { include: { posts: null } } } }, /"include.author.include.posts"/],
        [{ select: { _count: { select: { posts: null } } } }, /"select._count.select.posts"/],
        [{ include: 'author' }, /"include" must be an object/],
    ])('%j answers 400 naming the member', async (args, message) => {
        const res = await call('GET', '/post/findFirst', { q: args });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(message);
    });

    it('a top-level null select or include is not a crash', async () => {
        for (const args of [{ include: null }, { select: null }]) {
            const res = await call('GET', '/post/findFirst', { q: args });
            expect(res.status).toBeLessThan(500);
        }
    });

    it('a nested null select or include means none, as at the top level (as 2.x answers)', async () => {
        const res = await call('GET', '/post/findFirst', { q: { include: { comments: { select: null }, author: { include: null } } } });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ title: 'keep', comments: [], author: { id: 1 } });
    });

    it('valid nested shapes still work', async () => {
        const res = await call('GET', '/post/findFirst', { q: { include: { author: { include: { posts: true } }, _count: { select: { comments: true } } } } });
        expect(res.status).toBe(200);
        expect(res.body.data.author.posts.length).toBeGreaterThan(0);
    });
});
