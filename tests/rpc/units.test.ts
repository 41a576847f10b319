import Decimal from 'decimal.js';
import path from 'node:path';
import { deserializeValue, jsonNullNameOf, serializeValue } from '../../src/api/common/codec';
import { BadRequestError } from '../../src/api/common/errors';
import { getModelRegistry, type ModelRegistry } from '../../src/api/common/model-registry';
import { decodeArgs, readBodyArgs, readQueryArgs } from '../../src/api/rpc/input';
import { getJsonNullObjects } from '../../src/api/common/prisma-nulls';
import { OPERATIONS } from '../../src/api/rpc/operations';
import { resolveRoute } from '../../src/api/rpc/router';
import { dropFalseCounts } from '../../src/api/rpc/shape';
import { formatIssues } from '../../src/api/rpc/validation';
import { zodErrorJson } from '../../src/api/common/zod-issues';
import { z } from 'zod';
import { generateSchema } from '../support/generate';
import { BLOG_SCHEMA, loadSchema, type TestSchema } from '../support/schema';

/** The pure translation steps, without a request: routing, argument reading/decoding, issue formatting, Json nulls. */

let s: TestSchema;
let registry: ModelRegistry;

beforeAll(async () => {
    s = await loadSchema();
    registry = getModelRegistry(s.modelMeta);
});

afterAll(async () => {
    await s.cleanup();
});

describe('operation table', () => {
    it("matches the spec's methods and statuses", () => {
        const table = Object.fromEntries([...OPERATIONS.values()].map((op) => [op.name, `${op.methods.join('|')} ${op.status}`]));
        expect(table).toEqual({
            findMany: 'GET 200',
            findUnique: 'GET 200',
            findFirst: 'GET 200',
            count: 'GET 200',
            aggregate: 'GET 200',
            groupBy: 'GET 200',
            check: 'GET 200',
            create: 'POST 201',
            createMany: 'POST 201',
            createManyAndReturn: 'POST 201',
            upsert: 'POST 200',
            update: 'PATCH|PUT 200',
            updateMany: 'PATCH|PUT 200',
            updateManyAndReturn: 'PATCH|PUT 200',
            delete: 'DELETE 200',
            deleteMany: 'DELETE 200',
        });
    });
});

describe('router', () => {
    it('resolves models from the metadata and operations from the table', () => {
        const route = resolveRoute(registry, 'patch', '/Post/update/');
        expect(route).toMatchObject({ kind: 'operation', model: { name: 'Post', key: 'post' }, op: { name: 'update' } });
        expect(resolveRoute(registry, 'POST', '/$transaction/sequential')).toEqual({ kind: 'transaction', mode: 'sequential' });
        expect(resolveRoute(registry, 'GET', '/allTypes/findMany')).toMatchObject({ model: { name: 'AllTypes' } });
    });

    it.each([
        ['GET', '/post'],
        ['GET', '/constructor/findMany'],
        ['GET', '/post/constructor'],
        ['GET', '/post/create'],
        ['POST', '/$transaction/batch'],
        ['GET', '/$transaction/sequential'],
        ['GET', '/%ZZ/findMany'],
    ])('%s %s is a bad request', (method, p) => {
        expect(() => resolveRoute(registry, method, p)).toThrow(BadRequestError);
    });
});

