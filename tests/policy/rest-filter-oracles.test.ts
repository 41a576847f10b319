import { RestApiHandler } from '../../src/api/rest';
import { BOB, loadLeakSchema } from './fixture';
import type { TestSchema } from '../support/schema';

/**
 * The JSON:API side of `rpc-filter-oracles.test.ts`: filter parameters are combined with AND, OR and NOT
 * (several parameters, several values of an operator), under which ZenStack does not apply read rules. Each
 * probe asks twice, as Bob, with a secret and with a decoy; the answers must be the same.
 */

let s: TestSchema;
const handler = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadLeakSchema();
});

afterAll(async () => {
    await s.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(path: string, query: Record<string, string>): Promise<{ status: number; body: any }> {
    const res = await handler({ method: 'GET', path, query, prisma: s.enhance(BOB), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body };
}

type Probe = [name: string, path: string, query: (value: string) => Record<string, string>, secret: string, decoy: string];

const probes: Probe[] = [
    ['two filters, one on a field with a read rule', '/user', (v) => ({ 'filter[name]': 'alice', 'filter[email]': v }), 'alice@x', 'alice@y'],
    ['several values of an operator on a field with a read rule', '/user', (v) => ({ 'filter[email$startsWith]': `${v},zz` }), 'al', 'ax'],
    ['two operators on a field with a read rule', '/user', (v) => ({ 'filter[email$startsWith]': v, 'filter[email$contains]': '@' }), 'al', 'ax'],
    ['the same operator twice on a field with a read rule', '/user', (v) => ({ 'filter[email]': `${v},b@y`, 'filter[email$in]': `${v},c@y` }), 'alice@x', 'alice@y'],
    ['a relationship path beside another filter', '/user', (v) => ({ 'filter[posts][title]': v, 'filter[name]': 'alice' }), 'alice secret draft', 'no such title'],
    ['two filters through one to-many relationship', '/user', (v) => ({ 'filter[posts][title]': v, 'filter[posts][views$gt]': '0' }), 'alice secret draft', 'no such title'],
    ['two filters through one to-one relationship', '/post', (v) => ({ 'filter[author][email]': v, 'filter[author][name]': 'alice' }), 'alice@x', 'alice@y'],
    ['a related collection with two filters', '/user/1/posts', (v) => ({ 'filter[title]': v, 'filter[views$gt]': '0' }), 'alice secret draft', 'no such title'],
];

describe('no filter answers differently for a secret and a decoy', () => {
    it.each(probes)('%s', async (_name, path, query, secret, decoy) => {
        const withSecret = await get(path, query(secret));
        const withDecoy = await get(path, query(decoy));
        expect(withSecret.status).not.toBe(500);
        // the links repeat the request's parameters
        const comparable = (r: { status: number; body: { data?: unknown; meta?: { total?: unknown }; errors?: Array<{ detail?: string }> } }) => ({
            status: r.status,
            data: r.body.data,
            total: r.body.meta?.total,
            errors: r.body.errors?.map((e) => e.detail),
        });
        expect(comparable(withSecret)).toEqual(comparable(withDecoy));
    });
});

describe('filters that stay', () => {
    it('several filters on different fields find what Bob may read', async () => {
        const res = await get('/user', { 'filter[name]': 'bob', 'filter[email]': 'bob@x', 'filter[posts][title]': 'bob public' });
        expect([res.status, res.body.data.map((r: { id: unknown }) => r.id)]).toEqual([200, [2]]);
    });

    it('two filters through one to-one relationship, or two operators on one field, are one guarded condition', async () => {
        const author = await get('/post', { 'filter[author][email]': 'bob@x', 'filter[author][name]': 'bob' });
        expect([author.status, author.body.data.map((r: { id: unknown }) => r.id)]).toEqual([200, [3]]);
        // Alice's email read through her public post: not Bob's to read, so no post matches, as for a wrong guess
        const hidden = await get('/post', { 'filter[author][email]': 'alice@x', 'filter[author][name]': 'alice' });
        expect([hidden.status, hidden.body.data]).toEqual([200, []]);
        const own = await get('/user', { 'filter[email$startsWith]': 'b', 'filter[email$contains]': '@' });
        expect([own.status, own.body.data.map((r: { id: unknown }) => r.id)]).toEqual([200, [2]]);
        const others = await get('/user', { 'filter[email$startsWith]': 'a', 'filter[email$contains]': '@' });
        expect([others.status, others.body.data]).toEqual([200, []]);
    });

    it('the same operator twice on a field with a read rule: one at the top, where the policy applies the rule to every condition on the field', async () => {
        const own = await get('/user', { 'filter[email]': 'bob@x,b@y', 'filter[email$in]': 'bob@x,c@y' });
        expect([own.status, own.body.data.map((r: { id: unknown }) => r.id)]).toEqual([200, [2]]);
        const others = await get('/user', { 'filter[email]': 'alice@x,b@y', 'filter[email$in]': 'alice@x,c@y' });
        expect([others.status, others.body.data]).toEqual([200, []]);
    });

    it('what the policy would not guard is a 400 naming the filter', async () => {
        const res = await get('/user', { 'filter[email$startsWith]': 'b,c' });
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toMatchObject({ code: 'invalid-filter', source: { parameter: 'filter' } });
        expect(res.body.errors[0].detail).toMatch(/field "email" of User cannot be used for filtering under AND, OR or NOT/);
        const through = await get('/user', { 'filter[posts][title]': 'bob public', 'filter[posts][views$gt]': '0' });
        expect(through.status).toBe(400);
        expect(through.body.errors[0].detail).toMatch(/filtering through "posts" of User under AND, OR or NOT is not supported/);
    });
});
