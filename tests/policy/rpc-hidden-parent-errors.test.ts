import { loadSchema, type TestSchema } from '../support/schema';
import { SAAS_SCHEMA, seedSaas } from '../support/saas-schema';
import { rpcAs } from './rpc-call';

/**
 * An update of a record the user cannot read that fails in a nested write answers exactly as the same update
 * of a record that does not exist: the same 404 with the same message. The nested write's own failure (a
 * nested `delete` or `update` naming nothing the user can see: "entity not found for model Task"; unlinking
 * rows a required relation holds: 400 P2014) comes only once the record is found, so it told that the record
 * exists. Dave is in no space: he can read no task and no project.
 */

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SAAS_SCHEMA);
    await seedSaas(s);
});

afterAll(async () => {
    await s.cleanup();
});

async function update(user: { id: string } | undefined, path: string, body: unknown) {
    const { status, text } = await rpcAs(s, user, 'PATCH', path, body);
    return { status, text };
}

const snapshot = async () => [await s.prisma.task.findMany({ orderBy: { id: 'asc' } }), await s.prisma.project.findMany({ orderBy: { id: 'asc' } })];

const TASK_DATA: [string, unknown][] = [
    ['a nested delete of a task the user cannot read', { children: { delete: { id: 't2' } } }],
    ['a nested update of a task the user cannot read', { children: { update: { where: { id: 't2' }, data: { title: 'x' } } } }],
    ['a nested delete of a task that does not exist', { children: { delete: { id: 'tq' } } }],
];

describe.each([
    ['Dave (signed in, in no space)', { id: 'udave' }],
    ['an anonymous user', undefined],
])('as %s', (_who, user) => {
    it.each(TASK_DATA)('%s, in an update of a hidden task, answers as in one of a missing task', async (_name, data) => {
        const before = await snapshot();
        const hidden = await update(user, '/task/update', { where: { id: 't1' }, data });
        const missing = await update(user, '/task/update', { where: { id: 'tzz' }, data });
        expect(missing.status).toBe(404);
        expect(hidden).toEqual(missing);
        expect(await snapshot()).toEqual(before);
    });

    it('unlinking tasks from a hidden project (a required relation) answers as for a missing project', async () => {
        const before = await snapshot();
        const data = { tasks: { disconnect: { id: 't5' } } };
        const hidden = await update(user, '/project/update', { where: { spaceId_key: { spaceId: 'sglobex', key: 'WEB' } }, data });
        const missing = await update(user, '/project/update', { where: { spaceId_key: { spaceId: 'snone', key: 'WEB' } }, data });
        expect(missing.status).toBe(404);
        expect(hidden).toEqual(missing);
        expect(await snapshot()).toEqual(before);
    });
});

it('the nested failure stays as it is for a record the user can read (Alice, owner of acme)', async () => {
    const res = await update({ id: 'ualice' }, '/task/update', { where: { id: 't1' }, data: { children: { delete: { id: 'tq' } } } });
    expect(res.status).toBe(404);
    expect(res.text).toContain('model Task');
    const required = await update({ id: 'ualice' }, '/project/update', { where: { id: 'pweb' }, data: { tasks: { disconnect: { id: 't1' } } } });
    expect(required.status).toBe(400);
    expect(JSON.parse(required.text).error.code).toBe('P2014');
});
