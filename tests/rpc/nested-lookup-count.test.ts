import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api';
import { RPCApiHandler } from '../../src/api/rpc';
import { MAX_SINGLE_LOOKUPS } from '../../src/api/rpc/named-records';
import { loadSchema, type TestSchema } from '../support/schema';
import { countingClient, type CountingClient } from '../support/statement-count';

/**
 * The records nested writes name (`connect`, `connectOrCreate`, `disconnect`, nested `update`/`delete`, the
 * members of a relation `set`) are checked under the read rule before the write (hidden-nested.ts,
 * relation-set.ts). They were looked up one read each: a `connect` of 10,000 tags cost 10,000 reads before the
 * write, where @zenstackhq/server sends a few statements. They are looked up together now, one read per model and
 * unique constraint, and what the checks decide is unchanged (a hidden record is missing to the write).
 * Statements are counted at the driver adapter.
 */

const SCHEMA = `
model Owner {
  id   Int   @id
  tags Tag[]
  @@allow('all', true)
}

model Tag {
  id      Int     @id
  name    String  @unique
  weight  Float   @unique
  secret  Boolean @default(false)
  owner   Owner?  @relation(fields: [ownerId], references: [id])
  ownerId Int?
  @@allow('read', !secret)
  @@allow('create,update', true)
}
`;

const N = 300;
// a request costs a few statements of its own (the write, its transaction, its read-back), not one per record
const FEW = 16;

let s: TestSchema;
let counting: CountingClient;
const handler = RPCApiHandler();
const upstream = UpstreamRPCApiHandler() as unknown as typeof handler;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.owner.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.tag.createMany({
        data: Array.from({ length: N + 1 }, (_, i) => ({ id: i + 1, name: `t${i + 1}`, weight: i + 1.5, secret: i === N })),
    });
    counting = countingClient(s);
});

afterAll(async () => {
    await counting?.client.$disconnect();
    await s?.cleanup();
});

beforeEach(async () => {
    await s.prisma.tag.updateMany({ data: { ownerId: null } });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function update(data: unknown, using = handler): Promise<{ status: number; body: any; statements: number }> {
    counting.reset();
    const res = await using({
        method: 'PUT',
        path: '/owner/update',
        query: {},
        requestBody: { where: { id: 1 }, data },
        prisma: s.enhanceClient(counting.client, { id: 1 }),
        modelMeta: s.modelMeta,
        logger: null,
    });
    return { status: res.status, body: res.body, statements: counting.count() };
}

const names = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ name: `t${from + i}` }));
const linked = async () => s.prisma.tag.count({ where: { ownerId: 1 } });

describe('records named by nested writes are looked up together', () => {
    it('connects many records named by a unique field in a few statements', async () => {
        const res = await update({ tags: { connect: names(1, N) } });
        expect(res.status).toBe(200);
        expect(await linked()).toBe(N);
        expect(res.statements).toBeLessThanOrEqual(FEW);
    });

    it('still treats a hidden record among them as missing, and links nothing', async () => {
        const res = await update({ tags: { connect: names(1, N + 1) } });
        expect(res.status).toBe(404);
        expect(await linked()).toBe(0);
        expect(res.statements).toBeLessThanOrEqual(FEW);
    });

    it('disconnects and updates many nested records in a few statements more than @zenstackhq/server', async () => {
        const updates = names(1, 20).map((where) => ({ where, data: { secret: false } }));
        const data = { tags: { disconnect: names(21, N), update: updates } };
        const answers = [];
        for (const using of [upstream, handler]) {
            await s.prisma.tag.updateMany({ where: { id: { lte: N } }, data: { ownerId: 1 } });
            answers.push(await update(data, using));
            expect(await linked()).toBe(20);
        }
        const [theirs, ours] = answers;
        expect([theirs.status, ours.status]).toEqual([200, 200]);
        // an update and a disconnect cost statements of their own (per record, with both)
        expect(theirs.statements).toBeGreaterThan(N);
        expect(ours.statements).toBeLessThanOrEqual(theirs.statements + FEW);
    });

    it('replaces a relation named by unique fields in a few statements, hidden members left out', async () => {
        await s.prisma.tag.updateMany({ where: { id: { in: [1, 2, N + 1] } }, data: { ownerId: 1 } });
        const res = await update({ tags: { set: names(3, N) } });
        expect(res.status).toBe(200);
        const members = await s.prisma.tag.findMany({ where: { ownerId: 1 }, select: { id: true }, orderBy: { id: 'asc' } });
        // the hidden member stays: the set replaces what the user sees
        expect(members.map((m: { id: number }) => m.id)).toEqual([...Array.from({ length: N - 2 }, (_, i) => i + 3), N + 1]);
        expect(res.statements).toBeLessThanOrEqual(FEW);
    });

    it('looks up records named by a field it cannot match on their own, up to a bound (then a 400)', async () => {
        const byWeight = (n: number) => Array.from({ length: n }, (_, i) => ({ weight: i + 1.5 }));
        const few = await update({ tags: { connect: byWeight(MAX_SINGLE_LOOKUPS) } });
        expect(few.status).toBe(200);
        expect(await linked()).toBe(MAX_SINGLE_LOOKUPS);
        const many = await update({ tags: { connect: byWeight(MAX_SINGLE_LOOKUPS + 1) } });
        expect(many.status).toBe(400);
        expect(many.body.error.message).toMatch(/at most 100 records of nested writes/);
        expect(many.statements).toBe(0);
    });
});
