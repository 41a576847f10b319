import fc from 'fast-check';

/** Generators of hostile and malformed requests for both protocols. */

export const HOSTILE_SEGMENTS = [
    '__proto__',
    'constructor',
    'prototype',
    '$queryRaw',
    '$executeRawUnsafe',
    '$transaction',
    'toString',
    'hasOwnProperty',
    '_engine',
    '%2e%2e',
    '%00',
    '%ZZ',
    '%E2%80%AE',
    'caf%C3%A9',
    '🙂',
    '..',
    '',
];

const MODELS = ['user', 'post', 'comment', 'profile', 'allTypes', 'User', 'Post', 'nope'];
const RPC_OPS = [
    'findMany', 'findUnique', 'findFirst', 'count', 'aggregate', 'groupBy', 'create', 'createMany', 'createManyAndReturn',
    'upsert', 'update', 'updateMany', 'updateManyAndReturn', 'delete', 'deleteMany', 'check', 'findRaw', 'nope',
];
const FIELDS = ['id', 'title', 'published', 'viewCount', 'authorId', 'author', 'comments', 'email', 'name', 'bytes', 'bigInt', 'decimal', 'dateTime', 'json', 'role', '__proto__', 'constructor', 'x'];
const OPERATORS = ['', '$lt', '$lte', '$gt', '$gte', '$contains', '$icontains', '$search', '$startsWith', '$endsWith', '$has', '$hasEvery', '$hasSome', '$isEmpty', '$ne', '$isNull', '$between', '$in', '$notIn', '$raw', '$'];

export const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'OPTIONS');

const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...MODELS) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 50 }).map(String) },
    { weight: 1, arbitrary: fc.constant('a'.repeat(3000)) },
);

/** A value that is JSON but hostile: deep, wide, wrong types, prototype keys. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}')) },
    { weight: 1, arbitrary: fc.constant(deep(50)) },
    { weight: 1, arbitrary: fc.constant(Array.from({ length: 200 }, (_, i) => i)) },
    {
        weight: 3,
        arbitrary: fc.record(
            { where: fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 3 })), take: fc.jsonValue({ maxDepth: 1 }), include: fc.jsonValue({ maxDepth: 2 }) },
            { requiredKeys: [] },
        ),
    },
    { weight: 3, arbitrary: fc.record({ where: malformedFilter(), data: malformedWrite() }, { requiredKeys: [] }) },
);

/** Filters whose relation and logical members hold anything: primitives, null, lists, half-formed filters. */
function malformedFilter(): fc.Arbitrary<unknown> {
    const member = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.dictionary(fc.constantFrom('is', 'isNot', 'some', 'every', 'none', 'id'), fc.jsonValue({ maxDepth: 1 })));
    return fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.dictionary(fc.constantFrom('author', 'comments', 'posts', 'post', 'AND', 'OR', 'NOT', 'id'), member));
}

/** Write payloads whose nested writes hold anything. */
function malformedWrite(): fc.Arbitrary<unknown> {
    const ops = fc.dictionary(
        fc.constantFrom('create', 'createMany', 'connect', 'connectOrCreate', 'update', 'updateMany', 'upsert', 'delete', 'deleteMany', 'set', 'disconnect'),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.array(fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 1 })), { maxLength: 3 })),
    );
    const data = fc.dictionary(fc.constantFrom('title', 'author', 'comments', 'posts', 'profile', 'post'), fc.oneof(fc.jsonValue({ maxDepth: 1 }), ops));
    return fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.array(fc.oneof(fc.constant(null), data), { maxLength: 3 }), data);
}

function deep(levels: number): unknown {
    let v: unknown = { leaf: true };
    for (let i = 0; i < levels; i++) v = { where: v };
    return v;
}

