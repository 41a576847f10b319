import { RestApiHandler } from '../../src/api/rest';
import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs, type Res } from './rpc-call';

/**
 * Field-level read overrides (`@allow('read', condition, true)`). ZenStack matches a filter made only of
 * overridden fields on every row where those fields are readable, including rows the model's read rule hides.
 * A count of those rows is what the user can read (a findMany selecting only those fields lists them), but
 * grouping them, aggregating their other fields or counting them in a JSON:API total whose pages never show
 * them reveals records the user may not read.
 */

const SCHEMA = `
model Dept {
  id   Int   @id
  emps Emp[]
  @@allow('all', true)
}

model Emp {
  id     Int     @id
  name   String
  nick   String?
  salary Int     @allow('read', true, true)
  bonus  Int     @default(0) @allow('read', auth().id == 1, true)
  dept   Dept    @relation(fields: [deptId], references: [id])
  deptId Int
  @@allow('read', auth().id == id)
  @@allow('create', true)
}

model User {
  id Int @id
  @@allow('all', true)
}
`;

let s: TestSchema;
const BOB = { id: 2 };
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.dept.create({ data: { id: 1 } });
    await s.prisma.emp.createMany({
        data: [
            { id: 1, name: 'alice', nick: 'al', salary: 100, bonus: 500, deptId: 1 },
            { id: 2, name: 'bob', salary: 50, deptId: 1 },
            { id: 3, name: 'carol', nick: 'cc', salary: 300, deptId: 1 },
        ],
    });
});

afterAll(async () => {
    await s.cleanup();
});

const rpc = (path: string, args: unknown) => rpcAs(s, BOB, 'GET', path, args);

