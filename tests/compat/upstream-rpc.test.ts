import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api/rpc';
import { RPCApiHandler } from '../../src/api/rpc';
import type { TestSchema } from '../support/schema';
import { AT, seedBlog as seed } from '../client/support/seed';
import { bytesAsSpec, SILENT_LOGGER, twoSides, type Body } from './sides';

/**
 * Drop-in check against `@zenstackhq/server` 2.22.3: the same RPC requests, sent to its handler and
 * to ours on two identically seeded databases, get the same status and, when they succeed, the
 * same body to the byte (data and `meta.serialization`), so a client written for it reads ours
 * unchanged, except where the spec says otherwise (Bytes as Base64, upsert answered 200). Failures
 * are compared by status and by the flags clients act on (error messages differ: 2.22.3 puts the
 * ORM's whole message, source excerpt included, in its answers; ours does not).
 */

type Call = { method: string; path: string; q?: unknown; meta?: unknown; rawQuery?: Record<string, string>; body?: unknown; user?: number; zod?: boolean };

describe('RPC answers as @zenstackhq/server 2.22.3 answers', () => {
    const sides = twoSides(RPCApiHandler(), UpstreamRPCApiHandler(), seed);

    async function both(call: Call): Promise<[{ status: number; body: Body }, { status: number; body: Body }]> {
        const answers = [];
        for (const side of sides) {
            const s = side.s as TestSchema;
            const query: Record<string, string> = { ...call.rawQuery };
            if (call.q !== undefined) query.q = JSON.stringify(call.q);
            if (call.meta !== undefined) query.meta = JSON.stringify(call.meta);
            const res = await side.handler({
                method: call.method,
                path: call.path,
                query,
                requestBody: call.body,
                prisma: s.enhance(call.user === undefined ? undefined : { id: call.user }),
                modelMeta: s.modelMeta,
                zodSchemas: call.zod ? s.zodSchemas : undefined,
                logger: SILENT_LOGGER,
            });
            // what goes over the wire
            const body = JSON.parse(JSON.stringify(res.body ?? null));
            answers.push({ status: res.status, body: side.name === 'upstream' ? bytesAsSpec(body, 'data') : body });
        }
        return answers as never;
    }

    const READS: [string, Call][] = [
        ['findMany with include, nested take, orderBy and skip', { method: 'GET', path: '/post/findMany', user: 1, q: { include: { author: true, comments: { take: 1 } }, orderBy: { id: 'desc' }, skip: 1 } }],
        ['findMany under the read policy, anonymous', { method: 'GET', path: '/post/findMany', q: { select: { id: true, title: true } } }],
        ['findMany with a cursor', { method: 'GET', path: '/post/findMany', user: 1, q: { cursor: { id: 2 }, take: 2, select: { id: true } } }],
        ['findUnique', { method: 'GET', path: '/post/findUnique', user: 1, q: { where: { id: 1 } } }],
        ['findUnique of an unreadable record (null)', { method: 'GET', path: '/post/findUnique', user: 1, q: { where: { id: 3 } } }],
        ['findFirst with a Date filter sent as typed value', { method: 'GET', path: '/post/findFirst', user: 1, q: { where: { createdAt: AT.toISOString() } }, meta: { serialization: { values: { 'where.createdAt': ['Date'] } } } }],
        ['count with select', { method: 'GET', path: '/post/count', user: 1, q: { select: { _all: true, title: true } } }],
        ['aggregate', { method: 'GET', path: '/post/aggregate', user: 1, q: { _sum: { viewCount: true }, _max: { createdAt: true }, _count: true } }],
        ['groupBy', { method: 'GET', path: '/post/groupBy', user: 1, q: { by: ['published'], _count: { _all: true }, orderBy: { published: 'asc' } } }],
        ['every scalar type (BigInt, Decimal, Bytes, DateTime, Json, enum)', { method: 'GET', path: '/allTypes/findUnique', q: { where: { id: 'typed' } } }],
        ['relation counts, distinct and relation filters (some, every, is), with OR and NOT on the post', { method: 'GET', path: '/post/findMany', user: 1, q: { where: { comments: { some: { content: 'Nice' }, every: { NOT: { content: 'x' } } }, author: { is: { role: 'ADMIN' } }, OR: [{ published: true }, { NOT: { title: 'x' } }] }, select: { id: true, _count: { select: { comments: true } } }, distinct: ['authorId'], orderBy: { id: 'asc' } } }],
        ['string filters and a nested select with a relation filter', { method: 'GET', path: '/user/findMany', user: 1, q: { where: { name: { startsWith: 'A' }, email: { contains: '@' } }, select: { email: true, posts: { where: { published: true }, select: { title: true } } } } }],
        ['a Json equality filter', { method: 'GET', path: '/allTypes/findMany', q: { where: { json: { equals: { a: [1, 'two', null] } } }, select: { id: true, json: true } } }],
        ['Decimal and DateTime range filters sent as typed values', { method: 'GET', path: '/allTypes/count', q: { where: { decimal: { gt: '12.3' }, dateTime: { lte: AT.toISOString() } } }, meta: { serialization: { values: { 'where.decimal.gt': [['custom', 'Decimal']], 'where.dateTime.lte': ['Date'] } } } }],
        ['findFirst with no match (null)', { method: 'GET', path: '/post/findFirst', user: 2, q: { where: { title: 'nothing' } } }],
        ['a BigInt filter sent as typed value', { method: 'GET', path: '/allTypes/findMany', q: { where: { bigInt: '9007199254740993' } }, meta: { serialization: { values: { 'where.bigInt': ['bigint'] } } } }],
        ['typed values whose metadata is the "meta" member of q, the envelope of a body', { method: 'GET', path: '/allTypes/findMany', q: { where: { bigInt: '9007199254740993', dateTime: AT.toISOString() }, select: { id: true }, meta: { serialization: { values: { 'where.bigInt': ['bigint'], 'where.dateTime': ['Date'] } } } } }],
    ];

    it.each(READS)('%s', async (_name, call) => {
        const [ours, upstream] = await both(call);
        expect(ours.status).toBe(200);
        expect(ours).toEqual(upstream);
    });

    const WRITES: [string, Call][] = [
        ['create with a nested connect', { method: 'POST', path: '/post/create', user: 1, body: { data: { title: 'New', createdAt: AT.toISOString(), author: { connect: { id: 1 } } }, meta: { serialization: { values: { 'data.createdAt': ['Date'] } } } } }],
        ['update', { method: 'PUT', path: '/post/update', user: 1, body: { where: { id: 4 }, data: { viewCount: { increment: 2 } }, select: { id: true, viewCount: true } } }],
        ['createMany', { method: 'POST', path: '/comment/createMany', user: 1, body: { data: [{ id: 5, content: 'a', postId: 4 }, { id: 6, content: 'b', postId: 4 }] } }],
        ['updateMany', { method: 'PUT', path: '/comment/updateMany', user: 1, body: { where: { postId: 4 }, data: { content: 'c' } } }],
        ['typed values in a write (BigInt, Decimal, Bytes)', { method: 'PUT', path: '/allTypes/update', body: { where: { id: 'typed' }, data: { bigInt: '42', decimal: '0.5', bytes: 'BAU=' }, meta: { serialization: { values: { 'data.bigInt': ['bigint'], 'data.decimal': [['custom', 'Decimal']], 'data.bytes': [['custom', 'Bytes']] } } } } }],
        ['Bytes sent in superjson\'s Uint8Array form (browser clients)', { method: 'PUT', path: '/allTypes/update', body: { where: { id: 'typed' }, data: { bytes: [9, 8, 7] }, select: { bytes: true }, meta: { serialization: { values: { 'data.bytes': [['typed-array', 'Uint8Array']] } } } } }],
        ['a nested create and connectOrCreate, answered with an include', { method: 'POST', path: '/post/create', user: 1, body: { data: { id: 10, title: 'Nested', createdAt: AT.toISOString(), authorId: 1, comments: { create: [{ id: 10, content: 'first' }], connectOrCreate: [{ where: { id: 11 }, create: { id: 11, content: 'second' } }] } }, include: { comments: { orderBy: { id: 'asc' } } }, meta: { serialization: { values: { 'data.createdAt': ['Date'] } } } } }],
        ['a nested update and deleteMany through a relation', { method: 'PATCH', path: '/post/update', user: 1, body: { where: { id: 10 }, data: { comments: { update: { where: { id: 10 }, data: { content: 'edited' } }, deleteMany: { id: 11 } } }, select: { id: true, comments: { select: { id: true, content: true } } } } }],
        ['deleteMany', { method: 'DELETE', path: '/comment/deleteMany', user: 1, q: { where: { id: 6 } } }],
        ['deleteMany whose typed filter has its metadata as the "meta" member of q', { method: 'DELETE', path: '/allTypes/deleteMany', q: { where: { dateTime: { lt: '2000-01-01T00:00:00.000Z' } }, meta: { serialization: { values: { 'where.dateTime.lt': ['Date'] } } } } }],
        ['delete', { method: 'DELETE', path: '/post/delete', user: 1, q: { where: { id: 4 }, select: { id: true } } }],
    ];

    it.each(WRITES)('%s', async (_name, call) => {
        const [ours, upstream] = await both(call);
        expect([200, 201]).toContain(ours.status);
        expect(ours).toEqual(upstream);
    });

    it('upsert: the same body, with 200 where 2.22.3 answers 201 (the spec: 201 only for create and createMany)', async () => {
        const [ours, upstream] = await both({ method: 'POST', path: '/post/upsert', user: 1, body: { where: { id: 1 }, create: { title: 'x', authorId: 1 }, update: { title: 'Upserted' }, select: { title: true } } });
        expect(ours.status).toBe(200);
        expect(upstream.status).toBe(201);
        expect(ours.body).toEqual({ data: { title: 'Upserted' } });
        expect(ours.body).toEqual(upstream.body);
    });

    it('differs on purpose: an update of a record the user cannot read answers as a missing one, 404 (2.22.3: 403, which tells it exists)', async () => {
        // post 3 is Bob's draft: Alice cannot read it
        const [ours, upstream] = await both({ method: 'PUT', path: '/post/update', user: 1, body: { where: { id: 3 }, data: { title: 'mine' } } });
        const [oursMissing] = await both({ method: 'PUT', path: '/post/update', user: 1, body: { where: { id: 999 }, data: { title: 'mine' } } });
        expect(upstream.status).toBe(403);
        expect(ours).toEqual(oursMissing);
        expect(ours.status).toBe(404);
    });

    const FAILURES: [string, Call][] = [
        ['an update the policy denies', { method: 'PUT', path: '/post/update', user: 2, body: { where: { id: 1 }, data: { title: 'mine' } } }],
        ['a create whose result the user cannot read', { method: 'POST', path: '/user/create', body: { data: { email: 'anon@x' } } }],
        ['an update of a record that does not exist', { method: 'PUT', path: '/post/update', user: 1, body: { where: { id: 999 }, data: { title: 'x' } } }],
        ['a unique constraint violation', { method: 'POST', path: '/user/create', user: 1, body: { data: { email: 'bob@x' } } }],
        ['input the zod schemas reject', { method: 'POST', path: '/post/create', user: 1, zod: true, body: { data: { title: '', authorId: 1 } } }],
        ['an unknown model', { method: 'GET', path: '/nope/findMany', q: {} }],
        ['an unknown operation', { method: 'GET', path: '/post/nope', q: {} }],
        ['a write sent with GET', { method: 'GET', path: '/post/create', q: { data: { title: 'x' } } }],
        ['check on a schema generated without permission checkers', { method: 'GET', path: '/post/check', user: 1, q: { operation: 'read' } }],
        ['arguments that are not JSON', { method: 'GET', path: '/post/findMany', rawQuery: { q: '{bad' } }],
    ];

    const VALIDATION: [string, Call][] = [
        ['a rule the zod schemas check (@length)', { method: 'POST', path: '/post/create', user: 1, zod: true, body: { data: { title: '', authorId: 1 } } }],
        ['wrong types, checked by the zod schemas (union branches)', { method: 'POST', path: '/post/create', user: 1, zod: true, body: { data: { title: 'x', viewCount: 'a', published: 3 } } }],
        ['an unknown key, checked by the zod schemas', { method: 'POST', path: '/post/create', user: 1, zod: true, body: { data: { title: 'x', bogus: 1 } } }],
        ['a rule the enhanced client checks (no zodSchemas)', { method: 'POST', path: '/post/create', user: 1, body: { data: { title: '', authorId: 1 } } }],
        ['wrong types the enhanced client finds (no zodSchemas)', { method: 'PUT', path: '/post/update', user: 1, body: { where: { id: 1 }, data: { title: 5, published: 'yes' } } }],
    ];

    it.each(VALIDATION)('validation failure: the raw zod issues in zodErrors, as 2.22.3 has them: %s', async (_name, call) => {
        const [ours, upstream] = await both(call);
        expect([ours.status, upstream.status]).toEqual([422, 422]);
        expect(ours.body.error.zodErrors).toEqual(expect.objectContaining({ name: 'ZodError', issues: expect.any(Array) }));
        expect(ours.body.error.zodErrors).toEqual(upstream.body.error.zodErrors);
        expect(flags(ours.body)).toEqual(flags(upstream.body));
    });

    const flags = (body: Body) => {
        const e = body?.error ?? {};
        return { rejectedByPolicy: e.rejectedByPolicy, rejectedByValidation: e.rejectedByValidation, prisma: e.prisma, code: e.code, reason: e.reason };
    };

    it.each(FAILURES)('%s', async (_name, call) => {
        const [ours, upstream] = await both(call);
        expect(ours.status).toBeGreaterThanOrEqual(400);
        expect(ours.status).toBe(upstream.status);
        expect(flags(ours.body)).toEqual(flags(upstream.body));
    });
});
