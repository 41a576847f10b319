import Decimal from 'decimal.js';
import { deserializeValue } from '../../../src/api/common/codec';
import { describePg, requirePg } from '../../support/postgres';
import { loadSchema } from '../../support/schema';
import { at, blogApi, JSONAPI, makeApi, type Api } from './support';

/** Complex values (DateTime, BigInt, Decimal, Bytes) and their serialization metadata, in data and in included. */

const ROW = {
    id: 'sample',
    string: 'hello',
    int: 42,
    float: 3.5,
    boolean: true,
    dateTime: new Date('2024-01-02T03:04:05.678Z'),
    bigInt: 9007199254740993n,
    decimal: '12.345',
    bytes: Buffer.from('zenstack'),
    json: { tags: ['a', 'b'], 'dotted.key': { n: 1 } },
    role: 'ADMIN',
    ownerId: 1,
};

const ATTRIBUTES = {
    string: 'hello',
    int: 42,
    float: 3.5,
    boolean: true,
    dateTime: '2024-01-02T03:04:05.678Z',
    bigInt: '9007199254740993',
    decimal: '12.345',
    bytes: Buffer.from('zenstack').toString('base64'),
    json: { tags: ['a', 'b'], 'dotted.key': { n: 1 } },
    role: 'ADMIN',
    ownerId: 1,
};

const tags = (base: string) => ({
    [`${base}.attributes.dateTime`]: ['Date'],
    [`${base}.attributes.bigInt`]: ['bigint'],
    [`${base}.attributes.decimal`]: [['custom', 'Decimal']],
    [`${base}.attributes.bytes`]: [['custom', 'Bytes']],
});

describe('REST typed values', () => {
    let api: Api;
    beforeAll(async () => {
        api = await blogApi();
        await api.s.prisma.allTypes.create({ data: ROW });
        await api.s.prisma.allTypes.create({ data: { id: 'zeros', dateTime: new Date('2024-05-05T00:00:00Z') } });
    });
    afterAll(() => api.s.cleanup());

    it('encodes every complex type of a single resource and tags its path', async () => {
        const res = await api.get('/allTypes/sample');
        expect(api.body(res)).toEqual({
            data: {
                type: 'allTypes',
                id: 'sample',
                attributes: ATTRIBUTES,
                relationships: { owner: { links: { self: at('/allTypes/sample/relationships/owner'), related: at('/allTypes/sample/owner') }, data: { type: 'user', id: 1 } } },
                links: { self: at('/allTypes/sample') },
            },
            meta: { serialization: { values: tags('data') } },
            links: { self: at('/allTypes/sample') },
            jsonapi: JSONAPI,
        });
    });

    it('restores the typed values from the metadata', async () => {
        const body = api.body(await api.get('/allTypes/sample'));
        const restored = deserializeValue(body, body.meta.serialization) as { data: { attributes: Record<string, unknown> } };
        const a = restored.data.attributes;
        expect(a.dateTime).toEqual(ROW.dateTime);
        expect(a.bigInt).toBe(9007199254740993n);
        expect(Decimal.isDecimal(a.decimal) && (a.decimal as Decimal).equals('12.345')).toBe(true);
        expect(Buffer.from(a.bytes as Uint8Array).toString()).toBe('zenstack');
    });

    it('tags values of every item of a list and leaves null values untagged', async () => {
        const body = api.body(await api.get('/allTypes', { sort: '-id' }));
        expect(body.data.map((r: { id: string }) => r.id)).toEqual(['zeros', 'sample']);
        expect(body.data[0].attributes).toMatchObject({ bigInt: '0', decimal: '0', bytes: null, json: null, dateTime: '2024-05-05T00:00:00.000Z' });
        const { 'data.0.attributes.bytes': _none, ...zeros } = tags('data.0');
        expect(body.meta).toEqual({ total: 2, serialization: { values: { ...zeros, ...tags('data.1') } } });
    });

    it('tags values inside included resources at their included index', async () => {
        const body = api.body(await api.get('/user/1', { include: 'allTypes,posts' }));
        const keys = body.included.map((r: { type: string; id: unknown }) => `${r.type}:${r.id}`);
        expect(keys).toEqual(['post:1', 'post:2', 'allTypes:sample']);
        expect(body.included[2].attributes).toEqual(ATTRIBUTES);
        expect(body.meta).toEqual({
            serialization: {
                values: { 'included.0.attributes.createdAt': ['Date'], 'included.1.attributes.createdAt': ['Date'], ...tags('included.2') },
            },
        });
    });

    it('tags values of related fetches', async () => {
        const body = api.body(await api.get('/user/1/allTypes'));
        expect(body.meta).toEqual({ total: 1, serialization: { values: tags('data.0') } });
        const fieldset = api.body(await api.get('/allTypes/sample', { 'fields[allTypes]': 'bytes,string' }));
        expect(fieldset.data.attributes).toEqual({ string: 'hello', bytes: ATTRIBUTES.bytes });
        expect(fieldset.meta).toEqual({ serialization: { values: { 'data.attributes.bytes': [['custom', 'Bytes']] } } });
    });
});

describePg('REST typed values', () => {
    it('tags every element of scalar lists of complex types', async () => {
        if (!(await requirePg())) return;
        const s = await loadSchema(
            `model Series {
  id     Int        @id
  at     DateTime[]
  big    BigInt[]
  dec    Decimal[]
  blobs  Bytes[]
  @@allow('all', true)
}`,
            { provider: 'postgresql' },
        );
        try {
            await s.prisma.series.create({
                data: { id: 1, at: [new Date('2024-01-01T00:00:00Z')], big: [1n, 2n], dec: ['1.5'], blobs: [Buffer.from([255])] },
            });
            const api = makeApi(s);
            const body = api.body(await api.get('/series/1'));
            expect(body.data.attributes).toEqual({ at: ['2024-01-01T00:00:00.000Z'], big: ['1', '2'], dec: ['1.5'], blobs: ['/w=='] });
            expect(body.meta.serialization.values).toEqual({
                'data.attributes.at.0': ['Date'],
                'data.attributes.big.0': ['bigint'],
                'data.attributes.big.1': ['bigint'],
                'data.attributes.dec.0': [['custom', 'Decimal']],
                'data.attributes.blobs.0': [['custom', 'Bytes']],
            });
        } finally {
            await s.cleanup();
        }
    });
});