/** Typed-field values that are invalid for their types, with serialization metadata that may point anywhere. */
const typedGarbage = fc.record({
    data: fc.record(
        {
            bytes: fc.constantFrom('!!notbase64', 'AQ=', 5, null, {}),
            decimal: fc.constantFrom('1.2.3', 'abc', 'NaN', '1e99999', [], '12'),
            bigInt: fc.constantFrom('1.5', 'x', '99999999999999999999999999', '9223372036854775808', 1.5, true),
            // numbers Prisma changes silently, or stores and cannot read back (an Int beyond 2^53 on SQLite)
            int: fc.constantFrom(1.5, 2 ** 31, 2 ** 32 + 1, 2 ** 53 + 2, -(2 ** 53) - 2, 1e20, '7'),
            dateTime: fc.constantFrom('not a date', '2024-13-45', 1e20, '2024-01-01T00:00:00Z'),
            json: fc.jsonValue({ maxDepth: 3 }),
        },
        { requiredKeys: [] },
    ),
    meta: fc.oneof(
        fc.constant(undefined),
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({
            serialization: fc.record({
                values: fc.dictionary(
                    fc.constantFrom('data.bytes', 'bytes', 'data.decimal', 'data.bigInt', 'data.dateTime', '__proto__.polluted', 'constructor.prototype.polluted', 'data.__proto__.x', 'a.b.c.d', ''),
                    fc.constantFrom(['Date'], ['bigint'], [['custom', 'Bytes']], [['custom', 'Decimal']], [['custom', 'DbNull']], ['regexp'], ['set'], 'Date', [], [['custom', 'Nope']]),
                ),
            }),
        }),
    ),
});

/** Numbers Prisma changes silently (fractions for Ints, skip/take beyond 32 bits) or cannot read back (Ints beyond 2^53), and fine ones. */
const someNumber = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(1.5, -0.5, 2 ** 31, 2 ** 32 + 1, 2 ** 53 + 2, -(2 ** 53) - 2, 1e20) },
    { weight: 1, arbitrary: fc.constantFrom(0, 1, 2) },
);
const optional = { requiredKeys: [] as never[] };
/** One plausible call `{ model, op, args }` with such numbers where Prisma takes numbers, or with a shape the ORM failed on. */
export const numberCall: fc.Arbitrary<{ model: string; op: string; args: unknown }> = fc.oneof(
    fc.record({ model: fc.constant('allTypes'), op: fc.constant('create'), args: fc.record({ data: fc.record({ id: fc.constantFrom('n1', 'n2'), int: someNumber }) }) }),
    fc.record({ model: fc.constant('allTypes'), op: fc.constant('updateMany'), args: fc.record({ where: fc.record({ int: someNumber }, optional), data: fc.record({ int: someNumber }) }) }),
    fc.record({ model: fc.constantFrom('post', 'comment'), op: fc.constantFrom('findMany', 'count'), args: fc.record({ where: fc.record({ id: someNumber }, optional), skip: someNumber, take: someNumber }, optional) }),
    fc.record({ model: fc.constant('post'), op: fc.constantFrom('deleteMany', 'findMany'), args: fc.record({ where: fc.record({ id: fc.record({ in: fc.array(someNumber, { maxLength: 2 }) }) }) }) }),
    fc.record({ model: fc.constant('post'), op: fc.constant('update'), args: fc.record({ where: fc.record({ id: someNumber }), data: fc.record({ viewCount: someNumber }) }) }),
    fc.record({ model: fc.constant('user'), op: fc.constant('findMany'), args: fc.record({ include: fc.record({ posts: fc.record({ take: someNumber, skip: someNumber }, optional) }) }) }),
    // shapes Prisma's query compiler panicked on (empty having conditions) and ZenStack crashed on (`_count: false`, a null aggregate selection)
    fc.record({
        model: fc.constant('post'),
        op: fc.constant('groupBy'),
        args: fc.record({ by: fc.constant(['authorId']), having: fc.constantFrom({}, { title: {} }, { viewCount: { _sum: {} } }, { title: { not: {} } }, { viewCount: { _sum: { gt: 1 } } }), _count: fc.constantFrom(true, { _all: null }) }),
    }),
    fc.record({ model: fc.constantFrom('post', 'allTypes'), op: fc.constantFrom('findMany', 'findFirst'), args: fc.record({ select: fc.constantFrom({ id: true, _count: false }, { id: true, _count: { where: {} } }, { id: true, _count: true }) }) }),
);

export const rpcBody: fc.Arbitrary<unknown> = fc.oneof(hostileJson, typedGarbage, fc.array(fc.record({ model: fc.constantFrom(...MODELS, '__proto__'), op: fc.constantFrom(...RPC_OPS), args: hostileJson }), { maxLength: 4 }));

