import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * ZenStack 2.22 decides a create rule naming only the record's own fields from the create's data alone, comparing
 * the values as sent: a DateTime sent as an ISO string without a `Date` tag (Prisma takes it) compared with `now()`
 * as NaN, so `@@deny('create', startsAt < now())` never fired and 2.x created the record (a top-level `create`,
 * `createMany`, `createManyAndReturn`; nested creates and an upsert's create were refused already, checked here
 * alongside). The RPC handler sends the DateTime strings of write data as `Date`s, wherever they are written.
 */

const schemaFor = (provider: Provider) => `
model User {
  id Int @id
  @@allow('read', true)
}
model Calendar {
  id     Int     @id
  events Event[]
  @@allow('all', true)
}
model Event {
  id         Int       @id
  startsAt   DateTime
  calendar   Calendar? @relation(fields: [calendarId], references: [id])
  calendarId Int?
  ${provider === 'postgresql' ? 'blackout DateTime[]' : ''}
  @@allow('read', true)
  @@allow('create,update', auth() != null)
  @@deny('create', startsAt < now())
}
`;

const PAST = '2001-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T12:00:00Z';
const USER = { id: 1 };

function suite(provider: Provider) {
    let s: TestSchema | undefined;
    beforeEach(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(schemaFor(provider), { provider });
        await s.prisma.user.create({ data: USER });
        await s.prisma.calendar.create({ data: { id: 1 } });
    });
    afterEach(async () => {
        await s?.cleanup();
        s = undefined;
    });

    const events = async () => (await s!.prisma.event.findMany({ orderBy: { id: 'asc' }, select: { id: true, startsAt: true } })).map((e: { id: number; startsAt: Date }) => [e.id, e.startsAt.toISOString()]);
    const call = (method: string, path: string, body: unknown) => rpcAs(s!, USER, method, path, body);

    it('a past start sent as a plain string is refused by the create rule wherever it is created (403), nothing written', async () => {
        if (!s) return;
        const attempts: Array<[string, string, string, unknown]> = [
            ['create', 'POST', '/event/create', { data: { id: 1, startsAt: PAST } }],
            ['createMany', 'POST', '/event/createMany', { data: [{ id: 1, startsAt: FUTURE }, { id: 2, startsAt: PAST }] }],
            ['createManyAndReturn', 'POST', '/event/createManyAndReturn', { data: [{ id: 1, startsAt: PAST }] }],
            ['upsert create', 'POST', '/event/upsert', { where: { id: 1 }, create: { id: 1, startsAt: PAST }, update: {} }],
            ['nested create', 'POST', '/calendar/create', { data: { id: 2, events: { create: { id: 1, startsAt: PAST } } } }],
            ['nested createMany', 'PUT', '/calendar/update', { where: { id: 1 }, data: { events: { createMany: { data: [{ id: 1, startsAt: PAST }] } } } }],
            ['nested upsert create', 'PUT', '/calendar/update', { where: { id: 1 }, data: { events: { upsert: { where: { id: 1 }, create: { id: 1, startsAt: PAST }, update: {} } } } }],
            ['connectOrCreate', 'PUT', '/calendar/update', { where: { id: 1 }, data: { events: { connectOrCreate: { where: { id: 1 }, create: { id: 1, startsAt: PAST } } } } }],
        ];
        for (const [name, method, path, body] of attempts) {
            const res = await call(method, path, body);
            expect({ name, status: res.status }).toEqual({ name, status: 403 });
            expect(await events()).toEqual([]);
        }
        const sequential = await call('POST', '/$transaction/sequential', [{ model: 'event', op: 'create', args: { data: { id: 1, startsAt: PAST } } }]);
        expect(sequential.status).toBe(403);
        const zod = await rpcAs(s, USER, 'POST', '/event/create', { data: { id: 1, startsAt: PAST } }, { zod: true });
        expect(zod.status).toBe(403);
        expect(await events()).toEqual([]);
    });

    it('only a past start is refused: a future one is created as before, answered as a tagged Date is; updates and string filters work as before', async () => {
        if (!s) return;
        expect((await call('POST', '/event/create', { data: { id: 3, startsAt: PAST } })).status).toBe(403);
        const plain = await call('POST', '/event/create', { data: { id: 1, startsAt: FUTURE } });
        const tagged = await call('POST', '/event/create', { data: { id: 2, startsAt: FUTURE }, meta: { serialization: { values: { 'data.startsAt': ['Date'] } } } });
        expect(plain.status).toBe(201);
        expect({ ...plain.body, data: { ...plain.body.data, id: 2 } }).toEqual(tagged.body);
        // the past is refused on create only: an update may move a start there (strings in data and in filters)
        const moved = await call('PUT', '/event/updateMany', { where: { startsAt: { gte: '2098-12-31T00:00:00Z' } }, data: { startsAt: { set: PAST } } });
        expect(moved.body.data).toEqual({ count: 2 });
        const back = await call('POST', '/event/upsert', { where: { id: 1 }, create: { id: 1, startsAt: PAST }, update: { startsAt: '2099-01-01 12:00:00+02:00' } });
        expect(back.status).toBe(200);
        const found = await call('GET', '/event/findMany', { where: { startsAt: { lt: '2050-01-01T00:00:00Z' } }, select: { id: true } });
        expect(found.body.data).toEqual([{ id: 2 }]);
        expect(await events()).toEqual([
            [1, '2099-01-01T10:00:00.000Z'],
            [2, PAST],
        ]);
        // a string Prisma does not read as a date-time is refused by Prisma as before (400), not read otherwise
        for (const startsAt of ['2099-01-01', '2099-01-01T12:00Z', '2099-02-30T00:00:00Z', '2099-01-01T24:00:00Z']) {
            const res = await call('POST', '/event/create', { data: { id: 3, startsAt } });
            expect({ startsAt, status: res.status }).toEqual({ startsAt, status: 400 });
        }
    });

    if (provider === 'postgresql') {
        it('a DateTime list is written from strings as before (create, set, push)', async () => {
            if (!s) return;
            const created = await call('POST', '/event/create', { data: { id: 1, startsAt: PAST, blackout: [FUTURE] } });
            expect(created.status).toBe(403);
            const ok = await call('POST', '/event/create', { data: { id: 1, startsAt: FUTURE, blackout: [FUTURE, '2099-06-01T00:00:00.5+01:00'] } });
            expect(ok.status).toBe(201);
            const pushed = await call('PUT', '/event/update', { where: { id: 1 }, data: { blackout: { push: PAST } } });
            expect(pushed.status).toBe(200);
            const blackout = async () => (await s!.prisma.event.findUnique({ where: { id: 1 } })).blackout.map((d: Date) => d.toISOString());
            expect(await blackout()).toEqual(['2099-01-01T12:00:00.000Z', '2099-05-31T23:00:00.500Z', PAST]);
            const set = await call('PUT', '/event/update', { where: { id: 1 }, data: { blackout: { set: [PAST] } } });
            expect(set.status).toBe(200);
            expect(await blackout()).toEqual([PAST]);
        });
    }
}

describe('RPC create rules on DateTime values sent as strings [sqlite]', () => suite('sqlite'));
describePg('RPC create rules on DateTime values sent as strings', () => suite('postgresql'));
