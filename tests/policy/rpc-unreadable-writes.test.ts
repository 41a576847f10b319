import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller, type RpcCaller } from '../rpc/support';

/**
 * A write whose result the user may not read back is answered 403 RESULT_NOT_READABLE and is kept
 * (ZenStack's contract, which its hooks read as success). Where the handler runs the write in a
 * transaction of its own (a relation `set`, `$transaction/sequential`), that transaction must commit.
 */

const SCHEMA = `
model User {
  id     Int     @id
  name   String
  hidden Boolean @default(false)
  tags   Tag[]
  @@allow('create,update', true)
  @@allow('read', !hidden)
}

model Tag {
  id     Int   @id
  user   User? @relation(fields: [userId], references: [id])
  userId Int?
  @@allow('all', true)
}
`;

let s: TestSchema;
let call: RpcCaller;

beforeEach(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.create({ data: { id: 1, name: 'a', tags: { create: [{ id: 1 }, { id: 2 }] } } });
    call = rpcCaller(s, { user: { id: 1 } });
});

afterEach(async () => {
    await s.cleanup();
});

const tagOwners = async () => (await s.prisma.tag.findMany({ orderBy: { id: 'asc' } })).map((t: { userId: number | null }) => t.userId);

it('an update with a relation set whose result is not readable is kept', async () => {
    const res = await call('PATCH', '/user/update', { body: { where: { id: 1 }, data: { hidden: true, name: 'a2', tags: { set: [{ id: 1 }] } } } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ rejectedByPolicy: true, reason: 'RESULT_NOT_READABLE' });
    expect(await s.prisma.user.findUnique({ where: { id: 1 } })).toMatchObject({ name: 'a2', hidden: true });
    expect(await tagOwners()).toEqual([1, null]);
});

describe('$transaction/sequential', () => {
    const tx = (body: unknown) => call('POST', '/$transaction/sequential', { body });

    it('an operation whose result is not readable commits with the rest; the answer names it', async () => {
        const res = await tx([
            { model: 'tag', op: 'update', args: { where: { id: 2 }, data: { user: { disconnect: true } } } },
            { model: 'user', op: 'create', args: { data: { id: 5, name: 'h', hidden: true } } },
            { model: 'tag', op: 'create', args: { data: { id: 9, userId: 5 } } },
        ]);
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ rejectedByPolicy: true, reason: 'RESULT_NOT_READABLE', unreadableOperation: 1 });
        expect(res.body.error.failedOperation).toBeUndefined();
        expect(await s.prisma.user.findUnique({ where: { id: 5 } })).toMatchObject({ name: 'h' });
        expect(await tagOwners()).toEqual([1, null, 5]);
    });

    it('a later failure still rolls everything back, the unreadable write included', async () => {
        const res = await tx([
            { model: 'user', op: 'create', args: { data: { id: 5, name: 'h', hidden: true } } },
            { model: 'tag', op: 'create', args: { data: { id: 1 } } }, // the id exists: unique violation
        ]);
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'P2002', failedOperation: 1 });
        expect(await s.prisma.user.findUnique({ where: { id: 5 } })).toBeNull();
        expect(await tagOwners()).toEqual([1, 1]);
    });
});
