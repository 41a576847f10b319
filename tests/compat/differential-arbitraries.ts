import Decimal from 'decimal.js';
import fc from 'fast-check';
import { clientJson } from '../rpc/support';

/**
 * Generators of read requests for the differential tests against `@zenstackhq/server` 2.22.3: valid and
 * borderline JSON:API query strings and RPC read arguments over the blog schema (`schema.zmodel`).
 */

type ScalarType = 'Int' | 'String' | 'Boolean' | 'DateTime' | 'Float' | 'BigInt' | 'Decimal' | 'Bytes' | 'Json' | 'Role';
interface Relation {
    target: string;
    many: boolean;
}
interface ModelShape {
    scalars: Record<string, ScalarType>;
    optional: string[];
    relations: Record<string, Relation>;
}

/** The blog schema, as the requests name it (JSON:API types; RPC models are the same names). */
export const MODELS: Record<string, ModelShape> = {
    user: {
        scalars: { id: 'Int', email: 'String', name: 'String', role: 'Role' },
        optional: ['name'],
        relations: { posts: { target: 'post', many: true }, profile: { target: 'profile', many: false }, allTypes: { target: 'allTypes', many: true } },
    },
    profile: { scalars: { id: 'Int', gender: 'String', userId: 'Int' }, optional: [], relations: { user: { target: 'user', many: false } } },
    post: {
        scalars: { id: 'Int', createdAt: 'DateTime', title: 'String', published: 'Boolean', viewCount: 'Int', authorId: 'Int' },
        optional: ['authorId'],
        relations: { author: { target: 'user', many: false }, comments: { target: 'comment', many: true } },
    },
    comment: { scalars: { id: 'Int', content: 'String', postId: 'Int' }, optional: [], relations: { post: { target: 'post', many: false } } },
    allTypes: {
        scalars: { id: 'String', string: 'String', int: 'Int', float: 'Float', boolean: 'Boolean', dateTime: 'DateTime', bigInt: 'BigInt', decimal: 'Decimal', bytes: 'Bytes', json: 'Json', role: 'Role', ownerId: 'Int' },
        optional: ['bytes', 'json', 'ownerId'],
        relations: { owner: { target: 'user', many: false } },
    },
};
const TYPES = Object.keys(MODELS);
const idValues = (type: string) => (type === 'allTypes' ? ['typed', 'other', 'bare', 'nope'] : ['1', '2', '3', '4', '5', '99']);

// ---------------------------------------------------------------- JSON:API

/** Filter values as a query string carries them: valid ones, several (any-of), and a few a field cannot take. */
const REST_VALUES: Record<ScalarType, string[]> = {
    Int: ['1', '2', '5', '9', '0', '-3', '1,4', '5,9', '7'],
    String: ['Draft', 'Bob', 'ub', 'P', 'alice@x', 'Nice,Meh', 's', 'f', 'Bob published'],
    Boolean: ['true', 'false'],
    DateTime: ['2024-05-01T10:00:00.000Z', '2024-01-01', '2030-01-01T00:00:00Z'],
    Float: ['1.5', '0', '2e3', '-0.5'],
    BigInt: ['9007199254740993', '0', '42'],
    Decimal: ['12.345', '12', '0.5'],
    Bytes: ['AQID', 'AA=='],
    Json: ['{"a":[1,"two",null]}', '{"b":1}', '1'],
    Role: ['ADMIN', 'USER', 'ADMIN,USER'],
};
const BORDERLINE_VALUES = ['', 'x', '1.5', '2147483648', 'TRUE', '2024-02-30', 'NOPE', '{bad', '%', '_'];
const OPERATORS = ['', '', '', '$lt', '$lte', '$gt', '$gte', '$contains', '$icontains', '$startsWith', '$endsWith', '$search', '$has', '$hasEvery', '$hasSome', '$isEmpty'];
/** Operators of ours that 2.22.3 does not have (it answers them `400 invalid-filter`). */
export const EXTENSION_OPERATORS = ['$in', '$ne', '$notIn', '$isNull', '$between'];

