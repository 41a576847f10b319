import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api/rpc';
import SuperJSON from 'superjson';
import type { HandleRequestFn } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller, type CallInput, type RpcCaller } from './support';

/**
 * superjson writes a value the arguments hold more than once (the same Date or object under two keys) in
 * `meta.serialization.referentialEqualities`. A client made with `new SuperJSON({ dedupe: true })` sends it
 * once and `null` in the other places: those places are restored from the metadata, as `@zenstackhq/server`
 * 2.x (which hands the metadata to superjson) restores them, instead of reaching the client as `null`.
 */

const dedupe = new SuperJSON({ dedupe: true });
const AT = new Date('2024-05-01T10:00:00.000Z');

function query(args: unknown): CallInput {
    const { json, meta } = dedupe.serialize(args);
    return meta ? { q: json, meta: { serialization: meta } } : { q: json };
}

function body(args: unknown): Record<string, unknown> {
    const { json, meta } = dedupe.serialize(args);
    return meta ? { ...(json as Record<string, unknown>), meta: { serialization: meta } } : (json as Record<string, unknown>);
}

let s: TestSchema;
let call: RpcCaller;

beforeAll(async () => {
    s = await loadSchema();
    await s.prisma.user.create({ data: { id: 1, email: 'alice@x' } });
    await s.prisma.post.create({ data: { id: 1, title: 'at', published: true, authorId: 1, createdAt: AT } });
    await s.prisma.post.create({ data: { id: 2, title: 'later', published: true, authorId: 1, createdAt: new Date(AT.getTime() + 1000) } });
    call = rpcCaller(s, { user: { id: 1 } });
});

afterAll(() => s.cleanup());

it('the client really sends the repeated value once', () => {
    const { json, meta } = dedupe.serialize({ where: { createdAt: { gte: AT, lte: AT } } });
    expect(json).toEqual({ where: { createdAt: { gte: AT.toISOString(), lte: null } } });
    expect(meta?.referentialEqualities).toEqual({ 'where.createdAt.gte': ['where.createdAt.lte'] });
});

it('a Date given twice in a GET filter is restored in both places', async () => {
    const res = await call('GET', '/post/findMany', query({ where: { createdAt: { gte: AT, lte: AT } }, select: { id: true } }));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: 1 }]);
});

it('an object given twice (an OR of the same filter) is restored in both places', async () => {
    const same = { title: 'later' };
    const res = await call('GET', '/post/count', query({ where: { OR: [same, same] } }));
    expect(res.status).toBe(200);
    expect(res.body.data).toBe(1);
});

it('the same row given twice to createMany creates two rows', async () => {
    const row = { content: 'twice', postId: 1 };
    const res = await call('POST', '/comment/createMany', { body: body({ data: [row, row] }) });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ count: 2 });
    expect(await s.prisma.comment.count({ where: { content: 'twice' } })).toBe(2);
});

it('answers as 2.22.3 does for the same request', async () => {
    const up = await loadSchema();
    try {
        await up.prisma.user.create({ data: { id: 1, email: 'alice@x' } });
        await up.prisma.post.create({ data: { id: 1, title: 'at', published: true, authorId: 1, createdAt: AT } });
        const upstream = rpcCaller(up, { user: { id: 1 }, handler: UpstreamRPCApiHandler() as unknown as HandleRequestFn });
        const args = query({ where: { createdAt: { gte: AT, lte: AT } }, select: { id: true } });
        const theirs = await upstream('GET', '/post/findMany', args);
        const ours = await call('GET', '/post/findMany', args);
        expect(ours.body.data).toEqual(theirs.body.data);
    } finally {
        await up.cleanup();
    }
});

it('a reference to a path the arguments do not hold is a 400', async () => {
    const res = await call('GET', '/post/findMany', {
        q: { where: { id: 1 } },
        meta: { serialization: { referentialEqualities: { 'where.nothing': ['where.id'] } } },
    });
    expect(res.status).toBe(400);
    const target = await call('GET', '/post/findMany', {
        q: { where: { id: 1 } },
        meta: { serialization: { referentialEqualities: { 'where.id': ['where.elsewhere'] } } },
    });
    expect(target.status).toBe(400);
});

it('an upsert whose create and update share a Json value writes that value, not null', async () => {
    const json = { theme: 'dark' };
    const res = await call('POST', '/allTypes/upsert', { body: body({ where: { id: 'shared' }, create: { id: 'shared', json }, update: { json }, select: { json: true } }) });
    expect(res.status).toBe(200);
    const again = await call('POST', '/allTypes/upsert', { body: body({ where: { id: 'shared' }, create: { id: 'shared', json }, update: { json }, select: { json: true } }) });
    expect(again.body.data).toEqual({ json: { theme: 'dark' } });
    expect((await s.prisma.allTypes.findUnique({ where: { id: 'shared' } })).json).toEqual({ theme: 'dark' });
});

it('paths that would multiply one value beyond the bound are a 400 before anything is expanded or sent to the database', async () => {
    const big = Array.from({ length: 2_000 }, (_, i) => ({ title: `t${i}` }));
    const targets = Array.from({ length: 100 }, (_, i) => `where.OR.${i + 1}`);
    const q = { where: { OR: [{ OR: big }, ...targets.map(() => null)] } };
    const res = await call('GET', '/post/count', { q, meta: { serialization: { referentialEqualities: { 'where.OR.0': targets } } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('referentialEqualities');
    // the same shape under the bound is restored and answered
    const small = await call('GET', '/post/count', { q: { where: { OR: [{ OR: big.slice(0, 2) }, null] } }, meta: { serialization: { referentialEqualities: { 'where.OR.0': ['where.OR.1'] } } } });
    expect(small.status).toBe(200);
});
