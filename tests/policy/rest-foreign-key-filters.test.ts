import { RestApiHandler } from '../../src/api/rest';
import type { TestSchema } from '../support/schema';
import { loadHiddenOrderSchema, READER, setSecrets } from './hidden-order-fixture';
import type { Res } from './rpc-call';

/**
 * The JSON:API side of `rpc-foreign-key-filters.test.ts`: `filter[blog]=id` beside a filter through the same
 * relationship's fields is answered whatever the order of the parameters, and so are two filters through its fields
 * (both merged into one condition on the blog, where ZenStack applies its read rule: `query/filter-merge.ts`); a
 * blog the user may not read matches neither, whatever its hidden values.
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

    it('answers alike whatever the hidden name, also for two filters through the fields', async () => {
        const answers: Res[] = [];
        for (const low of [true, false]) {
            await setSecrets(s, low);
            answers.push(await get('/post', { 'filter[blog]': '2', 'filter[blog][name]': 'zzz' }));
        }
        expect(ids(answers[0])).toEqual([200, []]);
        expect(answers[0].text).toEqual(answers[1].text);
        expect(ids(await get('/post', { 'filter[blog][name]': 'alpha', 'filter[blog][rank]': '1' }))).toEqual([200, [1]]);
        const fields: Res[] = [];
        for (const low of [true, false]) {
            await setSecrets(s, low);
            fields.push(await get('/post', { 'filter[blog][name]': 'aaa', 'filter[blog][rank$gte]': '0' }));
        }
        expect(ids(fields[0])).toEqual([200, []]);
        expect(fields[0].text).toEqual(fields[1].text);
    });
});
