import { RPCApiHandler } from '../../src/api/rpc';
import { RestApiHandler } from '../../src/api/rest';
import type { Response } from '../../src/types';
import { seededWorkerServerForFile, stillAnswers } from './support/server-worker';

/**
 * Decimal and Float texts are checked with a regular expression before they reach the client. A pattern that can
 * match a run of digits in many ways (`\d+\.?\d*`) backtracked through all of them when the text ended in a letter:
 * 60,000 digits kept the event loop busy for 5 seconds, a 1 MiB body (the default limit) for hours, and the server
 * answered nobody meanwhile. The server runs in a worker thread here, so that the test can see whether it still
 * answers (the test's timeout is what fails when it does not; no duration is asserted).
 */

const HOSTILE = `${'1'.repeat(500_000)}x`;
/** Far beyond what the answers take (milliseconds), far below what the old check took (hours). */
const TIMEOUT = 30_000;

const worker = seededWorkerServerForFile();

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: { error?: { message: string }; errors?: Array<Record<string, unknown>>; data?: unknown } }> {
    const res = await fetch(`${worker.server.origin}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: await res.json() };
}

const decimalTag = (path: string) => ({ serialization: { values: { [path]: [['custom', 'Decimal']] } } });

describe('a long run of digits that is not a number (within the default body limit)', () => {
    it('RPC: a Decimal tagged in meta is a 400, nothing written, and the server answers meanwhile', async () => {
        const res = await stillAnswers(worker.server, () => send('POST', '/rpc/allTypes/create', { data: { decimal: HOSTILE }, meta: decimalTag('data.decimal') }));
        expect(res.status).toBe(400);
        expect(await worker.s.prisma.allTypes.count()).toBe(0);
    }, TIMEOUT);

    it('JSON:API: a Decimal or Float attribute is a 400 naming it, nothing written, and the server answers meanwhile', async () => {
        for (const field of ['decimal', 'float']) {
            const res = await stillAnswers(worker.server, () => send('POST', '/rest/allTypes', { data: { type: 'allTypes', attributes: { [field]: HOSTILE } } }));
            expect({ field, status: res.status }).toEqual({ field, status: 400 });
        }
        expect(await worker.s.prisma.allTypes.count()).toBe(0);
    }, TIMEOUT);
});

describe('the number forms the checks take', () => {
    const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
    const rpc = RPCApiHandler();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const callRest = async (query: Record<string, string>, method = 'GET', body?: unknown): Promise<Response & { body: any }> =>
        rest({ method, path: '/allTypes', query, requestBody: body, prisma: worker.s.enhance({ id: 1 }), modelMeta: worker.s.modelMeta, logger: null });

    it('filter values and attributes in every written form are still taken, and refused otherwise', async () => {
        const long = `${'9'.repeat(20)}.5`;
        const created = await callRest({}, 'POST', { data: { type: 'allTypes', attributes: { decimal: long, float: 2.5 } } });
        expect(created.status).toBe(201);
        for (const [field, value] of [
            ['decimal', long],
            ['decimal', '+1.e3'],
            ['float', '.5E-1'],
            ['float', '2.'],
        ]) {
            const res = await callRest({ [`filter[${field}$gte]`]: value });
            expect({ field, value, status: res.status }).toEqual({ field, value, status: 200 });
        }
        for (const value of ['1..2', '.', '1e', '0x10', 'Infinity', '1e5x', HOSTILE.slice(-20_000)]) {
            const res = await callRest({ 'filter[float]': value });
            expect({ value: value.slice(0, 10), status: res.status }).toEqual({ value: value.slice(0, 10), status: 400 });
            expect(res.body.errors[0]).toMatchObject({ code: 'invalid-value', source: { parameter: 'filter[float]' } });
        }
        const tagged = await rpc({
            method: 'GET',
            path: '/allTypes/count',
            query: { q: JSON.stringify({ where: { decimal: long } }), meta: JSON.stringify(decimalTag('where.decimal')) },
            prisma: worker.s.enhance({ id: 1 }),
            modelMeta: worker.s.modelMeta,
            logger: null,
        });
        expect([tagged.status, tagged.body]).toEqual([200, { data: 1 }]);
        await worker.s.prisma.allTypes.deleteMany();
    });
});