/** A scalar filter on one model: `[key suffix, value]`, the key suffix being `[field$op]`. */
function scalarFilter(type: string): fc.Arbitrary<[string, string]> {
    const { scalars } = MODELS[type];
    return fc.constantFrom(...Object.keys(scalars)).chain((field) =>
        fc.tuple(
            fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...OPERATORS) }, { weight: 1, arbitrary: fc.constantFrom(...EXTENSION_OPERATORS) }),
            fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...REST_VALUES[scalars[field]]) }, { weight: 1, arbitrary: fc.constantFrom(...BORDERLINE_VALUES, 'true', 'false') }),
        ).map(([op, value]): [string, string] => [`[${field}${op}]`, value]),
    );
}

/** A filter parameter: on a field, on a relationship by id, or through relationships (depth up to 2). */
function restFilter(type: string, depth = 0): fc.Arbitrary<[string, string]> {
    const relations = Object.entries(MODELS[type].relations);
    const byId: fc.Arbitrary<[string, string]> = fc
        .tuple(fc.constantFrom(...relations), fc.constantFrom('', '', '$isEmpty'))
        .chain(([[name, rel], op]) =>
            fc.constantFrom(...(op === '$isEmpty' ? ['true', 'false'] : [...idValues(rel.target), `${idValues(rel.target)[0]},${idValues(rel.target)[1]}`])).map((v): [string, string] => [`[${name}${op}]`, v]),
        );
    const options = [
        { weight: 5, arbitrary: scalarFilter(type) },
        { weight: 2, arbitrary: byId },
        { weight: 1, arbitrary: fc.constantFrom<[string, string]>(['[nope]', '1'], ['[id$nope]', '1'], ['[title][x]', '1']) },
    ];
    if (depth < 2) {
        options.push({
            weight: 2,
            arbitrary: fc.constantFrom(...relations).chain(([name, rel]) => restFilter(rel.target, depth + 1).map(([key, value]): [string, string] => [`[${name}]${key}`, value])),
        });
    }
    return fc.oneof(...options);
}

/** Sort keys: fields, `-fields`, to-one relationships (their id) and paths through them. */
function sortKeys(type: string, depth = 0): string[] {
    const { scalars, relations } = MODELS[type];
    const keys = Object.keys(scalars);
    for (const [name, rel] of Object.entries(relations)) {
        keys.push(name);
        if (!rel.many && depth < 1) keys.push(...sortKeys(rel.target, depth + 1).map((k) => `${name}.${k}`));
    }
    return keys;
}

/** Include paths up to two relationships deep. */
function includePaths(type: string, depth = 0): string[] {
    const paths: string[] = [];
    for (const [name, rel] of Object.entries(MODELS[type].relations)) {
        paths.push(name);
        if (depth < 1) paths.push(...includePaths(rel.target, depth + 1).map((p) => `${name}.${p}`));
    }
    return paths;
}

const sortFor = (type: string): fc.Arbitrary<string> =>
    fc
        .tuple(
            fc.array(fc.tuple(fc.boolean(), fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...sortKeys(type)) }, { weight: 1, arbitrary: fc.constantFrom('nope', 'author.nope', 'title.x') })), { minLength: 1, maxLength: 2 }),
            fc.constantFrom('id', '-id'),
        )
        // 2.22.3 adds no tie-breaker: ending with the id makes both orders total (ours adds the id itself, documented)
        .map(([keys, last]) => [...keys.map(([desc, k]) => (desc ? `-${k}` : k)), last].join(','));

const includeFor = (type: string): fc.Arbitrary<string> =>
    fc.oneof({ weight: 9, arbitrary: fc.uniqueArray(fc.constantFrom(...includePaths(type)), { minLength: 1, maxLength: 3 }).map((p) => p.join(',')) }, { weight: 1, arbitrary: fc.constantFrom('nope', 'author.nope') });