const restResourceBody = fc.record(
    {
        data: fc.oneof(
            hostileJson,
            fc.record(
                {
                    type: fc.constantFrom(...MODELS, 5, null),
                    id: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)),
                    attributes: fc.oneof(fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 })), hostileJson),
                    relationships: fc.oneof(
                        fc.dictionary(fc.constantFrom(...FIELDS), fc.record({ data: fc.oneof(fc.constant(null), fc.record({ type: fc.constantFrom(...MODELS), id: fc.jsonValue({ maxDepth: 1 }) }), fc.array(fc.record({ type: fc.constantFrom(...MODELS), id: fc.jsonValue({ maxDepth: 1 }) }), { maxLength: 3 })) })),
                        hostileJson,
                    ),
                },
                { requiredKeys: [] },
            ),
            fc.array(fc.record({ type: fc.constantFrom(...MODELS), id: fc.jsonValue({ maxDepth: 1 }) }), { maxLength: 3 }),
        ),
        meta: fc.oneof(
            typedGarbage.map((t) => t.meta),
            // upsert requests (POST /:type), well-formed or not
            fc.record(
                {
                    operation: fc.constantFrom('upsert', 'merge', 5, null),
                    matchFields: fc.oneof(fc.array(fc.constantFrom(...FIELDS), { maxLength: 3 }), hostileJson),
                },
                { requiredKeys: [] },
            ),
        ),
    },
    { requiredKeys: [] },
);

export const restBody: fc.Arbitrary<unknown> = fc.oneof(restResourceBody, hostileJson);

/** 10,000-deep nesting and very large arrays, prebuilt as text (generating them as values would overflow the stack). */
const DEEP_ARRAY_TEXT = '['.repeat(10_000) + ']'.repeat(10_000);
const DEEP_OBJECT_TEXT = '{"where":'.repeat(10_000) + '{}' + '}'.repeat(10_000);
const DEEP_DATA_TEXT = '{"data":{"title":"t","json":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000) + '}}';
const LARGE_ARRAY_TEXT = JSON.stringify({ data: Array.from({ length: 20_000 }, (_, i) => ({ type: 'post', id: i, title: `t${i}` })) });

/** A raw body: JSON of a generated value, or text that is not JSON at all. */
export function rawBody(body: fc.Arbitrary<unknown>): fc.Arbitrary<string | undefined> {
    return fc.oneof(
        { weight: 6, arbitrary: body.map((b) => JSON.stringify(b)) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom('{', '{"data":', 'null', '"str"', '[]', 'undefined', '\u0000', '{"a":1}garbage') },
        { weight: 1, arbitrary: fc.constantFrom(DEEP_ARRAY_TEXT, DEEP_OBJECT_TEXT, DEEP_DATA_TEXT, LARGE_ARRAY_TEXT) },
    );
}

/**
 * Values a database may refuse to store or compare although they are valid JSON: a NUL byte in text
 * (PostgreSQL), a lone surrogate, LIKE wildcards and quotes, dates beyond what a column holds (PostgreSQL
 * keeps 4713 BC to 294276 AD, JavaScript ±275760), integers beyond 32 and 64 bits, float extremes.
 */