describe('reading arguments', () => {
    it('q and meta', () => {
        expect(readQueryArgs({ q: '{"where":{"id":1}}' })).toEqual({ json: { where: { id: 1 } }, serialization: undefined, listed: 0 });
        expect(readQueryArgs(undefined)).toEqual({ json: {}, serialization: undefined, listed: 0 });
        // the items of filter lists, wherever such a key holds a list
        expect(readQueryArgs({ q: '{"where":{"id":{"in":[1,2]},"OR":[{"a":{"notIn":[3]}}]}}' }).listed).toBe(4);
        expect(readQueryArgs({ q: encodeURIComponent('{"take":1}') }).json).toEqual({ take: 1 });
        expect(readQueryArgs({ q: '{}', meta: '{"serialization":{"values":{"a":["Date"]}}}' }).serialization).toEqual({ values: { a: ['Date'] } });
        expect(() => readQueryArgs({ q: '"text"' })).toThrow(/must be a JSON object/);
        expect(() => readQueryArgs({ q: '{}', meta: '[]' })).toThrow(/must be an object/);
    });

    it('body with meta stripped from the arguments', () => {
        const raw = readBodyArgs({ data: { a: 1 }, meta: { serialization: { values: { 'data.a': ['bigint'] } } } }, true);
        expect(raw.json).toEqual({ data: { a: 1 } });
        expect(raw.serialization).toEqual({ values: { 'data.a': ['bigint'] } });
        expect(readBodyArgs(undefined, false)).toEqual({ json: {}, listed: 0 });
        expect(() => readBodyArgs(undefined, true)).toThrow(/missing request body/);
        expect(() => readBodyArgs({ meta: { serialization: 1 } }, true)).toThrow(/"serialization" must be an object/);
        expect(readBodyArgs(Buffer.from('{"data":{}}'), true).json).toEqual({ data: {} });
    });

    it('decodes typed values; paths relative to data are accepted', () => {
        const { args } = decodeArgs({ json: { data: { b: 'AQI=', n: '5' } }, serialization: { values: { b: [['custom', 'Bytes']], 'data.n': ['bigint'] } } });
        expect(args).toEqual({ data: { b: Buffer.from([1, 2]), n: 5n } });
    });

    it('a superjson `undefined` tag is honoured even when the value is absent', () => {
        const { args } = decodeArgs({ json: { where: { a: null } }, serialization: { values: { 'where.a': ['undefined'], 'where.gone': ['undefined'] } } });
        expect(args).toStrictEqual({ where: { a: undefined } });
        expect(Object.keys(args.where as object)).toEqual(['a']);
    });

    it('Json null markers become names for validation and are listed', () => {
        const decoded = decodeArgs({ json: { data: { j: null } }, serialization: { values: { j: [['custom', 'AnyNull']] } } });
        expect(decoded).toEqual({ args: { data: { j: 'AnyNull' } }, jsonNulls: [{ path: 'data.j', name: 'AnyNull' }], listed: 0 });
    });
});

describe('zod issue formatting', () => {
    it('flattens paths and picks the closest union branch', () => {
        const error = {
            issues: [
                { code: 'invalid_type', message: 'Expected number', path: ['take'] },
                {
                    code: 'invalid_union',
                    message: 'Invalid input',
                    path: ['data'],
                    unionErrors: [
                        { issues: [{ code: 'a', message: 'one', path: ['data', 'x'] }, { code: 'b', message: 'two', path: ['data', 'y'] }] },
                        { issues: [{ code: 'too_small', message: 'String must contain at least 1 character(s)', path: ['data', 'title'] }] },
                    ],
                },
            ],
        };
        expect(formatIssues(error)).toEqual([
            { path: 'take', message: 'Expected number', code: 'invalid_type' },
            { path: 'data.title', message: 'String must contain at least 1 character(s)', code: 'too_small' },
        ]);
        expect(formatIssues(undefined)).toEqual([]);
    });
});

describe('Decimal output', () => {
    it('keeps the sign of a negative zero, as decimal.js writes it in JSON (and 2.x answered it)', () => {
        expect(serializeValue({ d: new Decimal('-0') }).json).toEqual({ d: '-0' });
        expect(serializeValue({ d: new Decimal('-1.50') }).json).toEqual({ d: '-1.5' });
        expect(serializeValue({ d: new Decimal('1e-7') }).json).toEqual({ d: JSON.parse(JSON.stringify(new Decimal('1e-7'))) });
    });
});

