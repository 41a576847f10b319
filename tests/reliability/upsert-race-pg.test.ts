import { RestApiHandler } from '../../src/api/rest';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcCaller } from '../rpc/support';

/**
 * Upserts of one key sent at once, on PostgreSQL (SQLite runs one write at a time): each finds no record, each
 * creates, and every create but the first fails on the unique key, although an update was all it needed. Such an
 * upsert runs again (Prisma's documentation says to retry it), so every request succeeds and one row is left.
 * Before, some of twenty answered 400 P2002 (RPC) or 409 (JSON:API); 2.22.3 has the same race.
 */

const COUNTERS = `
model Counter {
  id    Int    @id @default(autoincrement())
  key   String @unique
  value Int
  @@allow('all', true)
}
`;

const PARALLEL = 20;

describePg('upserts of one key at once', () => {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(COUNTERS, { provider: 'postgresql' });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it('RPC: every one succeeds, one row is left', async () => {
        if (!s) return;
        const call = rpcCaller(s);
        for (let round = 0; round < 5; round++) {
            const key = `rpc-${round}`;
            const answers = await Promise.all(
                Array.from({ length: PARALLEL }, (_, i) => call('POST', '/counter/upsert', { body: { where: { key }, create: { key, value: i }, update: { value: i } } })),
            );
            expect(answers.map((a) => a.status).filter((st) => st !== 200 && st !== 201)).toEqual([]);
            expect(await s.prisma.counter.count({ where: { key } })).toBe(1);
        }
    });

    it('JSON:API: every one succeeds, one row is left', async () => {
        if (!s) return;
        const handle = RestApiHandler({ endpoint: 'http://localhost/api' });
        for (let round = 0; round < 5; round++) {
            const key = `rest-${round}`;
            const answers = await Promise.all(
                Array.from({ length: PARALLEL }, (_, i) =>
                    handle({
                        method: 'POST',
                        path: '/counter',
                        query: {},
                        requestBody: { data: { type: 'counter', attributes: { key, value: i } }, meta: { operation: 'upsert', matchFields: ['key'] } },
                        prisma: s!.enhance(),
                        modelMeta: s!.modelMeta,
                        logger: null,
                    }),
                ),
            );
            expect(answers.map((a) => a.status).filter((st) => st !== 200 && st !== 201)).toEqual([]);
            expect(await s.prisma.counter.count({ where: { key } })).toBe(1);
        }
    });
});

/**
 * The same race inside other writes: a nested `connectOrCreate` or `upsert` of a new key, and an upsert in a
 * `$transaction/sequential`. All but the first of those sent at once answered 400 (P2002 on the key, or P2014:
 * a nested to-one upsert's create met the profile another request had made and would not detach it from its
 * required user); such a call, or the transaction holding it, runs again.
 */
describePg('nested upserts and connectOrCreates of one key at once', () => {
    let s: TestSchema | undefined;
    const users: number[] = [];
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        // ids from the sequence: the users the connectOrCreates make take the next ones
        for (let u = 1; u <= 8; u++) users.push((await s.prisma.user.create({ data: { email: `u${u}@x` } })).id);
    });
    afterAll(async () => {
        await s?.cleanup();
    });
    // the failures, with their ORM codes
    const failures = (answers: { status: number; body: { error?: { code?: string } } }[]) =>
        answers.filter((a) => a.status !== 200 && a.status !== 201).map((a) => `${a.status} ${a.body.error?.code}`);

    it('connectOrCreate: every create succeeds, linked to one new user', async () => {
        if (!s) return;
        const call = rpcCaller(s, { user: { id: users[0] } });
        for (let round = 0; round < 3; round++) {
            const email = `new-${round}@x`;
            const answers = await Promise.all(
                Array.from({ length: PARALLEL / 2 }, () => call('POST', '/allTypes/create', { body: { data: { owner: { connectOrCreate: { where: { email }, create: { email } } } } } })),
            );
            expect(failures(answers)).toEqual([]);
            const [owner] = await s.prisma.user.findMany({ where: { email } });
            expect(await s.prisma.allTypes.count({ where: { ownerId: owner.id } })).toBe(PARALLEL / 2);
        }
    });

    it('a nested to-one upsert: every update succeeds, one profile', async () => {
        if (!s) return;
        for (const u of users.slice(1, 7)) {
            const call = rpcCaller(s, { user: { id: u } });
            const upsert = (i: number) => ({ where: { id: u }, data: { profile: { upsert: { create: { gender: `g${i}` }, update: { gender: `g${i}` } } } } });
            const answers = await Promise.all(Array.from({ length: PARALLEL / 2 }, (_, i) => call('PUT', '/user/update', { body: upsert(i) })));
            expect(failures(answers)).toEqual([]);
            expect(await s.prisma.profile.count({ where: { userId: u } })).toBe(1);
        }
    });

    it('an upsert in $transaction/sequential: every transaction succeeds, each counted once', async () => {
        if (!s) return;
        const call = rpcCaller(s, { user: { id: users[7] } });
        for (let round = 0; round < 3; round++) {
            const id = `seq-${round}`;
            const body = [{ model: 'allTypes', op: 'upsert', args: { where: { id }, create: { id, int: 1 }, update: { int: { increment: 1 } } } }];
            const answers = await Promise.all(Array.from({ length: PARALLEL / 2 }, () => call('POST', '/$transaction/sequential', { body })));
            expect(failures(answers)).toEqual([]);
            expect((await s.prisma.allTypes.findUnique({ where: { id } })).int).toBe(PARALLEL / 2);
        }
    });
});
