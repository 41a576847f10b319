import { RestApiHandler } from '../../src/api/rest';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A null condition on a to-one relation from the side without the key (`profile: { isNot: null }`, JSON:API
 * `filter[profile$isNull]`) treats a related record the caller cannot read as none, as `include` answers it: ZenStack
 * 2.22 adds the related read rule to truthy conditions only, so the null forms told who has a hidden profile.
 */

const SCHEMA = `
model User {
  id      Int      @id
  name    String
  profile Profile?
  @@allow('all', true)
}

model Profile {
  id     Int     @id
  public Boolean @default(false)
  user   User    @relation(fields: [userId], references: [id])
  userId Int     @unique
  @@allow('read', public || auth() == user)
  @@allow('create,update,delete', auth() == user)
}
`;

let s: TestSchema;
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({ data: [{ id: 1, name: 'alice' }, { id: 2, name: 'bob' }, { id: 3, name: 'carol' }] });
    // Alice's profile is hidden from others, Carol's public, Bob has none
    await s.prisma.profile.createMany({ data: [{ id: 1, userId: 1 }, { id: 2, userId: 3, public: true }] });
});

afterAll(async () => {
    await s.cleanup();
});

const ids = (body: { data: Array<{ id: number }> }) => body.data.map((u) => Number(u.id)).sort();

describe.each([
    ['null', null, 'none'],
    ['{ is: null }', { is: null }, 'none'],
    ['{ isNot: null }', { isNot: null }, 'some'],
])('RPC profile: %s', (_name, condition, kind) => {
    it('answers for what the caller can see: a hidden profile is no profile', async () => {
        const find = async (user: number) => ids((await rpcAs(s, { id: user }, 'GET', '/user/findMany', { where: { profile: condition }, select: { id: true } })).body);
        // as Bob: Alice's profile is hidden, so she has none
        expect(await find(2)).toEqual(kind === 'none' ? [1, 2] : [3]);
        // as Alice: she sees her own
        expect(await find(1)).toEqual(kind === 'none' ? [2] : [1, 3]);
        const count = await rpcAs(s, { id: 2 }, 'GET', '/user/count', { where: { id: 1, profile: condition } });
        expect(count.body.data).toBe(kind === 'none' ? 1 : 0);
    });
});

it('JSON:API filter[profile$isNull] answers for what the caller can see', async () => {
    const list = async (value: string, user: number) => {
        const res = await rest({ method: 'GET', path: '/user', query: { 'filter[profile$isNull]': value }, requestBody: undefined, prisma: s.enhance({ id: user }), modelMeta: s.modelMeta, logger: null });
        return ids(res.body as { data: Array<{ id: number }> });
    };
    expect(await list('true', 2)).toEqual([1, 2]);
    expect(await list('false', 2)).toEqual([3]);
    expect(await list('true', 1)).toEqual([2]);
    expect(await list('false', 1)).toEqual([1, 3]);
});
