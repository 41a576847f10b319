import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { Response } from '../../src/types';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Values restored at the places serialization metadata names (superjson's referentialEqualities, Json null tags),
 * through both handlers:
 *
 * - An array's `length` is no place in it (superjson reads a key of an array as an index, so 2.x changes nothing
 *   there): a 400, nothing written. It was an own property, so it was written: `[3, "a", "b", "c", "d"]` with
 *   `length` named as a repeated place of its `3` was stored as `[3, "a", "b"]`, and a `1e9` there made the
 *   process allocate a billion-slot array and die of heap exhaustion.
 * - An array holding many places is copied once, however many places are written in it. Every place copied the
 *   whole path before: 40,000 places in one Json array (a 900 KB body) took 13 s of CPU, 20,000 Json null tags in
 *   one createMany 14 s, the process answering nothing meanwhile. The copies are counted here (an array whose
 *   `slice` counts its calls, handed to the handler as the parsed body), not timed.
 */

let s: TestSchema;
// the createMany below writes 2,000 rows, beyond the default maxWriteRecords: what is measured here is the codec
const rpc = RPCApiHandler({ maxWriteRecords: Infinity });
const rest = RestApiHandler({ endpoint: 'http://localhost/api' });

beforeAll(async () => {
    s = await loadSchema();
});

afterAll(() => s.cleanup());

/** Rows of AllTypes with `string` whose Json column holds a database NULL. */
async function dbNullRows(string: string): Promise<number> {
    const rows = await s.prisma.$queryRawUnsafe('SELECT COUNT(*) AS n FROM AllTypes WHERE string = ? AND json IS NULL', string);
    return Number(rows[0].n);
}

function callRpc(method: string, path: string, requestBody: unknown): Promise<Response> {
    return rpc({ method, path, query: {}, requestBody, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });
}

function callRest(method: string, path: string, requestBody: unknown): Promise<Response> {
    return rest({ method, path, query: {}, requestBody, prisma: s.enhance({ id: 1 }), modelMeta: s.modelMeta, logger: null });
}

/** An array that counts how often it (or an array copied from it) is copied with `slice`. */
class CountedArray<T> extends Array<T> {
    static slices = 0;
    slice(start?: number, end?: number): T[] {
        CountedArray.slices++;
        return super.slice(start, end);
    }
}

function counted<T>(items: T[]): CountedArray<T> {
    const out = new CountedArray<T>();
    for (const item of items) out.push(item);
    return out;
}

const PLACES = 2000;
const repeatedPlaces = (at: string) => ({ [`${at}.0`]: Array.from({ length: PLACES - 1 }, (_, i) => `${at}.${i + 1}`) });

beforeEach(() => {
    CountedArray.slices = 0;
});

describe("an array's length is not a place in it", () => {
    it('RPC: a 400, nothing written', async () => {
        const before = await s.prisma.allTypes.count();
        const res = await callRpc('POST', '/allTypes/create', {
            data: { string: 'length', json: [3, 'a', 'b', 'c', 'd'] },
            meta: { serialization: { referentialEqualities: { 'data.json.0': ['data.json.length'] } } },
        });
        expect(res.status).toBe(400);
        expect((res.body as { error: { message: string } }).error.message).toContain('data.json.length');
        expect(await s.prisma.allTypes.count()).toBe(before);
    });

    it('REST: a 400, nothing written', async () => {
        const before = await s.prisma.allTypes.count();
        const res = await callRest('POST', '/allTypes', {
            data: { type: 'allTypes', attributes: { string: 'length', json: [3, 'a', 'b', 'c', 'd'] } },
            meta: { serialization: { referentialEqualities: { 'data.attributes.json.0': ['data.attributes.json.length'] } } },
        });
        expect(res.status).toBe(400);
        expect((res.body as { errors: { code: string }[] }).errors[0].code).toBe('invalid-payload');
        expect(await s.prisma.allTypes.count()).toBe(before);
    });
});

describe('an array holding many places is copied once', () => {
    it('RPC referentialEqualities: every place restored', async () => {
        const json = counted<unknown>([{ k: 1 }, ...new Array<null>(PLACES - 1).fill(null)]);
        const res = await callRpc('POST', '/allTypes/create', {
            data: { string: 'rpc places', json },
            meta: { serialization: { referentialEqualities: repeatedPlaces('data.json') } },
        });
        expect(res.status).toBe(201);
        expect(CountedArray.slices).toBeLessThanOrEqual(2);
        const stored = await s.prisma.allTypes.findFirst({ where: { string: 'rpc places' } });
        expect(stored.json).toEqual(new Array(PLACES).fill({ k: 1 }));
    });

    it('REST referentialEqualities: every place restored', async () => {
        const json = counted<unknown>([{ k: 2 }, ...new Array<null>(PLACES - 1).fill(null)]);
        const res = await callRest('POST', '/allTypes', {
            data: { type: 'allTypes', attributes: { string: 'rest places', json } },
            meta: { serialization: { referentialEqualities: repeatedPlaces('data.attributes.json') } },
        });
        expect(res.status).toBe(201);
        expect(CountedArray.slices).toBeLessThanOrEqual(2);
        const stored = await s.prisma.allTypes.findFirst({ where: { string: 'rest places' } });
        expect(stored.json).toEqual(new Array(PLACES).fill({ k: 2 }));
    });

    it('RPC Json null tags of a createMany: every row gets its null', async () => {
        const data = counted(Array.from({ length: PLACES }, () => ({ string: 'tagged', json: null })));
        const values = Object.fromEntries(data.map((_, i) => [`data.${i}.json`, [['custom', 'DbNull']]]));
        const res = await callRpc('POST', '/allTypes/createMany', { data, meta: { serialization: { values } } });
        expect(res.status).toBe(201);
        expect(CountedArray.slices).toBeLessThanOrEqual(3);
        expect(await dbNullRows('tagged')).toBe(PLACES);
    });

    it('RPC referentialEqualities copying a row with a Json null tag: every copy gets the null', async () => {
        const data = counted<unknown>([{ string: 'shared row', json: null }, ...new Array<null>(PLACES - 1).fill(null)]);
        const res = await callRpc('POST', '/allTypes/createMany', {
            data,
            meta: { serialization: { values: { 'data.0.json': [['custom', 'DbNull']] }, referentialEqualities: repeatedPlaces('data') } },
        });
        expect(res.status).toBe(201);
        expect(CountedArray.slices).toBeLessThanOrEqual(3);
        expect(await dbNullRows('shared row')).toBe(PLACES);
    });
});
