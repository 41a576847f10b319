import { RestApiHandler } from '../../src/api/rest';
import { SAAS_SCHEMA, seedSaas } from '../support/saas-schema';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * A JSON:API write that names a related record the user cannot read answers the 404 of a missing record
 * also when it collides with a unique constraint: a 409 there would tell that the hidden record exists
 * (and holds the colliding value), which the 404 of the same write without a collision denies.
 * In the SaaS schema Dave belongs to no space, so project "pweb" (with tasks numbered 1 to 3) is hidden
 * from him; Bob is a member of its space and may create tasks there.
 */

let s: TestSchema;
const handler = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema(SAAS_SCHEMA);
    await seedSaas(s);
});

afterAll(async () => {
    await s.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function post(path: string, user: string, body: unknown): Promise<{ status: number; body: any }> {
    const res = await handler({ method: 'POST', path, query: {}, requestBody: body, prisma: s.enhance({ id: user }), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body };
}

const taskByLink = (number: number, project: string) => ({
    data: { type: 'task', attributes: { number, title: 'probe' }, relationships: { project: { data: { type: 'project', id: project } } } },
});
const taskByKey = (number: number, projectId: string) => ({ data: { type: 'task', attributes: { number, title: 'probe', projectId } } });

const taskCount = () => s.prisma.task.count();

describe('a unique collision does not reveal a hidden related record', () => {
    it.each([
        ['named by a relationship', taskByLink, '/data/relationships/project/data'],
        ['named by its foreign key attribute', taskByKey, '/data/attributes/projectId'],
    ])('%s: a taken task number answers as a free one and as a missing project', async (_name, body, pointer) => {
        const before = await taskCount();
        const taken = await post('/task', 'udave', body(1, 'pweb'));
        const free = await post('/task', 'udave', body(77, 'pweb'));
        const missing = await post('/task', 'udave', body(1, 'pnope'));
        expect([taken.status, free.status, missing.status]).toEqual([404, 404, 404]);
        expect(taken.body.errors[0]).toEqual(free.body.errors[0]);
        expect(taken.body.errors[0]).toMatchObject({ code: 'not-found', source: { pointer } });
        expect(missing.body.errors[0].detail).toBe(taken.body.errors[0].detail.replace('pweb', 'pnope'));
        expect(await taskCount()).toBe(before);
    });

    it('a user who may read the related record still gets the 409 of the collision', async () => {
        const before = await taskCount();
        const res = await post('/task', 'ubob', taskByLink(1, 'pweb'));
        expect(res.status).toBe(409);
        expect(res.body.errors[0]).toMatchObject({ code: 'unique-violation', ormCode: 'P2002' });
        expect(await taskCount()).toBe(before);
    });
});
