import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { MAX_UNGUARDED_LINKS } from '../../src/api/rpc/self-many-to-many';
import { loadSchema, type TestSchema } from '../support/schema';
import { countingClient, type CountingClient } from '../support/statement-count';

/**
 * Links through a many-to-many relation from a model to itself are checked record by record under the update rule
 * (`rpc/self-many-to-many.ts`), a read and a checking update each: a `connect` of 200 followers cost 812 statements
 * where @zenstackhq/server 2.22.3 sends 7. At most MAX_UNGUARDED_LINKS records are linked or unlinked so in one
 * write; more is a 400 (RPC and JSON:API), before any of them is checked. Statements are counted at the driver adapter.
 */

const SCHEMA = `
model User {
  id        Int    @id
  following User[] @relation("follows")
  followers User[] @relation("follows")
  @@allow('read,create', true)
  @@allow('update', auth() != null)
}
`;

let s: TestSchema;
let counting: CountingClient;
const rpc = RPCApiHandler();
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({ data: Array.from({ length: MAX_UNGUARDED_LINKS + 2 }, (_, i) => ({ id: i + 1 })) });
    counting = countingClient(s);
});

afterAll(async () => {
    await counting?.client.$disconnect();
    await s?.cleanup();
});

beforeEach(() => s.prisma.user.update({ where: { id: 1 }, data: { following: { set: [] } } }));

async function send(handler: typeof rpc, method: string, path: string, requestBody: unknown) {
    counting.reset();
    const res = await handler({ method, path, query: {}, requestBody, prisma: s.enhanceClient(counting.client, { id: 1 }), modelMeta: s.modelMeta, logger: null });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: res.body as any, statements: counting.count() };
}

const others = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 2 }));
const following = async () => (await s.prisma.user.findUnique({ where: { id: 1 }, select: { following: { select: { id: true } } } })).following.length;

describe('links through a self-relation many-to-many are checked within a bound', () => {
    it('checks up to the bound', async () => {
        const res = await send(rpc, 'PUT', '/user/update', { where: { id: 1 }, data: { following: { connect: others(MAX_UNGUARDED_LINKS) } } });
        expect(res.status).toBe(200);
        expect(await following()).toBe(MAX_UNGUARDED_LINKS);
    });

    it('refuses more through RPC, before checking any', async () => {
        const res = await send(rpc, 'PUT', '/user/update', { where: { id: 1 }, data: { following: { connect: others(MAX_UNGUARDED_LINKS + 1) } } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/at most 100 records may be linked or unlinked through "following" of User/);
        expect(await following()).toBe(0);
        // the transaction's own statements
        expect(res.statements).toBeLessThanOrEqual(3);
    });

    it('refuses more through JSON:API, before checking any', async () => {
        const data = others(MAX_UNGUARDED_LINKS + 1).map(({ id }) => ({ type: 'user', id: String(id) }));
        const res = await send(rest as unknown as typeof rpc, 'POST', '/user/1/relationships/following', { data });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].detail).toMatch(/at most 100 records/);
        expect(await following()).toBe(0);
        // the transaction's own, and the read of the current members
        expect(res.statements).toBeLessThanOrEqual(4);
    });
});
