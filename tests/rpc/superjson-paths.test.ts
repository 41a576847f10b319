import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api/rpc';
import SuperJSON from 'superjson';
import type { HandleRequestFn } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller, type RpcCaller } from './support';

/**
 * Serialization paths are read as superjson 1.x writes them: ZenStack 2.x's server and its client libraries
 * use superjson ^1.13, which escapes only dots in keys. A backslash in a key is the key's own character.
 */

const AT = new Date('2024-05-01T10:00:00.000Z');

let s: TestSchema;
let call: RpcCaller;

beforeAll(async () => {
    s = await loadSchema();
    call = rpcCaller(s);
});

afterAll(() => s.cleanup());

it('paths read as superjson 1.x (ZenStack 2.x and its clients) writes them: a backslash in a key is itself', async () => {
    // superjson 1.x writes the key `back\slash` as it is (2.x would write `back\\slash`)
    const json = { 'back\\slash': AT, plain: 1 };
    const { json: sent, meta } = new SuperJSON().serialize({ data: { id: 'keys', json } });
    expect(Object.keys(meta?.values ?? {})).toEqual(['data.json.back\\slash']);
    const res = await call('POST', '/allTypes/create', { body: { ...(sent as Record<string, unknown>), meta: { serialization: meta } } });
    expect(res.status).toBe(201);
    const stored = (await s.prisma.allTypes.findUnique({ where: { id: 'keys' } })).json;
    expect(stored).toEqual({ 'back\\slash': AT.toISOString(), plain: 1 });

    const up = await loadSchema();
    try {
        const upstream = rpcCaller(up, { handler: UpstreamRPCApiHandler() as unknown as HandleRequestFn });
        const theirs = await upstream('POST', '/allTypes/create', { body: { ...(sent as Record<string, unknown>), meta: { serialization: meta } } });
        expect(theirs.status).toBe(201);
        expect((await up.prisma.allTypes.findUnique({ where: { id: 'keys' } })).json).toEqual(stored);
    } finally {
        await up.cleanup();
    }
});

it('a typed value under a Json key holding dots is read where superjson 1.x tags it (the last key unescaped)', async () => {
    const serialize = (value: unknown) => new SuperJSON().serialize(value);
    const created = serialize({ data: { id: 'dotted', json: { 'a.b': AT, 'x.y': { 'c.d': AT } } } });
    // superjson escapes the dots of the keys on the way, not those of the last one
    expect(Object.keys(created.meta?.values ?? {}).sort()).toEqual(['data.json.a.b', 'data.json.x\\.y.c.d']);
    const res = await call('POST', '/allTypes/create', { body: { ...(created.json as Record<string, unknown>), meta: { serialization: created.meta } } });
    expect(res.status).toBe(201);
    expect((await s.prisma.allTypes.findUnique({ where: { id: 'dotted' } })).json).toEqual({ 'a.b': AT.toISOString(), 'x.y': { 'c.d': AT.toISOString() } });
    // in a filter sent in the query string too
    const filter = serialize({ where: { id: 'dotted', json: { equals: { 'a.b': AT, 'x.y': { 'c.d': AT } } } } });
    const counted = await call('GET', '/allTypes/count', { q: filter.json, meta: { serialization: filter.meta } });
    expect([counted.status, counted.body.data]).toEqual([200, 1]);
    // a path naming nothing, read either way, is still refused
    const nowhere = await call('POST', '/allTypes/create', { body: { data: { id: 'none', json: { a: 1 } }, meta: { serialization: { values: { 'data.json.a.b': ['Date'] } } } } });
    expect(nowhere.status).toBe(400);
});
