import Decimal from 'decimal.js';
import { BIGINT_TAG, BYTES_TAG, DATE_TAG, DECIMAL_TAG, encodeBytes, escapePathKey, jsonNullNameOf, serializeValue } from '../../src/api/common/codec';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * The output encoder is tuned for speed (no call per plain scalar, path strings built only for a
 * tag). Its output must stay byte-identical to the straightforward recursive encoder below, the
 * one it replaced: same JSON, same `meta.serialization.values` in the same key order, and the
 * same objects passed through untouched when nothing needs encoding.
 */
function referenceEncode(value: unknown, basePath = ''): { json: unknown; values?: Record<string, unknown> } {
    const values: Record<string, unknown> = {};
    let found = false;
    const join = (prefix: string, key: string | number) => {
        const k = typeof key === 'number' ? String(key) : escapePathKey(key);
        return prefix ? `${prefix}.${k}` : k;
    };
    const mark = (path: string, tags: unknown[]) => {
        values[path] = tags;
        found = true;
    };
    const visit = (v: unknown, path: string): unknown => {
        if (v === null || typeof v !== 'object') {
            if (typeof v === 'bigint') {
                mark(path, [BIGINT_TAG]);
                return v.toString();
            }
            if (typeof v === 'number' && !Number.isFinite(v)) {
                mark(path, ['number']);
                return String(v);
            }
            return v;
        }
        if (v instanceof Date) {
            if (Number.isNaN(v.getTime())) return null; // untagged, as superjson writes it
            mark(path, [DATE_TAG]);
            return v.toISOString();
        }
        if (v instanceof Uint8Array) {
            mark(path, [BYTES_TAG]);
            return encodeBytes(v);
        }
        if (Decimal.isDecimal(v)) {
            mark(path, [DECIMAL_TAG]);
            return (v as Decimal).toString();
        }
        if (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) {
            const name = jsonNullNameOf(v);
            if (name) {
                mark(path, [['custom', name]]);
                return null;
            }
        }
        if (Array.isArray(v)) {
            let out: unknown[] | undefined;
            v.forEach((item, i) => {
                const enc = visit(item, join(path, i));
                if (enc !== item && !out) out = v.slice(0, i);
                if (out) out.push(enc);
            });
            return out ?? v;
        }
        let out: Record<string, unknown> | undefined;
        const keys = Object.keys(v);
        keys.forEach((key, i) => {
            const item = (v as Record<string, unknown>)[key];
            const enc = visit(item, join(path, key));
            if (enc !== item && !out) {
                out = {};
                for (let j = 0; j < i; j++) out[keys[j]] = (v as Record<string, unknown>)[keys[j]];
            }
            if (out) out[key] = enc;
        });
        return out ?? v;
    };
    const json = visit(value, basePath);
    return found ? { json, values } : { json };
}

/** Same JSON text, same tags in the same order, same identity of untouched subtrees. */
function expectSame(value: unknown, basePath?: string) {
    const ours = serializeValue(value, basePath);
    const ref = referenceEncode(value, basePath);
    expect(JSON.stringify(ours.json)).toBe(JSON.stringify(ref.json));
    expect(JSON.stringify(ours.values)).toBe(JSON.stringify(ref.values));
    expect(Object.keys(ours)).toEqual(Object.keys(ref));
    expect(ours.json === value).toBe(ref.json === value);
    return ours;
}

/** Stand-ins for Prisma's Json null markers, recognised the way the runtime's are (`NullTypes` namespace). */
class NullMarker {
    constructor(private readonly name: string) {}
    _getNamespace() {
        return 'NullTypes';
    }
    _getName() {
        return this.name;
    }
}
const objectEnumValues = { instances: { DbNull: new NullMarker('DbNull'), JsonNull: new NullMarker('JsonNull'), AnyNull: new NullMarker('AnyNull') } };
const WHEN = new Date('2024-02-29T12:34:56.789Z');

