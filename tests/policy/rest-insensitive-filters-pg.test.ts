import { RestApiHandler } from '../../src/api/rest';
import { describePg, requirePg } from '../support/postgres';
import type { TestSchema } from '../support/schema';
import { BOB, loadLeakSchema } from './fixture';

/**
 * On PostgreSQL `$icontains` is `{ contains, mode: 'insensitive' }`, and a `mode` applies to every operator of its
 * condition, so another operator on the same field is a condition of its own beside it (under an AND). On a field
 * with a read rule, the policy applies the rule to the whole filter for the one at the top, so the pair is answered
 * as on SQLite (it was a 400 on PostgreSQL only), and tells Bob nothing of the emails he may not read.
 */

let s: TestSchema | undefined;
const handler = RestApiHandler({ endpoint: 'http://localhost/api' });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(query: Record<string, string>): Promise<{ status: number; body: any }> {
    const res = await handler({ method: 'GET', path: '/user', query, prisma: s!.enhance(BOB), modelMeta: s!.modelMeta, logger: null });
    return { status: res.status, body: res.body };
}

const ids = (body: { data: Array<{ id: unknown }> }) => body.data.map((r) => String(r.id));

describePg('a case-insensitive filter beside another operator on a field with a read rule', () => {
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadLeakSchema({ provider: 'postgresql' });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it('finds what Bob may read', async () => {
        if (!s) return;
        const own = await get({ 'filter[email$icontains]': 'BOB', 'filter[email$endsWith]': '@x' });
        expect([own.status, ids(own.body)]).toEqual([200, ['2']]);
        const startsWith = await get({ 'filter[email$icontains]': 'O', 'filter[email$startsWith]': 'b' });
        expect([startsWith.status, ids(startsWith.body)]).toEqual([200, ['2']]);
    });

    it('answers the same for a right and a wrong guess of an email Bob may not read', async () => {
        if (!s) return;
        const right = await get({ 'filter[email$icontains]': 'ALICE', 'filter[email$endsWith]': '@x' });
        const wrong = await get({ 'filter[email$icontains]': 'ALICE', 'filter[email$endsWith]': '@y' });
        expect([right.status, right.body.data, right.body.meta]).toEqual([wrong.status, wrong.body.data, wrong.body.meta]);
        expect([right.status, right.body.data]).toEqual([200, []]);
    });
});