/** `fields[type]` for the primary type or an included one: some attributes and relationships, never empty (documented). */
const fieldsFor = (type: string): fc.Arbitrary<[string, string]> =>
    fc.constantFrom(type, ...Object.values(MODELS[type].relations).map((r) => r.target)).chain((t) =>
        fc.uniqueArray(fc.constantFrom(...Object.keys(MODELS[t].scalars), ...Object.keys(MODELS[t].relations)), { minLength: 1, maxLength: 3 }).map((names): [string, string] => [`fields[${t}]`, names.join(',')]),
    );

/** The query of a collection read: filters, sort, page, include, fields. */
function collectionQuery(type: string): fc.Arbitrary<Record<string, string>> {
    return fc
        .record(
            {
                filters: fc.array(restFilter(type), { maxLength: 3 }),
                sort: sortFor(type),
                offset: fc.integer({ min: 0, max: 5 }),
                limit: fc.integer({ min: 1, max: 4 }),
                include: includeFor(type),
                fields: fieldsFor(type),
            },
            { requiredKeys: ['filters'] },
        )
        .map(({ filters, sort, offset, limit, include, fields }) => {
            const query: Record<string, string> = {};
            for (const [key, value] of filters) {
                // the same parameter twice would be an array: keep the first
                query[`filter${key}`] ??= value;
            }
            if (sort !== undefined) query.sort = sort;
            if (offset !== undefined) query['page[offset]'] = String(offset);
            if (limit !== undefined) query['page[limit]'] = String(limit);
            if (include !== undefined) query.include = include;
            if (fields) query[fields[0]] = fields[1];
            return query;
        });
}

export interface RestRead {
    path: string;
    query: Record<string, string>;
    user: number | undefined;
}

const user = fc.constantFrom(undefined, 1, 2, 3);

/** A JSON:API read: a collection, a resource, a related resource or collection, or a relationship. */
export const restRead: fc.Arbitrary<RestRead> = fc.constantFrom(...TYPES).chain((type) => {
    const relations = Object.entries(MODELS[type].relations);
    const id = fc.constantFrom(...idValues(type));
    const collection = fc.record({ path: fc.constant(`/${type}`), query: collectionQuery(type) });
    const single = fc.record({
        path: id.map((i) => `/${type}/${i}`),
        query: fc.record({ include: includeFor(type), fields: fieldsFor(type) }, { requiredKeys: [] }).map(({ include, fields }) => ({ ...(include ? { include } : {}), ...(fields ? { [fields[0]]: fields[1] } : {}) })),
    });
    const related = fc.tuple(id, fc.constantFrom(...relations), fc.boolean()).chain(([i, [name, rel], linkage]) =>
        fc.record({
            path: fc.constant(linkage ? `/${type}/${i}/relationships/${name}` : `/${type}/${i}/${name}`),
            // 2.22.3 ignores `include` on relationship endpoints (documented): only the related endpoint gets one
            query: rel.many ? collectionQuery(rel.target).map((q) => (linkage ? withoutKeys(q, 'include', `fields[${rel.target}]`) : q)) : fc.constant({}),
        }),
    );
    return fc.record({ request: fc.oneof({ weight: 5, arbitrary: collection }, { weight: 1, arbitrary: single }, { weight: 2, arbitrary: related }), user }).map(({ request, user }) => ({ ...request, user }));
});

function withoutKeys(query: Record<string, string>, ...keys: string[]): Record<string, string> {
    const copy = { ...query };
    for (const k of Object.keys(copy)) if (keys.includes(k) || k.startsWith('fields[')) delete copy[k];
    return copy;
}

// ---------------------------------------------------------------- RPC

/**
 * Values of the RPC filters. The typed ones (Date, bigint, Decimal, Buffer) go through superjson's metadata as the
 * hooks send them (`rpcQuery`), and the Dates differ from every seeded one too: a walk that took a Date for an
 * empty filter once dropped the condition, which no seeded date could show.
 */
