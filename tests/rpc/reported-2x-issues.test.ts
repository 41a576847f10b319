import { createFetchHandler } from '../../src/adapters/fetch';
import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller, type RpcCaller } from './support';

/**
 * Request shapes users reported against `@zenstackhq/server` 2.x (and the ORM behind it), asked of this RPC
 * handler and its adapters (the issue numbers are zenstackhq/zenstack's). The JSON:API ones are in
 * tests/rest/reported-2x-issues.test.ts.
 */

const SCHEMA = `
model User {
  id      Int     @id @default(autoincrement())
  email   String  @unique
  pin     String  @default("0000") @omit
  posts   Post[]
  @@allow('all', true)
}

model Post {
  id       Int    @id @default(autoincrement())
  title    String
  author   User   @relation(fields: [authorId], references: [id])
  authorId Int
  @@allow('read', true)
  @@allow('create,update,delete', auth() == author)
}
`;

// a model of the same name with other fields, and one the first schema lacks
const OTHER_SCHEMA = `
model Post {
  id       Int     @id @default(autoincrement())
  headline String
  rank     Int     @default(0)
  @@allow('all', true)
}

model Note {
  id   Int    @id @default(autoincrement())
  body String
  @@allow('all', true)
}
`;

let s: TestSchema;
let rpc: RpcCaller;
beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    rpc = rpcCaller(s, { user: { id: 1 } });
    await s.prisma.user.create({ data: { id: 1, email: 'one@x.io', pin: '1234', posts: { create: { id: 1, title: 'first' } } } });
});
afterAll(() => s?.cleanup());

it('#2671: an @omit field stays out however a read or write asks for it (select, omit: false, nested select)', async () => {
    const asked = [
        await rpc('GET', '/user/findUnique', { q: { where: { id: 1 }, select: { email: true, pin: true } } }),
        await rpc('GET', '/user/findFirst', { q: { where: { id: 1 }, omit: { pin: false } } }),
        await rpc('GET', '/post/findMany', { q: { select: { title: true, author: { select: { email: true, pin: true } } } } }),
        await rpc('PATCH', '/user/update', { body: { where: { id: 1 }, data: { email: 'one@x.io' }, select: { email: true, pin: true } } }),
        await rpc('POST', '/user/create', { body: { data: { email: 'two@x.io', pin: '9999' }, omit: { pin: false } } }),
    ];
    for (const res of asked) {
        expect(res.status).toBeLessThan(300);
        expect(JSON.stringify(res.body)).not.toMatch(/"pin"|1234|9999/);
    }
    expect(asked[0].body.data).toEqual({ email: 'one@x.io' });
    expect(asked[2].body.data).toEqual([{ title: 'first', author: { email: 'one@x.io' } }]);
});

it('#1719, the RPC side: one handler serves two schemas with a model of the same name, each request by its own metadata', async () => {
    const other = await loadSchema(OTHER_SCHEMA);
    try {
        await other.prisma.post.create({ data: { headline: 'elsewhere', rank: 3 } });
        await other.prisma.note.create({ data: { body: 'only there' } });
        const handler = RPCApiHandler();
        const first = rpcCaller(s, { handler, user: { id: 1 } });
        const second = rpcCaller(other, { handler });
        // each asked twice, alternately: whatever one request resolved must not serve the other schema's
        for (let round = 0; round < 2; round++) {
            const mine = await first('GET', '/post/findMany', { q: { where: { title: 'first' }, select: { title: true } } });
            expect([mine.status, mine.body.data]).toEqual([200, [{ title: 'first' }]]);
            const theirs = await second('GET', '/post/findMany', { q: { where: { headline: 'elsewhere' }, select: { headline: true, rank: true } } });
            expect([theirs.status, theirs.body.data]).toEqual([200, [{ headline: 'elsewhere', rank: 3 }]]);
            const note = await second('GET', '/note/findMany', { q: { select: { body: true } } });
            expect([note.status, note.body.data]).toEqual([200, [{ body: 'only there' }]]);
            const users = await first('GET', '/user/count', {});
            expect([users.status, users.body.data]).toEqual([200, expect.any(Number)]);
        }
        // and what only one schema has is refused for the other
        expect((await first('GET', '/post/findMany', { q: { where: { headline: 'elsewhere' } } })).status).toBe(400);
        expect((await first('GET', '/note/findMany', {})).body.error.message).toMatch(/unknown model/);
        expect((await second('GET', '/user/findMany', {})).body.error.message).toMatch(/unknown model/);
    } finally {
        await other.cleanup();
    }
});

it("#1783: the logger given to an adapter is the one its handler logs to (a refused request's debug line)", async () => {
    const lines: string[] = [];
    const collect = (message: string) => void lines.push(message);
    const api = createFetchHandler({
        prefix: '/api/model',
        logger: { debug: collect, info: collect, warn: collect, error: collect },
        modelMeta: s.modelMeta,
        getPrisma: () => s.enhance({ id: 2 }),
    });
    const res = await api(
        new Request('http://localhost/api/model/post/create', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ data: { title: 'not mine', authorId: 1 } }),
        }),
    );
    expect(res.status).toBe(403);
    expect(lines.some((line) => line.includes('RPC request rejected (403'))).toBe(true);
});