const STORED_HOSTILE_VALUES: readonly unknown[] = [
    'a\u0000b',
    '\u0000',
    '\ud800',
    '%_\\\'"',
    "'; DROP TABLE \"Post\"; --",
    '-271821-04-20T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '2024-02-30T00:00:00.000Z',
    '9223372036854775808',
    '-9223372036854775809',
    2 ** 31,
    2 ** 63,
    -(2 ** 63) - 1025,
    1.7976931348623157e308,
    5e-324,
    // beyond what a PostgreSQL b-tree index entry holds (about 2.7 KB): a unique column's value, or a key
    'x'.repeat(12_000),
];
const storedHostile = fc.constantFrom(...STORED_HOSTILE_VALUES);
const text = (v: unknown) => (typeof v === 'string' ? v : String(v));
/** A query value: what a URL can carry (percent-encoding takes only well-formed text: a lone surrogate becomes U+FFFD). */
const uri = (v: unknown) => encodeURIComponent(text(v).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** Plausible calls and bodies carrying such values where they reach a column or a filter. */
export const storedValueCall: fc.Arbitrary<{ model: string; op: string; args: unknown }> = storedHostile.chain((v) =>
    fc.constantFrom(
        { model: 'post', op: 'create', args: { data: { title: text(v), author: { connect: { id: 1 } } } } },
        { model: 'post', op: 'update', args: { where: { id: 1 }, data: { title: text(v), viewCount: v } } },
        { model: 'post', op: 'findMany', args: { where: { title: { contains: text(v) } } } },
        { model: 'post', op: 'findMany', args: { where: { OR: [{ title: text(v) }, { viewCount: { gt: v } }, { createdAt: { lt: v } }] } } },
        { model: 'user', op: 'findMany', args: { where: { email: { startsWith: text(v), mode: 'insensitive' } } } },
        { model: 'user', op: 'upsert', args: { where: { email: text(v) }, create: { email: text(v) }, update: { name: text(v) } } },
        { model: 'allTypes', op: 'create', args: { data: { string: text(v), json: { k: v, [text(v).slice(0, 40)]: [v] } } } },
        { model: 'allTypes', op: 'create', args: { data: { dateTime: v, int: v, float: v, bigInt: v, decimal: v } } },
        { model: 'allTypes', op: 'updateMany', args: { where: { json: { equals: v } }, data: { string: text(v) } } },
        { model: 'allTypes', op: 'findMany', args: { where: { OR: [{ dateTime: { gte: v } }, { bigInt: { lt: v } }, { decimal: v }, { string: { endsWith: text(v) } }] } } },
    ),
);

export const storedValueRest: fc.Arbitrary<{ path: string; search: string; method: string; body: unknown }> = storedHostile.chain((v) =>
    fc.constantFrom(
        { method: 'POST', path: '/post', search: '', body: { data: { type: 'post', attributes: { title: text(v) }, relationships: { author: { data: { type: 'user', id: 1 } } } } } },
        { method: 'PATCH', path: '/post/1', search: '', body: { data: { type: 'post', id: '1', attributes: { title: text(v), viewCount: v } } } },
        { method: 'POST', path: '/allTypes', search: '', body: { data: { type: 'allTypes', attributes: { string: text(v), dateTime: v, int: v, bigInt: v, decimal: v, json: { k: v } } } } },
        { method: 'GET', path: '/post', search: `?filter[title$contains]=${uri(v)}`, body: undefined },
        { method: 'GET', path: '/post', search: `?filter[viewCount$gt]=${uri(v)}&filter[createdAt$lt]=${uri(v)}`, body: undefined },
        { method: 'GET', path: '/allTypes', search: `?filter[dateTime]=${uri(v)}&filter[bigInt$gte]=${uri(v)}`, body: undefined },
        { method: 'GET', path: '/allTypes', search: `?filter[decimal$lt]=${uri(v)}&filter[string$startsWith]=${uri(v)}`, body: undefined },
        { method: 'GET', path: `/user/${uri(text(v).slice(0, 100))}`, search: '', body: undefined },
        { method: 'PATCH', path: '/post/1/relationships/comments', search: '', body: { data: [{ type: 'comment', id: v }] } },
    ),
);

const queryValue = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constantFrom('', 'true', 'false', '-1', '0', '1e309', 'NaN', '1,2,3', ',', 'x'.repeat(5000), '2024-01-01', 'null'),
    storedHostile.map((v) => decodeURIComponent(uri(v)).slice(0, 5000)),
    hostileJson.map((j) => JSON.stringify(j) ?? ''),
);

export const rpcQuery = fc.record(
    {
        q: fc.oneof(hostileJson.map((j) => JSON.stringify(j) ?? ''), fc.constantFrom('not json', '5', '[]', 'null', '"s"', '{"where":{"id":{"$queryRaw":1}}}')),
        meta: fc.oneof(typedGarbage.map((t) => JSON.stringify(t.meta ?? {})), fc.constantFrom('nope', '{"serialization":5}')),
        extra: queryValue,
    },
    { requiredKeys: [] },
);

const filterKey = fc
    .tuple(fc.array(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 6 }), fc.constantFrom(...OPERATORS))
    .map(([path, op]) => `filter${path.map((p, i) => `[${p}${i === path.length - 1 ? op : ''}]`).join('')}`);

export const restQuery = fc.dictionary(
    fc.oneof(
        filterKey,
        fc.constantFrom('sort', 'include', 'page[offset]', 'page[limit]', 'page[size]', 'fields[post]', 'fields[user]', 'fields[__proto__]', 'filter', 'filter[', 'unknown', '__proto__', 'page', 'fields'),
    ),
    fc.oneof(queryValue, fc.array(queryValue, { maxLength: 3 }), fc.constantFrom('-viewCount', 'author.name', 'author,comments', 'comments.post.author.posts.comments', '1000000', 'title,-id', 'x.y.z')),
    { maxKeys: 6 },
);

