import { RestApiHandler } from '../../src/api/rest';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller } from './support';

// A `@password` field is hashed by ZenStack before the ORM sees the value: a value that cannot be hashed
// (null to clear an optional password, a number) is the request's fault, a 400 with nothing written, not a 500.

const SCHEMA = `
model Account {
  id       Int     @id
  name     String  @default("")
  password String? @password @omit
  club     Club?   @relation(fields: [clubId], references: [id])
  clubId   Int?
  @@allow('all', true)
}

model Club {
  id       Int       @id
  accounts Account[]
  @@allow('all', true)
}
`;

let s: TestSchema;
beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.club.create({ data: { id: 1 } });
    await s.prisma.account.create({ data: { id: 1, name: 'a', password: 'hashed-before', clubId: 1 } });
});
afterAll(async () => {
    await s?.cleanup();
});
const stored = async () => (await s.prisma.account.findUnique({ where: { id: 1 } })).password;

describe('@password values that cannot be hashed', () => {
    it('RPC: update, create and createMany answer 400 and write nothing', async () => {
        const rpc = rpcCaller(s, { logger: null });
        for (const [method, path, body] of [
            ['PUT', '/account/update', { where: { id: 1 }, data: { password: null, name: 'changed' } }],
            ['PUT', '/account/update', { where: { id: 1 }, data: { password: 123 } }],
            ['POST', '/account/create', { data: { id: 2, password: null } }],
            ['POST', '/account/createMany', { data: [{ id: 3, password: 'ok' }, { id: 4, password: null }] }],
        ] as const) {
            const res = await rpc(method, path, { body });
            expect([path, res.status, res.body.error.message]).toEqual([path, 400, expect.stringContaining('@password')]);
        }
        expect(await stored()).toBe('hashed-before');
        expect(await s.prisma.account.count()).toBe(1);
        expect((await s.prisma.account.findUnique({ where: { id: 1 } })).name).toBe('a');
    });

    it('RPC: a string is still hashed', async () => {
        const res = await rpcCaller(s)('PUT', '/account/update', { body: { where: { id: 1 }, data: { password: 'secret' } } });
        expect(res.status).toBe(200);
        const hash = await stored();
        expect(hash).not.toBe('secret');
        await s.prisma.account.update({ where: { id: 1 }, data: { password: 'hashed-before' } });
    });

    it('RPC: updateMany, updateManyAndReturn and a nested updateMany, which ZenStack does not hash, answer 400 and write nothing', async () => {
        const rpc = rpcCaller(s, { logger: null });
        for (const [method, path, body] of [
            ['PUT', '/account/updateMany', { where: { id: 1 }, data: { password: 'plain-1', name: 'changed' } }],
            ['PUT', '/account/updateManyAndReturn', { where: { id: 1 }, data: { password: 'plain-2' } }],
            ['PUT', '/club/update', { where: { id: 1 }, data: { accounts: { updateMany: { where: { id: 1 }, data: { password: 'plain-3' } } } } }],
            ['POST', '/$transaction/sequential', [{ model: 'account', op: 'updateMany', args: { where: {}, data: { password: 'plain-4' } } }]],
        ] as const) {
            const res = await rpc(method, path, { body });
            expect([path, res.status, res.body.error.message]).toEqual([path, 400, expect.stringMatching(/sets "password", a @password field that ZenStack stores unhashed there/)]);
        }
        expect(await stored()).toBe('hashed-before');
        expect((await s.prisma.account.findUnique({ where: { id: 1 } })).name).toBe('a');
        // other fields still go through updateMany
        const other = await rpc('PUT', '/account/updateMany', { body: { where: { id: 1 }, data: { name: 'renamed' } } });
        expect([other.status, other.body.data]).toEqual([200, { count: 1 }]);
        await s.prisma.account.update({ where: { id: 1 }, data: { name: 'a' } });
    });

    it('REST: a PATCH clearing the password answers 400 in the JSON:API error format', async () => {
        const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
        const res = await handle({
            method: 'PATCH',
            path: '/account/1',
            query: {},
            requestBody: { data: { type: 'account', id: '1', attributes: { password: null } } },
            prisma: s.enhance(),
            modelMeta: s.modelMeta,
            logger: null,
        });
        const body = res.body as { errors: { status: number; detail: string }[] };
        expect([res.status, body.errors[0].status, body.errors[0].detail]).toEqual([400, 400, expect.stringContaining('@password')]);
        expect(await stored()).toBe('hashed-before');
    });
});
