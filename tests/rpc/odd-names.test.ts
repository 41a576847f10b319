import { loadSchema, type TestSchema } from '../support/schema';
import { ODD_NAMES_SCHEMA, seedBadges } from '../support/odd-names-schema';
import { encodeQuery, rpcCaller, type RpcCaller } from './support';

/**
 * The RPC handler on a schema of names that collide with JavaScript, JSON:API and Prisma's own argument keys
 * (`tests/support/odd-names-schema.ts`): every model is reachable under its client key, and fields named like
 * operators are fields.
 */

let s: TestSchema;
let call: RpcCaller;

beforeAll(async () => {
    s = await loadSchema(ODD_NAMES_SCHEMA);
    call = rpcCaller(s);
    await s.prisma.constructor.create({ data: { id: 1, name: 'c1' } });
    await s.prisma.notification.create({ data: { id: 'n1', type: 'alert', some: 's', in: 'x', create: 'c', ownerId: 1 } });
    await s.prisma.toString.create({ data: { key: 'a_b/c,d%e f ü', label: 'root' } });
    await s.prisma.toString.create({ data: { key: 'kid', label: 'kid', parentKey: 'a_b/c,d%e f ü' } });
    await s.prisma.hasOwnProperty.create({ data: { a: 'x_y', b: 'z' } });
    await s.prisma.transaction.create({ data: { id: 9223372036854775807n, amount: 1 } });
    await s.prisma.transaction.create({ data: { id: -9223372036854775808n, amount: 2 } });
    await seedBadges(s);
});

afterAll(async () => {
    await s?.cleanup();
});

describe('models named like members of Object.prototype, and Transaction', () => {
    it('reads, writes and nests them under their client keys', async () => {
        const created = await call('POST', '/constructor/create', { body: { data: { name: 'c2', notifications: { create: [{ type: 'made' }] } }, include: { notifications: true } } });
        expect([created.status, created.body.data.name, created.body.data.notifications.map((n: { type: string }) => n.type)]).toEqual([201, 'c2', ['made']]);
        const listed = await call('GET', '/constructor/findMany', encodeQuery({ where: { id: 1 }, include: { notifications: { select: { id: true } } } }));
        expect(listed.body.data).toEqual([{ id: 1, name: 'c1', notifications: [{ id: 'n1' }] }]);
        // onDelete: SetNull keeps the notification, without its owner
        const made = created.body.data.notifications[0].id;
        expect((await call('DELETE', '/constructor/delete', encodeQuery({ where: { id: created.body.data.id } }))).status).toBe(200);
        expect(await s.prisma.notification.findUnique({ where: { id: made }, select: { ownerId: true } })).toEqual({ ownerId: null });

        const tree = await call('GET', '/toString/findUnique', encodeQuery({ where: { key: 'a_b/c,d%e f ü' }, include: { children: true } }));
        expect(tree.body.data).toEqual({ key: 'a_b/c,d%e f ü', label: 'root', parentKey: null, children: [{ key: 'kid', label: 'kid', parentKey: 'a_b/c,d%e f ü' }] });
        const pair = await call('GET', '/hasOwnProperty/findUnique', encodeQuery({ where: { pair: { a: 'x_y', b: 'z' } } }));
        expect(pair.body.data).toEqual({ a: 'x_y', b: 'z', note: null });
        const updated = await call('PUT', '/hasOwnProperty/update', { body: { where: { pair: { a: 'x_y', b: 'z' } }, data: { note: 'n' } } });
        expect([updated.status, updated.body.data.note]).toEqual([200, 'n']);
        // a unique violation names the field, not its @map column (pk), in a transaction too
        const again = await call('POST', '/toString/create', { body: { data: { key: 'kid', label: 'again' } } });
        expect([again.status, again.body.error.message]).toEqual([400, 'unique constraint violated on (key)']);
        const batch = await call('POST', '/$transaction/sequential', { body: [{ model: 'toString', op: 'create', args: { data: { key: 'kid', label: 'again' } } }] });
        expect([batch.status, batch.body.error.message]).toEqual([400, 'unique constraint violated on (key)']);
    });

    it('a model named Transaction is /transaction, beside the /$transaction route', async () => {
        const rows = await call('GET', '/transaction/findMany', encodeQuery({ orderBy: { id: 'asc' } }));
        expect(rows.body.data).toEqual([
            { id: '-9223372036854775808', amount: 2 },
            { id: '9223372036854775807', amount: 1 },
        ]);
        const batch = await call('POST', '/$transaction/sequential', {
            body: [
                { model: 'transaction', op: 'count', args: {} },
                { model: 'constructor', op: 'count', args: { where: { id: 1 } } },
                { model: 'toString', op: 'count', args: {} },
                { model: 'hasOwnProperty', op: 'findMany', args: { select: { a: true } } },
            ],
        });
        expect([batch.status, batch.body.data]).toEqual([200, [2, 1, 2, [{ a: 'x_y' }]]]);
    });

    it('a model with an Unsupported("…") field is read and written without it', async () => {
        const created = await call('POST', '/error/create', { body: { data: { id: 1, message: 'one' } } });
        expect([created.status, created.body.data]).toEqual([201, { id: 1, message: 'one' }]);
        const listed = await call('GET', '/error/findMany', encodeQuery({ where: { message: 'one' } }));
        expect(listed.body.data).toEqual([{ id: 1, message: 'one' }]);
    });

    it('a cascade through a self-relation deletes the subtree', async () => {
        await s.prisma.toString.create({ data: { key: 'gone', label: 'g', children: { create: [{ key: 'gone/kid', label: 'k' }] } } });
        const res = await call('DELETE', '/toString/delete', encodeQuery({ where: { key: 'gone' } }));
        expect(res.status).toBe(200);
        expect(await s.prisma.toString.count({ where: { key: { startsWith: 'gone' } } })).toBe(0);
    });
});

