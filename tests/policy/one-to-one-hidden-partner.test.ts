import { RestApiHandler } from '../../src/api/rest';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller } from '../rpc/support';

/**
 * A one-to-one partner the user cannot read is still detached only under its update rule, in both
 * protocols: linking another profile to a user whose current profile is hidden and locked is refused
 * and changes nothing; a hidden partner that may be updated is detached as any other.
 */

const SCHEMA = `
model User {
  id      Int      @id
  profile Profile?
  @@allow('all', true)
}

model Profile {
  id     Int     @id
  user   User?   @relation(fields: [userId], references: [id])
  userId Int?    @unique
  secret Boolean @default(false)
  locked Boolean @default(false)
  @@allow('read', !secret)
  @@allow('create,delete', true)
  @@allow('update', !locked)
}
`;

let s: TestSchema;
beforeEach(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.profile.createMany({
        data: [
            { id: 1, userId: 1, secret: true, locked: true },
            { id: 2, userId: 2, secret: true },
            { id: 3 },
            { id: 4 },
        ],
    });
});
afterEach(() => s.cleanup());

const owners = async () => (await s.prisma.profile.findMany({ orderBy: { id: 'asc' } })).map((p: { userId: number | null }) => p.userId);
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
const restLink = (user: number, profile: number) =>
    rest({ method: 'PATCH', path: `/user/${user}/relationships/profile`, query: {}, requestBody: { data: { type: 'profile', id: String(profile) } }, prisma: s.enhance({ id: user }), modelMeta: s.modelMeta, logger: null });
const rpcLink = (user: number, profile: unknown) => rpcCaller(s, { user: { id: user } })('PUT', '/user/update', { body: { where: { id: user }, data: { profile } } });

it('RPC: a hidden locked partner is not detached (403); a hidden one that may be updated is', async () => {
    for (const profile of [{ connect: { id: 3 } }, { create: { id: 9 } }]) {
        expect((await rpcLink(1, profile)).status).toBe(403);
        expect(await owners()).toEqual([1, 2, null, null]);
    }
    expect((await rpcLink(2, { connect: { id: 3 } })).status).toBe(200);
    expect(await owners()).toEqual([1, null, 2, null]);
});

it('REST: a hidden locked partner is not detached (403); a hidden one that may be updated is', async () => {
    expect((await restLink(1, 3)).status).toBe(403);
    expect(await owners()).toEqual([1, 2, null, null]);
    expect((await restLink(2, 3)).status).toBe(200);
    expect(await owners()).toEqual([1, null, 2, null]);
});