describe('raw zod issues (zodErrors, as 2.x answered them)', () => {
    it('is the ZodError as JSON.stringify writes it, union branches included', () => {
        const schema = z.object({ title: z.string().min(1), n: z.union([z.number(), z.boolean()]) }).strict();
        const error = schema.safeParse({ title: '', n: 'x', extra: 1 }).error;
        expect(zodErrorJson(error)).toEqual(JSON.parse(JSON.stringify(error)));
        expect(zodErrorJson(error)?.issues.map((i) => (i as { path: unknown }).path)).toEqual([['title'], ['n'], []]);
        expect(zodErrorJson(undefined)).toBeUndefined();
        expect(zodErrorJson({ issues: [] })).toBeUndefined();
    });

    it('writes BigInt bounds as strings and values with toJSON as they render, where JSON.stringify would throw', () => {
        const error = z.object({ big: z.bigint().min(5n) }).safeParse({ big: 1n }).error;
        expect(() => JSON.stringify(error)).toThrow(/BigInt/);
        const json = zodErrorJson(error);
        expect(json?.issues).toEqual([expect.objectContaining({ code: 'too_small', minimum: '5', path: ['big'] })]);
        expect(JSON.parse(JSON.stringify(json))).toEqual(json);
        const at = new Date('2024-01-02T03:04:05.000Z');
        expect(zodErrorJson({ issues: [{ code: 'invalid_literal', received: at, expected: Infinity, fn: () => 1 }] })?.issues).toEqual([
            { code: 'invalid_literal', received: at.toISOString(), expected: null },
        ]);
    });

    it('keeps at most 100 issues in all, however many a request provokes; keep filters the top level', () => {
        const wide = z.object(Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, z.string()])));
        expect(zodErrorJson(wide.safeParse({}).error)?.issues).toHaveLength(100);
        const branch = { issues: Array.from({ length: 80 }, () => ({ code: 'x', path: [] })) };
        const nested = zodErrorJson({ issues: [{ code: 'invalid_union', unionErrors: [branch, branch] }] });
        const counted = (e: { issues: unknown[] }): number => e.issues.reduce<number>((n, i) => n + 1 + ((i as { unionErrors?: { issues: unknown[] }[] }).unionErrors ?? []).reduce((m, u) => m + counted(u), 0), 0);
        expect(counted(nested as { issues: unknown[] })).toBe(100);
        const kept = zodErrorJson(wide.safeParse({}).error, (issue) => (issue.path as string[])[0] === 'f7');
        expect(kept?.issues).toEqual([expect.objectContaining({ path: ['f7'] })]);
    });
});

describe('Json null objects', () => {
    it("are the generated client's own instances, found from the (enhanced) client", () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { Prisma } = require(path.join(generateSchema(BLOG_SCHEMA, 'sqlite').dir, 'prisma-client'));
        const fromEnhanced = getJsonNullObjects(s.enhance({ id: 1 }));
        expect(fromEnhanced.DbNull).toBe(Prisma.DbNull);
        expect(fromEnhanced.JsonNull).toBe(Prisma.JsonNull);
        expect(fromEnhanced.AnyNull).toBe(Prisma.AnyNull);
        expect(getJsonNullObjects(s.prisma)).toBe(fromEnhanced);
        expect(getJsonNullObjects(s.prisma.$extends({})).DbNull).toBe(Prisma.DbNull);
    });

    it('are tagged by the codec on output and restored on input', () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { Prisma } = require(path.join(generateSchema(BLOG_SCHEMA, 'sqlite').dir, 'prisma-client'));
        expect(jsonNullNameOf(Prisma.JsonNull)).toBe('JsonNull');
        expect(jsonNullNameOf({})).toBeUndefined();
        const encoded = serializeValue({ data: { json: Prisma.DbNull } });
        expect(encoded).toEqual({ json: { data: { json: null } }, values: { 'data.json': [['custom', 'DbNull']] } });
        const restored = deserializeValue(encoded.json, { values: encoded.values }, { jsonNull: (name) => Prisma[name] }) as { data: { json: unknown } };
        expect(restored.data.json).toBe(Prisma.DbNull);
        // the input object is not modified
        expect(encoded.json).toEqual({ data: { json: null } });
        expect(() => deserializeValue(encoded.json, { values: encoded.values })).toThrow(/not accepted/);
    });
});

describe('_count: false', () => {
    it('is dropped at any depth without touching the caller\'s arguments, which are returned as they are when there is none', () => {
        const args = { where: { id: 1 }, select: { id: true, _count: false, posts: { include: { _count: false, author: true } } } };
        const copy = JSON.parse(JSON.stringify(args));
        expect(dropFalseCounts(args)).toEqual({ where: { id: 1 }, select: { id: true, posts: { include: { author: true } } } });
        expect(args).toEqual(copy);
        const plain = { include: { posts: { select: { _count: true } } } };
        expect(dropFalseCounts(plain)).toBe(plain);
    });
});
