import { loadSchema, type TestSchema } from '../support/schema';
import { SAAS_SCHEMA, seedSaas } from '../support/saas-schema';
import { rpcAs } from './rpc-call';

/**
 * An update of a record the user cannot read, whose data only unlinks records of a to-many relation that
 * the user cannot read either (or none), or holds only empty lists of nested writes, writes nothing: the
 * nested `disconnect` matches no record the user can see (so does a to-one `disconnect: false`, `delete: false` or `update` with no data). It must answer as the same update of a record that does not exist (404), not 403
 * RESULT_NOT_READABLE, which says that the write happened and so that the record exists. Dave is in no
 * space: he can read no task; task t1 (with children t2 and t3) exists, task tzz does not.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SAAS_SCHEMA);
    await seedSaas(s);
});

afterAll(async () => {
    await s.cleanup();
});

async function update(user: { id: string } | undefined, body: unknown) {
    const { status, text } = await rpcAs(s, user, 'PATCH', '/task/update', body);
    return { status, text };
}

const tasks = () => s.prisma.task.findMany({ orderBy: { id: 'asc' } });

const DATA: [string, unknown][] = [
    ['a disconnect of a child the user cannot read', { children: { disconnect: { id: 't2' } } }],
    ['a disconnect of children the user cannot read, as a list', { children: { disconnect: [{ id: 't2' }, { id: 't3' }] } }],
    ['a disconnect of a child that does not exist', { children: { disconnect: { id: 'tq' } } }],
    ['a disconnect of an empty list', { children: { disconnect: [] } }],
    ['empty lists of every other nested write', { children: { update: [], delete: [], upsert: [], updateMany: [], deleteMany: [], connect: [], create: [] } }],
    ['a createMany of no rows', { children: { createMany: { data: [] } } }],
];

describe.each([
    ['Dave (signed in, in no space)', { id: 'udave' }],
    ['an anonymous user', undefined],
])('as %s', (_who, user) => {
    it.each(DATA)('%s on a hidden task answers as on a missing one, and changes nothing', async (_name, data) => {
        const before = await tasks();
        const hidden = await update(user, { where: { id: 't1' }, data });
        const missing = await update(user, { where: { id: 'tzz' }, data });
        expect(missing.status).toBe(404);
        expect(hidden).toEqual(missing);
        expect(await tasks()).toEqual(before);
    });
});

it('a disconnect the user may make on a task the user can read still runs (Alice, owner of the space)', async () => {
    const res = await update({ id: 'ualice' }, { where: { id: 't1' }, data: { children: { disconnect: { id: 't2' } } }, select: { children: { select: { id: true } } } });
    expect(res).toEqual({ status: 200, text: JSON.stringify({ data: { children: [{ id: 't3' }] } }) });
    expect((await s.prisma.task.findUnique({ where: { id: 't2' } })).parentId).toBeNull();
});

it.each([
    ['disconnect: false', { profile: { disconnect: false } }],
    ['delete: false', { profile: { delete: false } }],
    ['update with no data', { profile: { update: {} } }],
    ['update with no data, in its { where, data } form', { profile: { update: { where: {}, data: {} } } }],
])('a to-one %s on a user an anonymous user cannot read answers as on a missing user', async (_name, data) => {
    const write = async (id: string) => {
        const { status, text } = await rpcAs(s, undefined, 'PATCH', '/user/update', { where: { id }, data });
        return { status, text };
    };
    const before = await s.prisma.profile.findMany();
    const hidden = await write('ualice');
    const missing = await write('unone');
    expect(missing.status).toBe(404);
    expect(hidden).toEqual(missing);
    expect(await s.prisma.profile.findMany()).toEqual(before);
});