const RPC_VALUES: Record<ScalarType, unknown[]> = {
    Int: [0, 1, 2, 5, 9, 7],
    String: ['Draft', 'Bob', 'ub', 'P', 'alice@x', 'Nice', 's', 'f', ''],
    Boolean: [true, false],
    DateTime: ['2024-05-01T10:00:00.000Z', '2024-01-01T00:00:00.000Z', new Date('2024-05-01T10:00:00.000Z'), new Date('2000-01-01T00:00:00.000Z')],
    Float: [1.5, 0, -0.5],
    BigInt: [0, 42, 42n, BigInt('9007199254740993')],
    Decimal: [12, 0.5, new Decimal('12.345'), new Decimal('-1')],
    Bytes: [Buffer.from([1, 2, 3]), Buffer.alloc(0)],
    Json: [],
    Role: ['ADMIN', 'USER'],
};

/** A condition on one scalar field, in the forms Prisma takes. */
function scalarCondition(type: ScalarType, optional: boolean): fc.Arbitrary<unknown> {
    const values = RPC_VALUES[type];
    if (values.length === 0) return fc.constant(optional ? { not: null } : undefined);
    const v = fc.constantFrom(...values);
    const forms: fc.Arbitrary<unknown>[] = [v, v.map((x) => ({ equals: x })), v.map((x) => ({ not: x })), fc.uniqueArray(v, { minLength: 1, maxLength: 2 }).map((xs) => ({ in: xs })), fc.uniqueArray(v, { maxLength: 2 }).map((xs) => ({ notIn: xs }))];
    // Bytes has no comparisons in Prisma: both sides refuse them, but 2.22.3 only where the query runs (not under a
    // parent the user cannot read), which says nothing about the handlers
    if (type !== 'Boolean' && type !== 'Role' && type !== 'Bytes') forms.push(fc.tuple(fc.constantFrom('lt', 'lte', 'gt', 'gte'), v).map(([op, x]) => ({ [op]: x })), v.map((x) => ({ not: { gt: x } })));
    if (type === 'String') forms.push(fc.tuple(fc.constantFrom('contains', 'startsWith', 'endsWith'), v).map(([op, x]) => ({ [op]: x })));
    if (optional) forms.push(fc.constantFrom(null, { not: null }, { equals: null }));
    return fc.oneof(...forms);
}

/** A `where` of a model: field conditions, relation filters (`some`/`every`/`none`, `is`/`isNot`) and `AND`/`OR`/`NOT`. */
export function rpcWhere(model: string, depth = 0): fc.Arbitrary<Record<string, unknown>> {
    const { scalars, optional, relations } = MODELS[model];
    const scalarEntry = fc.constantFrom(...Object.keys(scalars).filter((f) => RPC_VALUES[scalars[f]].length > 0 || optional.includes(f))).chain((f) => scalarCondition(scalars[f], optional.includes(f)).map((c) => [f, c] as [string, unknown]));
    const entries: { weight: number; arbitrary: fc.Arbitrary<[string, unknown]> }[] = [{ weight: 5, arbitrary: scalarEntry }];
    if (depth < 2) {
        const sub = (target: string) => rpcWhere(target, depth + 1);
        entries.push({
            weight: 2,
            arbitrary: fc.constantFrom(...Object.entries(relations)).chain(([name, rel]) =>
                (rel.many
                    ? fc.tuple(fc.constantFrom('some', 'every', 'none'), sub(rel.target)).map(([op, w]) => ({ [op]: w }))
                    : fc.oneof(sub(rel.target), fc.tuple(fc.constantFrom('is', 'isNot'), fc.oneof(sub(rel.target), fc.constant(null))).map(([op, w]) => ({ [op]: w })))
                ).map((c) => [name, c] as [string, unknown]),
            ),
        });
        entries.push({
            weight: 1,
            arbitrary: fc.tuple(fc.constantFrom('AND', 'OR', 'NOT'), fc.array(rpcWhere(model, depth + 1), { minLength: 1, maxLength: 2 })).map(([op, ws]) => [op, op === 'NOT' && ws.length === 1 ? ws[0] : ws] as [string, unknown]),
        });
    }
    return fc.array(fc.oneof(...entries), { maxLength: 2 }).map((list) => Object.fromEntries(list));
}

