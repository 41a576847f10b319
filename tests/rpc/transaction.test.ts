import { loadSchema, type TestSchema } from '../support/schema';
import { decodeData, rpcCaller, type RpcCaller } from './support';

/** POST /$transaction/sequential: all or nothing, through the request's enhanced client. */

let s: TestSchema;
let call: RpcCaller;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
    await s.prisma.user.create({ data: { id: 2, email: 'u2@x' } });
    call = rpcCaller(s, { user: { id: 1 } });
});

afterAll(async () => {
    await s.cleanup();
});

const tx = (body: unknown) => call('POST', '/$transaction/sequential', { body });

describe('$transaction/sequential', () => {
    it('runs the operations in order and answers every result', async () => {
        const res = await tx([
            { model: 'post', op: 'create', args: { data: { id: 100, title: 'tx-a', authorId: 1 } } },
            { model: 'Post', op: 'update', args: { where: { id: 100 }, data: { viewCount: 5 } } },
            { model: 'post', op: 'count', args: { where: { title: { startsWith: 'tx-' } } } },
            { model: 'allTypes', op: 'create', args: { data: { string: 'tx-typed', bigInt: '123' }, meta: { serialization: { values: { 'data.bigInt': ['bigint'] } } } } },
            { model: 'post', op: 'findMany', args: { where: { id: 100 } } },
        ]);
        expect(res.status).toBe(200);
        expect(res.body.data).toHaveLength(5);
        expect(res.body.data[0]).toMatchObject({ id: 100, title: 'tx-a' });
        expect(res.body.data[1]).toMatchObject({ id: 100, viewCount: 5 });
        expect(res.body.data[2]).toBe(1);
        // typed values are restored on the way in and tagged on the way out, with index paths
        expect(res.body.meta.serialization.values['3.bigInt']).toEqual(['bigint']);
        expect(res.body.meta.serialization.values['0.createdAt']).toEqual(['Date']);
        const decoded = decodeData(res.body);
        expect(decoded[3].bigInt).toBe(123n);
        expect(decoded[4][0].createdAt).toBeInstanceOf(Date);
        expect(await s.prisma.allTypes.count({ where: { string: 'tx-typed' } })).toBe(1);
    });

    it('rolls everything back when one operation fails, answering its error', async () => {
        const res = await tx([
            { model: 'post', op: 'create', args: { data: { title: 'rollback-1', authorId: 1 } } },
            { model: 'user', op: 'update', args: { where: { id: 1 }, data: { name: 'renamed-in-tx' } } },
            { model: 'post', op: 'create', args: { data: { title: 'rollback-2', authorId: 2 } } }, // denied: another author
            { model: 'post', op: 'create', args: { data: { title: 'rollback-3', authorId: 1 } } },
        ]);
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION', code: 'P2004', failedOperation: 2 });
        expect(await s.prisma.post.count({ where: { title: { startsWith: 'rollback-' } } })).toBe(0);
        expect((await s.prisma.user.findUnique({ where: { id: 1 } })).name).toBeNull();
    });

    it('rolls back on a data-layer error too (unique violation)', async () => {
        const res = await tx([
            { model: 'user', op: 'create', args: { data: { email: 'fresh@x' } } },
            { model: 'user', op: 'create', args: { data: { email: 'fresh@x' } } },
        ]);
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'P2002', failedOperation: 1 });
        expect(await s.prisma.user.count({ where: { email: 'fresh@x' } })).toBe(0);
    });

    it('validates every entry before running anything', async () => {
        const cases: [unknown, RegExp][] = [
            [[{ model: 'post', op: 'create', args: { data: { title: 'pre-1', authorId: 1 } } }, { model: 'nope', op: 'create', args: {} }], /#1: unknown model "nope"/],
            [[{ model: 'post', op: 'create', args: { data: { title: 'pre-1', authorId: 1 } } }, { model: 'post', op: 'explode' }], /#1: unknown operation "explode"/],
            [[{ model: 'post', op: 'create', args: { data: { title: 'pre-1', authorId: 1 } } }, { model: 'post', op: 'create' }], /missing arguments of operation #1/],
            [[{ model: 'post', op: 'create', args: { data: { title: 'pre-1', authorId: 1 } } }, { model: 'post', op: 'findMany', args: [] }], /#1.*must be a JSON object/],
            [[{ model: 'post', op: 'create', args: { data: { title: 'pre-1', authorId: 1 } }, extra: 1 }], /#0: unexpected member "extra"/],
            [[{ model: 'post', op: 'create', args: { data: { title: 'pre-1', authorId: 1 } } }, 'findMany'], /#1: must be an object/],
            [[{ model: 'constructor', op: 'findMany' }], /unknown model "constructor"/],
            [
                [
                    { model: 'post', op: 'create', args: { data: { title: 'pre-1', authorId: 1 } } },
                    { model: 'allTypes', op: 'create', args: { data: { bytes: '!' }, meta: { serialization: { values: { 'data.bytes': [['custom', 'Bytes']] } } } } },
                ],
                /#1: invalid Base64/,
            ],
            [[], /no operations/],
            [{ model: 'post', op: 'findMany' }, /array/],
        ];
        for (const [body, message] of cases) {
            const res = await tx(body);
            expect({ body, status: res.status }).toEqual({ body, status: 400 });
            expect(res.body.error.message).toMatch(message);
        }
        expect(await s.prisma.post.count({ where: { title: 'pre-1' } })).toBe(0);
    });

    it('only POST, only "sequential", and a bounded number of operations', async () => {
        expect((await call('GET', '/$transaction/sequential')).status).toBe(400);
        expect((await call('POST', '/$transaction/interactive', { body: [] })).body.error.message).toMatch(/only "sequential"/);
        expect((await call('POST', '/%24transaction/sequential', { body: [{ model: 'post', op: 'count' }] })).body).toEqual({ data: [expect.any(Number)] });
        const many = Array.from({ length: 101 }, () => ({ model: 'post', op: 'count' }));
        const res = await tx(many);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/too many operations/);
    });

    it('reads inside the transaction are filtered by the policy like any other read', async () => {
        await s.prisma.post.create({ data: { title: 'tx-hidden', authorId: 2, published: false } });
        const res = await tx([{ model: 'post', op: 'findMany', args: { where: { title: 'tx-hidden' } } }]);
        expect(res.body.data).toEqual([[]]);
    });
});
