import { RestApiHandler } from '../../src/api/rest';
import type { TestSchema } from '../support/schema';
import { loadHiddenOrderSchema, READER, setSecrets } from './hidden-order-fixture';
import type { Res } from './rpc-call';

/**
 * The JSON:API side of `rpc-foreign-key-filters.test.ts`: `filter[blog]=id` from the side holding the key is a
 * condition on the key the resource holds. Beside a filter through the same relationship's fields, it is the one
 * combined under AND (where ZenStack applies no read rule), whatever the order of the parameters, so the pair is
 * answered; two filters through the fields of a blog the user may not read stay a 400.
 */

let s: TestSchema;
const handler = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadHiddenOrderSchema();
});

afterAll(async () => {
    await s.cleanup();
});

async function get(path: string, query: Record<string, string>): Promise<Res> {
    const res = await handler({ method: 'GET', path, query, prisma: s.enhance(READER), modelMeta: s.modelMeta, logger: null });
    return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}

const ids = (res: Res) => [res.status, (res.body.data as Array<{ id: number }>)?.map((r) => r.id)];

describe('a relationship id filter beside a filter through its fields', () => {
    it('is answered in either order', async () => {
        expect(ids(await get('/post', { 'filter[blog]': '1,3', 'filter[blog][name]': 'alpha' }))).toEqual([200, [1]]);
        expect(ids(await get('/post', { 'filter[blog][name]': 'zulu', 'filter[blog]': '1,3' }))).toEqual([200, [3]]);
    });

    it('answers alike whatever the hidden name, and two filters through the fields stay refused', async () => {
        const answers: Res[] = [];
        for (const low of [true, false]) {
            await setSecrets(s, low);
            answers.push(await get('/post', { 'filter[blog]': '2', 'filter[blog][name]': 'zzz' }));
        }
        expect(ids(answers[0])).toEqual([200, []]);
        expect(answers[0].text).toEqual(answers[1].text);
        const both = await get('/post', { 'filter[blog][name]': 'alpha', 'filter[blog][rank]': '1' });
        expect(both.status).toBe(400);
        expect(both.body.errors[0].code).toBe('invalid-filter');
    });
});