const NUMERIC: Record<string, string[]> = { user: ['id'], profile: ['id', 'userId'], post: ['id', 'viewCount', 'authorId'], comment: ['id', 'postId'], allTypes: ['int', 'float', 'bigInt', 'decimal', 'ownerId'] };
const orderable = (model: string) => Object.keys(MODELS[model].scalars).filter((f) => !['Json', 'Bytes'].includes(MODELS[model].scalars[f]));

/** One `orderBy` item: a field, a field with `nulls`, a to-one relation's field, or a to-many relation's `_count`. */
function orderItem(model: string): fc.Arbitrary<Record<string, unknown>> {
    const dir = fc.constantFrom('asc', 'desc');
    const { relations, optional } = MODELS[model];
    const forms: fc.Arbitrary<Record<string, unknown>>[] = [fc.tuple(fc.constantFrom(...orderable(model)), dir).map(([f, d]) => ({ [f]: d }))];
    if (optional.length) forms.push(fc.tuple(fc.constantFrom(...optional.filter((f) => orderable(model).includes(f))), dir, fc.constantFrom('first', 'last')).map(([f, d, n]) => ({ [f]: { sort: d, nulls: n } })));
    const toOne = Object.entries(relations).filter(([, r]) => !r.many);
    const toMany = Object.entries(relations).filter(([, r]) => r.many);
    if (toOne.length) forms.push(fc.constantFrom(...toOne).chain(([name, rel]) => fc.tuple(fc.constantFrom(...orderable(rel.target)), dir).map(([f, d]) => ({ [name]: { [f]: d } }))));
    if (toMany.length) forms.push(fc.tuple(fc.constantFrom(...toMany), dir).map(([[name], d]) => ({ [name]: { _count: d } })));
    return fc.oneof(...forms);
}

/** `orderBy` ending with the id, so that both sides' order is total. */
const orderBy = (model: string) => fc.tuple(fc.array(orderItem(model), { maxLength: 2 }), fc.constantFrom('asc', 'desc')).map(([items, d]) => [...items, { id: d }]);