async function get(path: string, query: Record<string, string>): Promise<Res> {
    const res = await rest({ method: 'GET', path, query, prisma: s.enhance(BOB), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}

describe('RPC aggregates over a filter of overridden fields', () => {
    it('groupBy lists only the groups of records Bob may read', async () => {
        const res = await rpc('/emp/groupBy', { by: ['name'], where: { salary: { gt: 0 } }, _count: true, orderBy: { name: 'asc' } });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([{ name: 'bob', _count: 1 }]);
        expect(res.text).not.toMatch(/alice|carol/);
    });

    it('aggregates of other fields come from records Bob may read', async () => {
        const res = await rpc('/emp/aggregate', { where: { salary: { gt: 0 } }, _max: { name: true, id: true }, _count: true });
        expect(res.body.data).toEqual({ _max: { name: 'bob', id: 2 }, _count: 1 });
    });

    it('a count of another field counts records Bob may read', async () => {
        const res = await rpc('/emp/count', { where: { salary: { gt: 0 } }, select: { _all: true, nick: true } });
        expect(res.body.data).toEqual({ _all: 1, nick: 0 });
        const aggregated = await rpc('/emp/aggregate', { where: { salary: { gt: 0 } }, _count: { nick: true } });
        expect(aggregated.body.data).toEqual({ _count: { nick: 0 } });
    });

    it('a count of rows is ZenStack’s: the rows whose overridden field Bob may read', async () => {
        expect((await rpc('/emp/count', { where: { salary: { gt: 60 } } })).body.data).toBe(2);
        const listed = await rpc('/emp/findMany', { where: { salary: { gt: 60 } }, select: { salary: true } });
        expect(listed.body.data).toEqual(expect.arrayContaining([{ salary: 100 }, { salary: 300 }]));
        expect(listed.body.data).toHaveLength(2);
    });
});

describe('RPC nested reads over a filter of overridden fields', () => {
    it.each([
        ['include', { include: { emps: { where: { salary: { gt: 0 } } } } }],
        ['select', { select: { emps: { where: { salary: { gt: 0 } }, select: { id: true, name: true } } } }],
        ['a nested include', { include: { emps: { where: { id: 2 }, include: { dept: { include: { emps: { where: { salary: { gt: 0 } } } } } } } } }],
    ])('returns only the related records Bob may read (%s)', async (_name, args) => {
        const res = await rpc('/dept/findMany', args);
        expect(res.status).toBe(200);
        expect(res.text).toMatch(/bob/);
        expect(res.text).not.toMatch(/alice|carol|"al"|"cc"/);
    });

    it('a selection of overridden fields alone still reads them on every record, as ZenStack does', async () => {
        const res = await rpc('/dept/findUnique', { where: { id: 1 }, select: { emps: { where: { salary: { gt: 60 } }, select: { salary: true } } } });
        expect(res.body.data.emps).toEqual(expect.arrayContaining([{ salary: 100 }, { salary: 300 }]));
        expect(res.body.data.emps).toHaveLength(2);
    });
});

describe('RPC reads selecting only overridden fields, filtered, ordered or paged by others', () => {
    const salaries = { select: { salary: true } };

    it('a filter on a field Bob may not read matches only records he may read', async () => {
        expect((await rpc('/emp/findMany', { ...salaries, where: { name: 'alice' } })).body.data).toEqual([]);
        expect((await rpc('/emp/findMany', { ...salaries, where: { name: { startsWith: 'ali' } } })).body.data).toEqual([]);
        expect((await rpc('/emp/findMany', { ...salaries, where: { OR: [{ name: 'alice' }, { nick: 'cc' }] } })).body.data).toEqual([]);
        expect((await rpc('/emp/findFirst', { ...salaries, where: { name: 'alice' } })).body.data).toBeNull();
        expect((await rpc('/emp/findUnique', { ...salaries, where: { id: 1, name: 'alice' } })).body.data).toBeNull();
        expect((await rpc('/emp/findMany', { ...salaries, where: { deptId: 1 } })).body.data).toEqual([{ salary: 50 }]);
        // Bob's own record, answered without the field added to keep the rule
        const own = await rpc('/emp/findMany', { ...salaries, where: { name: 'bob' } });
        expect([own.status, own.body.data]).toEqual([200, [{ salary: 50 }]]);
    });

    it('a filter on another overridden field, whose override Bob does not meet, matches only records he may read', async () => {
        // Alice's bonus (500) is hers to read; the salary's override shows every salary
        for (const bonus of [500, 501]) {
            expect([bonus, (await rpc('/emp/findMany', { ...salaries, where: { bonus } })).body.data]).toEqual([bonus, []]);
            expect([bonus, (await rpc('/emp/findMany', { ...salaries, where: { bonus: { gte: bonus } } })).body.data]).toEqual([bonus, []]);
        }
        expect((await rpc('/emp/findMany', { ...salaries, where: { bonus: 0 } })).body.data).toEqual([{ salary: 50 }]);
    });

    it('ordering, distinct and a cursor by such a field see only records Bob may read', async () => {
        expect((await rpc('/emp/findMany', { ...salaries, orderBy: { name: 'asc' } })).body.data).toEqual([{ salary: 50 }]);
        expect((await rpc('/emp/findMany', { ...salaries, distinct: ['name'] })).body.data).toEqual([{ salary: 50 }]);
        // from Bob's own record, ordered by name: the names after his would be spelled out by renaming himself
        const after = await rpc('/emp/findMany', { ...salaries, orderBy: [{ name: 'asc' }, { id: 'asc' }], cursor: { id: 2 } });
        expect(after.body.data).toEqual([{ salary: 50 }]);
        const counted = await rpc('/emp/count', { where: { salary: { gt: 0 } }, orderBy: [{ name: 'asc' }, { id: 'asc' }], cursor: { id: 2 } });
        expect(counted.body.data).toBe(1);
    });

    it('relations selected beside them are read only from records Bob may read', async () => {
        expect((await rpc('/emp/findMany', { select: { salary: true, dept: { select: { id: true } } } })).body.data).toEqual([{ salary: 50, dept: { id: 1 } }]);
        const counted = await rpc('/dept/findUnique', { where: { id: 1 }, select: { emps: { select: { salary: true, dept: { select: { id: true } } } } } });
        expect(counted.body.data).toEqual({ emps: [{ salary: 50, dept: { id: 1 } }] });
        // a relation selected with `true` is one ZenStack counts itself: the rule holds there already
        expect((await rpc('/emp/findMany', { select: { salary: true, dept: true } })).body.data).toEqual([{ salary: 50, dept: { id: 1 } }]);
    });

    it('a nested read of them keeps the rule the same way', async () => {
        const res = await rpc('/dept/findUnique', { where: { id: 1 }, select: { emps: { where: { name: 'alice' }, select: { salary: true } } } });
        expect(res.body.data).toEqual({ emps: [] });
        const ordered = await rpc('/dept/findMany', { include: { emps: { orderBy: { name: 'desc' }, select: { salary: true } } } });
        expect(ordered.body.data).toEqual([{ id: 1, emps: [{ salary: 50 }] }]);
    });

    it('by ids and by overridden fields they are still read on every record, as ZenStack does', async () => {
        expect((await rpc('/emp/findUnique', { ...salaries, where: { id: 1 } })).body.data).toEqual({ salary: 100 });
        expect((await rpc('/emp/findMany', { ...salaries, orderBy: { id: 'asc' }, cursor: { id: 2 } })).body.data).toEqual([{ salary: 50 }, { salary: 300 }]);
        // a cursor by id on a record the read lists (it was looked up under the model's rule: an empty page, 2.22.3 pages on)
        expect((await rpc('/emp/findMany', { ...salaries, orderBy: { id: 'asc' }, cursor: { id: 1 } })).body.data).toEqual([{ salary: 100 }, { salary: 50 }, { salary: 300 }]);
        const nested = await rpc('/dept/findUnique', { where: { id: 1 }, select: { emps: { ...salaries, orderBy: { id: 'asc' }, cursor: { id: 3 } } } });
        expect(nested.body.data).toEqual({ emps: [{ salary: 300 }] });
        // a cursor on no record is still an empty page
        expect((await rpc('/emp/findMany', { ...salaries, orderBy: { id: 'asc' }, cursor: { id: 9 } })).body.data).toEqual([]);
        expect((await rpc('/emp/findMany', { ...salaries, where: { salary: { gt: 60 } }, orderBy: { id: 'desc' } })).body.data).toEqual([{ salary: 300 }, { salary: 100 }]);
        expect((await rpc('/emp/findMany', { ...salaries, where: { id: { in: [1, 3] } }, distinct: ['id'] })).body.data).toEqual([{ salary: 100 }, { salary: 300 }]);
    });
});

describe('JSON:API totals over a filter of overridden fields', () => {
    it('meta.total counts the records the pages show', async () => {
        const res = await get('/emp', { 'filter[salary$gt]': '0', 'page[limit]': '1' });
        expect(res.status).toBe(200);
        expect(res.body.data.map((r: { id: number }) => r.id)).toEqual([2]);
        expect(res.body.meta.total).toBe(1);
        expect(res.body.links.next).toBeNull();
    });

    it.each(['/dept/1/emps', '/dept/1/relationships/emps'])('%s lists and counts only the records Bob may read', async (path) => {
        const res = await get(path, { 'filter[salary$gt]': '0', 'page[limit]': '1' });
        expect(res.status).toBe(200);
        expect(res.body.data.map((r: { id: number }) => r.id)).toEqual([2]);
        expect(res.body.meta.total).toBe(1);
        expect(res.text).not.toMatch(/alice|carol/);
    });
});