export const path = fc.array(segment, { minLength: 0, maxLength: 5 }).map((s) => '/' + s.join('/'));
export const rpcPath = fc.oneof({ weight: 4, arbitrary: fc.tuple(fc.constantFrom(...MODELS, ...HOSTILE_SEGMENTS), fc.constantFrom(...RPC_OPS)).map(([m, o]) => `/${m}/${o}`) }, { weight: 1, arbitrary: path }, { weight: 1, arbitrary: fc.constant('/$transaction/sequential') });
export const restPath = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...MODELS), fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.constantFrom('abc', '1_2', '-1', '1.5', 'sample'))).map(([m, id]) => `/${m}/${id}`) },
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...MODELS), fc.integer({ min: 0, max: 8 }), fc.constantFrom(...FIELDS, 'relationships')).map(([m, id, r]) => `/${m}/${id}/${r}`) },
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...MODELS), fc.integer({ min: 0, max: 8 }), fc.constantFrom(...FIELDS)).map(([m, id, r]) => `/${m}/${id}/relationships/${r}`) },
    { weight: 2, arbitrary: fc.constantFrom(...MODELS).map((m) => `/${m}`) },
    { weight: 1, arbitrary: path },
);

/** Encodes a query object into a query string (repeated keys for arrays). */
export function toSearch(query: Record<string, unknown>): string {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(query)) {
        if (v === undefined) continue;
        for (const item of Array.isArray(v) ? v : [v]) {
            parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(item))}`);
        }
    }
    return parts.length ? `?${parts.join('&')}` : '';
}

/** Plausible RPC requests (real models and operations, mostly valid arguments), so the data path is exercised too. */
const RPC_ARGS = [
    {},
    { where: { id: 1 } },
    { take: 2 },
    { where: { published: true }, include: { author: true } },
    { where: { title: { contains: 'p' } }, orderBy: { id: 'desc' } },
    { select: { id: true, title: true } },
    { _count: true },
    { by: ['published'], _count: true },
    { data: { title: 'new' } },
    { data: { title: 'new', author: { connect: { id: 1 } } } },
    { data: { email: 'fuzz@x' } },
    { where: { id: 2 }, data: { title: 'changed' } },
    { where: { id: 'sample' }, data: { int: 7 } },
    { data: { bytes: 'aGk=', bigInt: '7', decimal: '2.5', dateTime: '2024-01-01T00:00:00.000Z' }, meta: { serialization: { values: { 'data.bytes': [['custom', 'Bytes']], 'data.bigInt': ['bigint'], 'data.decimal': [['custom', 'Decimal']], 'data.dateTime': ['Date'] } } } },
];
export const plausibleRpc = fc.record({
    model: fc.constantFrom('post', 'user', 'comment', 'allTypes'),
    op: fc.constantFrom('findMany', 'findFirst', 'findUnique', 'count', 'aggregate', 'groupBy', 'create', 'update', 'updateMany', 'delete', 'deleteMany', 'upsert'),
    args: fc.constantFrom(...RPC_ARGS),
});

export const PLAUSIBLE_REST_QUERIES = [
    '',
    '?include=author',
    '?include=author,comments',
    '?filter[published]=true&sort=-viewCount',
    '?filter[title$contains]=p&page[limit]=1',
    '?fields[post]=title&page[offset]=1',
    '?filter[author][name]=One',
    '?sort=author.name',
];
export const plausibleRestPath = fc.oneof(
    fc.constantFrom('/post', '/user', '/comment', '/allTypes', '/post/1', '/post/2', '/user/1', '/allTypes/sample', '/post/1/author', '/post/1/comments', '/post/1/relationships/comments', '/user/1/posts', '/post/1/relationships/author'),
);
export const plausibleRestBody = fc.constantFrom(
    { data: { type: 'post', attributes: { title: 'fuzzed' } } },
    { data: { type: 'post', attributes: { title: 'fuzzed' }, relationships: { author: { data: { type: 'user', id: 1 } } } } },
    { data: { type: 'post', id: 1, attributes: { viewCount: 3 } } },
    { data: { type: 'allTypes', attributes: { bytes: 'aGk=', bigInt: '9', decimal: '1.25', dateTime: '2024-01-01T00:00:00.000Z' } } },
    { data: [{ type: 'comment', id: 1 }] },
    { data: null },
    { data: { type: 'user', id: '2' } },
    { data: { type: 'user', attributes: { email: 'fuzz@x', name: 'Fuzz' } }, meta: { operation: 'upsert', matchFields: ['email'] } },
    { data: { type: 'post', id: 1, attributes: { title: 'upserted' } }, meta: { operation: 'upsert', matchFields: ['id'] } },
    // ids as attributes, the 2.x form
    { data: { type: 'post', attributes: { id: 1, title: 'upserted' } }, meta: { operation: 'upsert', matchFields: ['id'] } },
    { data: { type: 'user', attributes: { id: 3, email: 'fuzz-id@x' } } },
    { data: { type: 'post', attributes: { id: 2, title: 'renumbered' } } },
);