/** A `select` or `include` of a model, nested one level with a filtered, ordered, paginated to-many. */
function selection(model: string, depth = 0): fc.Arbitrary<Record<string, unknown>> {
    const { scalars, relations } = MODELS[model];
    const relationArg = ([name, rel]: [string, Relation]): fc.Arbitrary<[string, unknown]> => {
        const nested = depth < 1 ? selection(rel.target, depth + 1) : fc.constant(undefined);
        return (
            rel.many
                ? fc.record({ where: rpcWhere(rel.target, 1), orderBy: orderBy(rel.target), take: fc.integer({ min: 1, max: 2 }), skip: fc.integer({ min: 0, max: 1 }), nested }, { requiredKeys: [] })
                : fc.record({ nested }, { requiredKeys: [] })
        ).map(({ nested: n, ...args }: Record<string, unknown>) => [name, Object.keys(args).length || n ? { ...args, ...(n as object) } : true]);
    };
    const count = Object.entries(relations).filter(([, r]) => r.many);
    const entries: fc.Arbitrary<[string, unknown]>[] = [fc.constantFrom(...Object.entries(relations)).chain(relationArg)];
    if (count.length) entries.push(fc.constantFrom(...count).map(([name]) => ['_count', { select: { [name]: true } }] as [string, unknown]));
    return fc.oneof(
        fc.tuple(fc.uniqueArray(fc.constantFrom(...Object.keys(scalars)), { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(...entries), { maxLength: 2 })).map(([fields, rels]) => ({ select: { ...Object.fromEntries(fields.map((f) => [f, true])), ...Object.fromEntries(rels) } })),
        fc.array(fc.oneof(...entries), { minLength: 1, maxLength: 2 }).map((rels) => ({ include: Object.fromEntries(rels) })),
    );
}

export interface RpcRead {
    model: string;
    op: string;
    args: Record<string, unknown>;
    user: number | undefined;
}

function findArgs(model: string): fc.Arbitrary<Record<string, unknown>> {
    const id = model === 'allTypes' ? fc.constantFrom('typed', 'other') : fc.integer({ min: 1, max: 5 });
    return fc
        .record(
            {
                where: rpcWhere(model),
                orderBy: orderBy(model),
                selection: selection(model),
                take: fc.integer({ min: -2, max: 3 }),
                skip: fc.integer({ min: 0, max: 2 }),
                cursor: id.map((i) => ({ id: i })),
                distinct: fc.uniqueArray(fc.constantFrom(...orderable(model)), { minLength: 1, maxLength: 2 }),
            },
            { requiredKeys: [] },
        )
        .map(({ selection: s, ...args }) => ({ ...args, ...s }));
}

function aggregateArgs(model: string): fc.Arbitrary<Record<string, unknown>> {
    const numeric = fc.uniqueArray(fc.constantFrom(...NUMERIC[model]), { minLength: 1, maxLength: 2 }).map((fs) => Object.fromEntries(fs.map((f) => [f, true])));
    const any = fc.uniqueArray(fc.constantFrom(...orderable(model)), { minLength: 1, maxLength: 2 }).map((fs) => Object.fromEntries(fs.map((f) => [f, true])));
    return fc.record(
        { where: rpcWhere(model), orderBy: orderBy(model), take: fc.integer({ min: 1, max: 3 }), skip: fc.integer({ min: 0, max: 2 }), _count: fc.oneof(fc.constant(true), any), _sum: numeric, _avg: numeric, _min: any, _max: any },
        { requiredKeys: [] },
    );
}

function groupByArgs(model: string): fc.Arbitrary<Record<string, unknown>> {
    const fields = orderable(model).filter((f) => f !== 'id');
    return fc.uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: 2 }).chain((by) =>
        fc
            .record(
                {
                    where: rpcWhere(model),
                    _count: fc.constant({ _all: true }),
                    _sum: fc.uniqueArray(fc.constantFrom(...NUMERIC[model]), { minLength: 1, maxLength: 1 }).map((fs) => ({ [fs[0]]: true })),
                    _min: fc.constant({ id: true }),
                    take: fc.integer({ min: 1, max: 3 }),
                },
                { requiredKeys: [] },
            )
            // Prisma wants an orderBy with take; ordering by every `by` field makes the order total
            .chain((args) => fc.constantFrom('asc', 'desc').map((d) => ({ ...args, by, orderBy: by.map((f) => ({ [f]: d })) }))),
    );
}

function countArgs(model: string): fc.Arbitrary<Record<string, unknown>> {
    return fc.record(
        {
            where: rpcWhere(model),
            take: fc.integer({ min: 1, max: 3 }),
            skip: fc.integer({ min: 0, max: 2 }),
            orderBy: orderBy(model),
            select: fc.uniqueArray(fc.constantFrom('_all', ...Object.keys(MODELS[model].scalars)), { minLength: 1, maxLength: 2 }).map((fs) => Object.fromEntries(fs.map((f) => [f, true]))),
        },
        { requiredKeys: [] },
    );
}

const OPS: Record<string, (model: string) => fc.Arbitrary<Record<string, unknown>>> = {
    findMany: findArgs,
    findFirst: findArgs,
    count: countArgs,
    aggregate: aggregateArgs,
    groupBy: groupByArgs,
};

/** An RPC read of any model. */
export const rpcRead: fc.Arbitrary<RpcRead> = fc
    .tuple(fc.constantFrom(...TYPES), fc.constantFrom(...Object.keys(OPS)))
    .chain(([model, op]) => fc.record({ model: fc.constant(model), op: fc.constant(op), args: OPS[op](model), user }));

/** An RPC read's `q` (and `meta`) as ZenStack's hooks send it: superjson, its metadata beside the JSON. */
export function rpcQuery(args: unknown): Record<string, string> {
    const { json, meta } = clientJson.serialize(args);
    return meta ? { q: JSON.stringify(json), meta: JSON.stringify({ serialization: meta }) } : { q: JSON.stringify(json) };
}