describe('fields named like Prisma operators and JSON:API members', () => {
    it('are fields in filters, selections and writes', async () => {
        const found = await call('GET', '/notification/findMany', encodeQuery({ where: { some: 's', in: { in: ['x'] }, create: 'c' }, select: { id: true, type: true, some: true } }));
        expect(found.body.data).toEqual([{ id: 'n1', type: 'alert', some: 's' }]);
        const created = await call('POST', '/notification/create', { body: { data: { type: 'T', some: 'new', create: 'made', in: 'y', meta: 'm', data: 'd' } } });
        expect(created.status).toBe(201);
        expect(created.body.data).toMatchObject({ type: 'T', some: 'new', create: 'made', in: 'y', meta: 'm', data: 'd', kind: 'ALERT' });
        const grouped = await call('GET', '/notification/groupBy', encodeQuery({ by: ['type'], where: { id: { in: ['n1', created.body.data.id] } }, orderBy: { type: 'asc' }, _count: { _all: true } }));
        expect(grouped.body.data).toEqual([
            { type: 'T', _count: { _all: 1 } },
            { type: 'alert', _count: { _all: 1 } },
        ]);
    });

    it('a to-one relation filter naming a read-protected field beside a field called "some" is refused under OR', async () => {
        // `badge: { some, secret }` is Badge's own conditions: `some` is a field there, not an operator.
        // ZenStack does not guard `secret` under OR, so the answer told whether a guess of it was right.
        for (const secret of ['pw', 'nope']) {
            const res = await call('GET', '/holder/findMany', encodeQuery({ where: { OR: [{ badge: { some: 's', secret } }] } }));
            expect([secret, res.status, res.body.error?.message]).toEqual([secret, 400, expect.stringMatching(/"secret" of Badge/)]);
        }
        const byIs = await call('GET', '/holder/findMany', encodeQuery({ where: { OR: [{ badge: { is: { is: 'gold' } } }] } }));
        expect([byIs.status, byIs.body.error?.message]).toEqual([400, expect.stringMatching(/"is" of Badge/)]);
    });

    it('a falsy condition on a read-protected field beside a field called "some" matches no row the user cannot read', async () => {
        // where ZenStack guards the filter, it skips a falsy condition on a protected field; the handler gives it
        // the guarded form, also when the relation filter has a key named like an operator
        const empty = await call('GET', '/holder/findMany', encodeQuery({ where: { badge: { some: 's2', secret: '' } } }));
        expect([empty.status, empty.body.data]).toEqual([200, []]);
        const plain = await call('GET', '/holder/findMany', encodeQuery({ where: { badge: { some: 's2' } }, select: { id: true } }));
        expect(plain.body.data).toEqual([{ id: 2 }]);
    });

    it('`is: null` beside conditions on a read-protected field is refused: ZenStack then guards only its `is`', async () => {
        // a badge whose field "is" is null: `badge: { is: null, secret }` reads as Badge's own conditions, where
        // ZenStack, seeing an `is`, guards nothing, so the answer told whether a guess of the secret was right
        await s.prisma.badge.create({ data: { id: 3, is: null, some: 's3', secret: 'hidden' } });
        await s.prisma.holder.create({ data: { id: 3, badgeId: 3 } });
        try {
            for (const secret of ['hidden', 'nope']) {
                for (const where of [{ badge: { is: null, secret } }, { badge: { isNot: null, secret } }, { badge: { isNot: null, some: 's3', OR: [{ secret }] } }]) {
                    const res = await call('GET', '/holder/count', encodeQuery({ where }));
                    expect([where, res.status, res.body.error?.message]).toEqual([where, 400, expect.stringMatching(/of Badge cannot be used for filtering/)]);
                }
            }
        } finally {
            await s.prisma.holder.delete({ where: { id: 3 } });
            await s.prisma.badge.delete({ where: { id: 3 } });
        }
    });

    it('a to-one filter that names a field "is" with a plain value is a 400 saying so, as 2.x cannot run it either', async () => {
        const res = await call('GET', '/holder/findMany', encodeQuery({ where: { badge: { is: 'gold' } } }));
        expect([res.status, res.body.error.message]).toEqual([400, expect.stringMatching(/where\.badge\.is/)]);
    });
});
