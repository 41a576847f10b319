import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * A filter made only of fields with a read override (`salary Int @allow('read', true, true)`) made ZenStack let the
 * overrides stand in for the model's update and delete rules in `updateMany`, `updateManyAndReturn` and
 * `deleteMany`: Bob, who may change only his own row, renamed or deleted Alice's (2.22.3 the same). The rules hold.
 */

const SCHEMA = `
model Emp {
  id     Int    @id
  name   String
  salary Int    @allow('read', true, true)
  @@allow('read', auth().id == id)
  @@allow('update,delete', auth().id == id)
  @@allow('create', true)
}

model User {
  id Int @id
  @@allow('all', true)
}
`;

let s: TestSchema;
const BOB = { id: 2 };

beforeEach(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.emp.createMany({ data: [{ id: 1, name: 'alice', salary: 100 }, { id: 2, name: 'bob', salary: 50 }] });
});

afterEach(async () => {
    await s.cleanup();
});

const names = async () => (await s.prisma.emp.findMany({ orderBy: { id: 'asc' }, select: { name: true } })).map((e: { name: string }) => e.name);

describe('writes by a filter on overridden fields keep the update and delete rules', () => {
    it('updateMany changes only the rows the user may update', async () => {
        const res = await rpcAs(s, BOB, 'PUT', '/emp/updateMany', { where: { salary: { gt: 0 } }, data: { name: 'renamed' } });
        expect([res.status, res.body.data]).toEqual([200, { count: 1 }]);
        expect(await names()).toEqual(['alice', 'renamed']);
    });

    it('updateManyAndReturn changes and answers only those rows', async () => {
        const res = await rpcAs(s, BOB, 'PUT', '/emp/updateManyAndReturn', { where: { salary: { gt: 0 } }, data: { name: 'renamed' }, select: { id: true } });
        expect([res.status, res.body.data]).toEqual([200, [{ id: 2 }]]);
        expect(await names()).toEqual(['alice', 'renamed']);
    });

    it('deleteMany deletes only the rows the user may delete', async () => {
        const res = await rpcAs(s, BOB, 'DELETE', '/emp/deleteMany', { where: { salary: { gte: 0 } } });
        expect([res.status, res.body.data]).toEqual([200, { count: 1 }]);
        expect(await names()).toEqual(['alice']);
    });

    it('the same inside $transaction/sequential', async () => {
        const res = await rpcAs(s, BOB, 'POST', '/$transaction/sequential', [
            { model: 'emp', op: 'updateMany', args: { where: { salary: { gt: 0 } }, data: { name: 'renamed' } } },
            { model: 'emp', op: 'deleteMany', args: { where: { salary: { gt: 60 } } } },
        ]);
        expect([res.status, res.body.data]).toEqual([200, [{ count: 1 }, { count: 0 }]]);
        expect(await names()).toEqual(['alice', 'renamed']);
    });

    it('an AND of the request still keeps the rules (it did before)', async () => {
        const res = await rpcAs(s, BOB, 'PUT', '/emp/updateMany', { where: { salary: { gt: 0 }, AND: [{ salary: { lt: 1000 } }] }, data: { name: 'renamed' } });
        expect([res.status, res.body.data]).toEqual([200, { count: 1 }]);
        expect(await names()).toEqual(['alice', 'renamed']);
    });
});
