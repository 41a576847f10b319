import { seededWorkerServerForFile, stillAnswers } from './support/server-worker';

/**
 * superjson's `referentialEqualities` name a source path and the places that get a copy of its value. Two costs grew
 * with the product of two parts of the request, not with its size:
 *
 * - The source path was split and followed again for every place: a source naming a key of 250 KB with 20,000 places
 *   (a 1 MiB body) kept the event loop busy for minutes; 100 KB and 8,000 places (390 KB) for 17 s.
 * - The bound on restored values counted values, not their size: one string of 100 KB named by 12 places was stored
 *   as 1.2 MB, by 2,000 places (a 143 KB body) as 200 MB after 27 s, and 8,000 places ended in a 500.
 *
 * The server runs in a worker thread, so that the test sees whether it still answers while the request is worked on
 * (the test's timeout is what fails; no duration is asserted).
 */

const TIMEOUT = 30_000;

const worker = seededWorkerServerForFile();

async function post(path: string, body: unknown): Promise<{ status: number; body: { error?: { message: string }; errors?: Array<{ detail: string }> } }> {
    const res = await fetch(`${worker.server.origin}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: await res.json() };
}

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const LONG_KEY = 'k'.repeat(250_000);
const PLACES = 20_000;
/** Fewer with the longer paths of a JSON:API document, within the same 1 MiB. */
const REST_PLACES = 12_000;

describe('a source path with a long key, named for many places (a 1 MiB body)', () => {
    it(
        'RPC: the places are restored (201), and the server answers meanwhile',
        async () => {
            const body = {
                data: { string: 'rpc-long-source', json: { [LONG_KEY]: 1, a: range(PLACES, () => null) } },
                select: { id: true },
                meta: { serialization: { referentialEqualities: { [`data.json.${LONG_KEY}`]: range(PLACES, (i) => `data.json.a.${i}`) } } },
            };
            const res = await stillAnswers(worker.server, () => post('/rpc/allTypes/create', body));
            expect(res.status).toBe(201);
            const row = await worker.s.prisma.allTypes.findFirst({ where: { string: 'rpc-long-source' } });
            expect(row.json.a).toEqual(range(PLACES, () => 1));
        },
        TIMEOUT,
    );

    it(
        'JSON:API: the places are restored (201), and the server answers meanwhile',
        async () => {
            const body = {
                data: { type: 'allTypes', attributes: { string: 'rest-long-source', json: { [LONG_KEY]: 1, a: range(REST_PLACES, () => null) } } },
                meta: {
                    serialization: { referentialEqualities: { [`data.attributes.json.${LONG_KEY}`]: range(REST_PLACES, (i) => `data.attributes.json.a.${i}`) } },
                },
            };
            const res = await stillAnswers(worker.server, () => post('/rest/allTypes', body));
            expect(res.status).toBe(201);
            const row = await worker.s.prisma.allTypes.findFirst({ where: { string: 'rest-long-source' } });
            expect(row.json.a).toEqual(range(REST_PLACES, () => 1));
        },
        TIMEOUT,
    );
});

describe('places that would restore more text than a 1 MiB body holds', () => {
    const LONG_TEXT = 'x'.repeat(100_000);
    const COPIES = 12;

    it('RPC: a 400 naming the bound, nothing written', async () => {
        const res = await post('/rpc/allTypes/create', {
            data: { string: 'rpc-copies', json: [LONG_TEXT, ...range(COPIES, () => null)] },
            meta: { serialization: { referentialEqualities: { 'data.json.0': range(COPIES, (i) => `data.json.${i + 1}`) } } },
        });
        expect(res.status).toBe(400);
        expect(res.body.error?.message).toMatch(/would restore more than 1048576 characters of text/);
        // the same value in 9 places (1 MB with the source) is within the bound
        const within = await post('/rpc/allTypes/create', {
            data: { string: 'rpc-copies', json: [LONG_TEXT, ...range(9, () => null)] },
            select: { id: true },
            meta: { serialization: { referentialEqualities: { 'data.json.0': range(9, (i) => `data.json.${i + 1}`) } } },
        });
        expect(within.status).toBe(201);
        expect(await worker.s.prisma.allTypes.count({ where: { string: 'rpc-copies' } })).toBe(1);
    });

    it('JSON:API: a 400 naming the bound, nothing written; keys count too', async () => {
        for (const json of [
            [LONG_TEXT, ...range(COPIES, () => null)],
            [{ [LONG_TEXT]: true }, ...range(COPIES, () => null)],
        ]) {
            const res = await post('/rest/allTypes', {
                data: { type: 'allTypes', attributes: { string: 'rest-copies', json } },
                meta: { serialization: { referentialEqualities: { 'data.attributes.json.0': range(COPIES, (i) => `data.attributes.json.${i + 1}`) } } },
            });
            expect(res.status).toBe(400);
            expect(res.body.errors?.[0].detail).toMatch(/would restore more than 1048576 characters of text/);
        }
        expect(await worker.s.prisma.allTypes.count({ where: { string: 'rest-copies' } })).toBe(0);
    });
});