describe('output encoder equals the reference encoder', () => {
    it.each<[string, unknown]>([
        ['null', null],
        ['undefined', undefined],
        ['a string', 'x'],
        ['a number', 42],
        ['NaN', Number.NaN],
        ['-Infinity', -Infinity],
        ['a bigint', 12345678901234567890n],
        ['a date', WHEN],
        ['an invalid date', new Date('nope')],
        ['a decimal', new Decimal('1.50')],
        ['a Buffer', Buffer.from([1, 2, 3])],
        ['a Uint8Array view', new Uint8Array([9, 8, 7, 6]).subarray(1, 3)],
        ['DbNull', objectEnumValues.instances.DbNull],
        ['a plain row', { id: 1, title: 't', published: false, viewCount: 0, authorId: null }],
        ['an empty object and array', { a: {}, b: [] }],
        ['a class instance that is no null marker', { m: new Map([[1, 2]]) }],
    ])('%s', (_label, value) => {
        expectSame(value);
        expectSame(value, 'data');
    });

    it('nested includes, arrays, nulls and every complex type, with escaped keys', () => {
        const rows = [0, 1, 2].map((i) => ({
            id: i,
            createdAt: new Date(WHEN.getTime() + i),
            title: `post ${i}`,
            author: i === 1 ? null : { id: 7, email: 'a@x', profile: { id: 3, since: WHEN }, big: BigInt(i) },
            comments: [
                { id: 10 + i, at: WHEN, amounts: [new Decimal(i), 1, new Decimal('0.1')] },
                { id: 20 + i, content: 'plain' },
            ],
            'odd.key': { 'back\\slash': new Uint8Array([i]), '': { '': WHEN } },
            json: { nested: { deep: [1, { x: null }] }, marker: objectEnumValues.instances.JsonNull },
            float: i === 2 ? Infinity : 1.5,
            _count: { comments: 2 },
        }));
        const out = expectSame(rows);
        // superjson 1.x's form: the dot escaped, the backslash as it is
        expect(out.values?.['0.odd\\.key.back\\slash']).toEqual([BYTES_TAG]);
        expectSame(rows, 'data');
        expectSame({ '': [{ '': WHEN }] });
        expectSame({ '': [{ '': WHEN }] }, 'base');
    });

    it('long lists (past the table of row paths) with keys that need escaping, twice', () => {
        const rows = Array.from({ length: 1005 }, (_, i) => ({ id: i, createdAt: new Date(WHEN.getTime() + i * 86_400_000), 'due.at': i % 2 ? WHEN : null, n: BigInt(i) }));
        const first = expectSame(rows);
        expect(first.values?.['1004.createdAt']).toEqual([DATE_TAG]);
        expect(first.values?.['3.due\\.at']).toEqual([DATE_TAG]);
        // the second answer takes its paths from the table the first one filled
        expectSame(rows);
        expectSame(rows.slice(0, 3), 'data');
    });

    it('inherited enumerable properties are neither encoded nor copied', () => {
        const row = Object.assign(Object.create({ inheritedAt: WHEN, inheritedBig: 1n }) as Record<string, unknown>, { id: 1, at: WHEN });
        const out = expectSame([row, { id: 2 }]);
        expect(Object.keys(out.values ?? {})).toEqual(['0.at']);
        expect(Object.keys((out.json as Record<string, unknown>[])[0])).toEqual(['id', 'at']);
    });

    it('aggregates and groupBy results', () => {
        expectSame({ _count: { _all: 3 }, _avg: { viewCount: 1.5, decimal: new Decimal('2.25') }, _max: { createdAt: WHEN, bigInt: 5n }, _min: { bytes: null } });
        expectSame([
            { published: true, _count: { id: 2 }, _sum: { viewCount: 10 } },
            { published: false, _count: { id: 0 }, _sum: { viewCount: null }, _max: { createdAt: WHEN } },
        ]);
        expectSame({ count: 4 });
    });

    describe('on real query results', () => {
        let s: TestSchema;
        beforeAll(async () => {
            s = await loadSchema();
            await s.prisma.user.create({ data: { id: 1, email: 'u1@x', posts: { create: [{ title: 'p1', comments: { create: [{ content: 'c' }] } }, { title: 'p2' }] } } });
            await s.prisma.allTypes.create({ data: { bigInt: 9007199254740993n, decimal: new Decimal('1234.5678'), bytes: Buffer.from([0, 255]), json: { a: [1, 'x'] }, ownerId: 1 } });
            await s.prisma.allTypes.create({ data: { string: 'second' } });
        });
        afterAll(async () => {
            await s.cleanup();
        });

        it('findMany with nested includes, and AllTypes rows', async () => {
            const users = await s.prisma.user.findMany({ include: { posts: { include: { comments: true, _count: true } }, profile: true } });
            expectSame(users);
            expectSame(await s.prisma.allTypes.findMany({ include: { owner: true } }));
            expectSame(await s.prisma.allTypes.aggregate({ _count: { _all: true }, _max: { dateTime: true, bigInt: true, decimal: true }, _avg: { int: true } }));
            expectSame(await s.prisma.post.groupBy({ by: ['published'], _count: { id: true }, _max: { createdAt: true } }));
        });
    });
});
