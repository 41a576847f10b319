import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * ZenStack 2.x leaves unchecked what the `create` of a `connectOrCreate` writes beyond the record it creates
 * (under a create): a profile created for the new user whatever the profile's create rule, other users'
 * `managerId` rewritten by `reports: { connect }`. The RPC handler refuses those writes there (400).
 */

const SCHEMA = `
model User {
  id        Int      @id
  manager   User?    @relation("manages", fields: [managerId], references: [id])
  managerId Int?
  reports   User[]   @relation("manages")
  profile   Profile?
  @@allow('read,create', true)
  @@allow('update', auth() == this)
}
model Profile {
  id     Int  @id @default(autoincrement())
  user   User @relation(fields: [userId], references: [id])
  userId Int  @unique
  @@allow('read', true)
  @@allow('create', auth() == user)
}
`;

describe('RPC connectOrCreate: nested writes the ORM does not check', () => {
    let s: TestSchema;
    beforeEach(async () => {
        s = await loadSchema(SCHEMA);
        for (const id of [1, 2]) await s.prisma.user.create({ data: { id } });
    });
    afterEach(() => s?.cleanup());

    const state = async () => ({
        users: await s.prisma.user.findMany({ orderBy: { id: 'asc' }, select: { id: true, managerId: true } }),
        profiles: await s.prisma.profile.count(),
    });
    const create = (data: unknown) => rpcAs(s, { id: 2 }, 'POST', '/user/create', { data });

    it('refuses nested creates and links that change other records inside its create (400), writing nothing', async () => {
        const before = await state();
        for (const inner of [{ profile: { create: {} } }, { reports: { connect: [{ id: 1 }] } }, { manager: { create: { id: 10 } } }]) {
            const res = await create({ id: 8, manager: { connectOrCreate: { where: { id: 9 }, create: { id: 9, ...inner } } } });
            expect({ inner, status: res.status, message: res.body.error?.message }).toEqual({ inner, status: 400, message: expect.stringMatching(/connectOrCreate on relation "manager"/) });
            expect(await state()).toEqual(before);
        }
    });

    it('takes a link through a key the new record holds, and a connectOrCreate without nested writes', async () => {
        const res = await create({ id: 8, manager: { connectOrCreate: { where: { id: 9 }, create: { id: 9, manager: { connect: { id: 2 } } } } } });
        expect(res.status).toBe(201);
        const found = await create({ id: 7, manager: { connectOrCreate: { where: { id: 1 }, create: { id: 1 } } } });
        expect(found.status).toBe(201);
        expect((await state()).users).toEqual([
            { id: 1, managerId: null },
            { id: 2, managerId: null },
            { id: 7, managerId: 1 },
            { id: 8, managerId: 9 },
            { id: 9, managerId: 2 },
        ]);
    });
});
