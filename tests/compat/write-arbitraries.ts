import type { ModelMeta } from '@zenstackhq/runtime';
import fc from 'fast-check';

/**
 * Generators of write requests for the differential tests against `@zenstackhq/server` 2.22.3, for any
 * schema: the models, fields and relations come from its model metadata, the values from `WritePools`.
 * RPC: create, createMany, update, updateMany, upsert, delete, deleteMany with nested writes (create,
 * connect, connectOrCreate, disconnect, set, update, updateMany, upsert, delete, deleteMany) one or two
 * levels deep. JSON:API: create, update and delete of resources, and POST/PATCH/DELETE of relationships.
 */

export interface WritePools {
    /** Values by field type (a scalar type or an enum's name), as JSON carries them. */
    values: Record<string, unknown[]>;
    /**
     * Typed values (Date, Decimal, Buffer) the RPC filters of `updateMany`/`deleteMany` take beside `values`: sent
     * through superjson's metadata, as ZenStack's hooks send them.
     */
    filterValues?: Record<string, unknown[]>;
    /** Id values by model (its metadata key): existing and new ones; compound ids as objects of their fields. */
    ids: Record<string, unknown[]>;
    users: (number | undefined)[];
}

interface FieldInfo {
    name: string;
    type: string;
    isId?: boolean;
    isOptional?: boolean;
    isArray?: boolean;
    isDataModel?: boolean;
    isForeignKey?: boolean;
    isAutoIncrement?: boolean;
    isRelationOwner?: boolean;
    foreignKeyMapping?: Record<string, string>;
    backLink?: string;
    attributes?: { name: string }[];
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const fieldsOf = (meta: ModelMeta, model: string) => Object.values(meta.models[model].fields) as FieldInfo[];
const idFields = (meta: ModelMeta, model: string) => fieldsOf(meta, model).filter((f) => f.isId);
const relations = (meta: ModelMeta, model: string) => fieldsOf(meta, model).filter((f) => f.isDataModel);
const hasDefault = (f: FieldInfo) => f.attributes?.some((a) => a.name === '@default' || a.name === '@updatedAt') ?? false;
/** Scalars a request may write (ids and foreign keys apart). */
const writable = (meta: ModelMeta, model: string, pools: WritePools) => fieldsOf(meta, model).filter((f) => !f.isDataModel && !f.isId && !f.isForeignKey && (pools.values[f.type]?.length ?? 0) > 0);
const target = (f: FieldInfo) => lowerFirst(f.type);

/** The unique `where` of a record of `model` by its id (compound ids by their `a_b` name). */
export function uniqueWhere(meta: ModelMeta, model: string, id: unknown): Record<string, unknown> {
    const ids = idFields(meta, model);
    if (ids.length === 1) return { [ids[0].name]: id };
    return { [ids.map((f) => f.name).join('_')]: id };
}

/** A record's JSON:API id: its id values joined by `_` (compound ids). */
export function restId(meta: ModelMeta, model: string, id: unknown): string {
    const ids = idFields(meta, model);
    return ids.length === 1 ? String(id) : ids.map((f) => String((id as Record<string, unknown>)[f.name])).join('_');
}

const pick = <T>(xs: T[]) => fc.constantFrom(...xs);

/** Some writable scalars of `model` with values; `required` adds every required one. */
function scalars(meta: ModelMeta, model: string, pools: WritePools, required: boolean): fc.Arbitrary<Record<string, unknown>> {
    const fields = writable(meta, model, pools);
    const entries = fields.map((f) => {
        const value = fc.oneof({ weight: 6, arbitrary: pick(pools.values[f.type]) }, { weight: f.isOptional ? 1 : 0, arbitrary: fc.constant(null) });
        const mustHave = required && !f.isOptional && !hasDefault(f);
        return fc.tuple(mustHave ? fc.constant(true) : fc.boolean(), value).map(([has, v]) => (has ? [[f.name, v] as [string, unknown]] : []));
    });
    return fc.tuple(...entries).map((list) => Object.fromEntries(list.flat()));
}

/** The id fields of a new record of `model` (left out now and then where the database makes them). */
function newIdFields(meta: ModelMeta, model: string, pools: WritePools): fc.Arbitrary<Record<string, unknown>> {
    const ids = idFields(meta, model);
    const id = pick(pools.ids[model]).map((v) => (ids.length === 1 ? { [ids[0].name]: v } : (v as Record<string, unknown>)));
    // a compound id holding foreign keys: those come from its relations, never set twice
    if (ids.some((f) => f.isForeignKey)) return pick(pools.ids[model]).map((v) => Object.fromEntries(ids.filter((f) => !f.isForeignKey).map((f) => [f.name, (v as Record<string, unknown>)[f.name]])));
    return ids.length === 1 && ids[0].isAutoIncrement ? fc.oneof(id, fc.constant({})) : id;
}

type Context = 'create' | 'update';

/** Data of a record of `model` created or updated, with nested writes on its relations below `depth` 2. */
function data(meta: ModelMeta, model: string, pools: WritePools, context: Context, depth: number, parentBack?: string): fc.Arbitrary<Record<string, unknown>> {
    const rels = relations(meta, model).filter((r) => r.name !== parentBack && pools.ids[target(r)]);
    const nested =
        depth < 2 && rels.length
            ? fc.array(
                  pick(rels).chain((r) => relationWrite(meta, r, pools, context, depth + 1).map((w) => [r.name, w] as [string, unknown])),
                  { maxLength: 2 },
              )
            : fc.constant([] as [string, unknown][]);
    // required to-one relations of a created record (but the parent's): a connect
    const owned = context === 'create' ? rels.filter((r) => r.isRelationOwner && !r.isOptional && !r.isArray) : [];
    const required = fc.tuple(...owned.map((r) => pick(pools.ids[target(r)]).map((id) => [r.name, { connect: uniqueWhere(meta, target(r), id) }] as [string, unknown])));
    return fc
        .tuple(scalars(meta, model, pools, context === 'create'), context === 'create' ? newIdFields(meta, model, pools) : fc.constant({}), required, nested, increment(meta, model))
        .map(([s, id, req, n, inc]) => ({ ...id, ...s, ...(context === 'update' ? inc : {}), ...Object.fromEntries(req), ...Object.fromEntries(n) }));
}

/** Now and then an `increment` of an Int field in an update. */
function increment(meta: ModelMeta, model: string): fc.Arbitrary<Record<string, unknown>> {
    const ints = fieldsOf(meta, model).filter((f) => f.type === 'Int' && !f.isDataModel && !f.isId && !f.isForeignKey);
    if (!ints.length) return fc.constant({});
    return fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: pick(ints).map((f) => ({ [f.name]: { increment: 1 } })) });
}

function scalarWhere(meta: ModelMeta, model: string, pools: WritePools): fc.Arbitrary<Record<string, unknown>> {
    // a typed value half the time where the field takes one
    const valuesOf = (f: FieldInfo) => [pools.values[f.type] ?? [], pools.filterValues?.[f.type] ?? []].filter((xs) => xs.length > 0);
    const fields = fieldsOf(meta, model).filter((f) => !f.isDataModel && (valuesOf(f).length || (f.isId && !idFields(meta, model).slice(1).length)));
    return fc
        .array(
            pick(fields).chain((f) => (f.isId ? pick(pools.ids[model]) : fc.oneof(...valuesOf(f).map(pick))).map((v) => [f.name, v] as [string, unknown])),
            { maxLength: 2 },
        )
        .map((e) => Object.fromEntries(e));
}

/** One nested write on relation `r` (of a record being created or updated). */
function relationWrite(meta: ModelMeta, r: FieldInfo, pools: WritePools, context: Context, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const t = target(r);
    const where = pick(pools.ids[t]).map((id) => uniqueWhere(meta, t, id));
    const wheres = r.isArray ? fc.array(where, { minLength: 1, maxLength: 2 }) : where;
    const create = data(meta, t, pools, 'create', depth, r.backLink);
    const update = data(meta, t, pools, 'update', depth, r.backLink);
    const ops: [string, fc.Arbitrary<unknown>][] = [
        ['create', create],
        ['connect', wheres],
        ['connectOrCreate', fc.record({ where, create })],
    ];
    if (context === 'update') {
        ops.push(['upsert', r.isArray ? fc.record({ where, create, update }) : fc.record({ create, update })]);
        if (r.isArray) {
            ops.push(['disconnect', wheres], ['set', fc.array(where, { maxLength: 2 })], ['update', fc.record({ where, data: update })], ['updateMany', fc.record({ where: scalarWhere(meta, t, pools), data: scalars(meta, t, pools, false) })], ['delete', wheres], ['deleteMany', scalarWhere(meta, t, pools)]);
        } else {
            ops.push(['update', update], ['delete', fc.constant(true)]);
            if (r.isOptional) ops.push(['disconnect', fc.constant(true)]);
        }
    }
    return fc.uniqueArray(pick(ops), { minLength: 1, maxLength: 2, selector: ([op]) => op }).chain((chosen) => fc.tuple(...chosen.map(([op, arb]) => arb.map((v) => [op, v] as [string, unknown]))).map((e) => Object.fromEntries(e)));
}

/** A `select` or `include` of a write's result, or none. */
function resultShape(meta: ModelMeta, model: string): fc.Arbitrary<Record<string, unknown>> {
    const rels = relations(meta, model).map((r) => r.name);
    const ids = idFields(meta, model).map((f) => f.name);
    return fc.oneof(
        { weight: 2, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.uniqueArray(pick(rels), { minLength: 1, maxLength: 2 }).map((rs) => ({ include: Object.fromEntries(rs.map((r) => [r, true])) })) },
        { weight: 1, arbitrary: fc.uniqueArray(pick(rels), { maxLength: 1 }).map((rs) => ({ select: { ...Object.fromEntries(ids.map((f) => [f, true])), ...Object.fromEntries(rs.map((r) => [r, true])) } })) },
    );
}

export interface RpcWrite {
    model: string;
    op: string;
    args: Record<string, unknown>;
    user: number | undefined;
    /** Set by the harness before the write: an upsert, update or delete whose `where` names a record that is there but that the user cannot read. */
    hiddenTarget?: boolean;
}

/** An RPC write on any model of `meta` that has ids in the pools. */
export function rpcWrite(meta: ModelMeta, pools: WritePools): fc.Arbitrary<RpcWrite> {
    const models = Object.keys(meta.models).filter((m) => pools.ids[m]);
    return fc.tuple(pick(models), pick(['create', 'createMany', 'update', 'updateMany', 'upsert', 'delete', 'deleteMany']), pick(pools.users)).chain(([model, op, user]) => {
        const where = pick(pools.ids[model]).map((id) => uniqueWhere(meta, model, id));
        const shape = resultShape(meta, model);
        const args: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
            create: fc.tuple(data(meta, model, pools, 'create', 0), shape).map(([d, s]) => ({ data: d, ...s })),
            createMany: fc.tuple(fc.array(fc.tuple(scalars(meta, model, pools, true), newIdFields(meta, model, pools), ownedKeys(meta, model, pools)).map(([s, id, k]) => ({ ...id, ...k, ...s })), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([d, skip]) => ({ data: d, ...(skip ? { skipDuplicates: true } : {}) })),
            update: fc.tuple(where, data(meta, model, pools, 'update', 0), shape).map(([w, d, s]) => ({ where: w, data: d, ...s })),
            updateMany: fc.tuple(scalarWhere(meta, model, pools), scalars(meta, model, pools, false)).map(([w, d]) => ({ where: w, data: d })),
            upsert: fc.tuple(where, data(meta, model, pools, 'create', 0), data(meta, model, pools, 'update', 0), shape).map(([w, c, u, s]) => ({ where: w, create: c, update: u, ...s })),
            delete: fc.tuple(where, shape).map(([w, s]) => ({ where: w, ...s })),
            deleteMany: scalarWhere(meta, model, pools).map((w) => ({ where: w })),
        };
        return args[op].map((a) => ({ model, op, args: a, user }));
    });
}

/** The foreign keys of the required to-one relations of a row created flat (createMany). */
function ownedKeys(meta: ModelMeta, model: string, pools: WritePools): fc.Arbitrary<Record<string, unknown>> {
    const owned = relations(meta, model).filter((r) => r.isRelationOwner && !r.isOptional && !r.isArray && r.foreignKeyMapping);
    return fc
        .tuple(
            ...owned.map((r) =>
                pick(pools.ids[target(r)]).map((id) => {
                    const mapping = r.foreignKeyMapping as Record<string, string>;
                    const keys = Object.keys(mapping);
                    return Object.fromEntries(keys.map((k) => [mapping[k], keys.length === 1 ? id : (id as Record<string, unknown>)[k]]));
                }),
            ),
        )
        .map((list) => Object.assign({}, ...list));
}

// ---------------------------------------------------------------- JSON:API

export interface RestWrite {
    method: string;
    path: string;
    body?: unknown;
    user: number | undefined;
}

const identifier = (meta: ModelMeta, model: string, id: unknown) => ({ type: model, id: restId(meta, model, id) });

/** `relationships` of a JSON:API create or update: some relationships, each set to identifiers (or null). */
function restRelationships(meta: ModelMeta, model: string, pools: WritePools, create: boolean): fc.Arbitrary<Record<string, unknown>> {
    const rels = relations(meta, model).filter((r) => pools.ids[target(r)]);
    const required = create ? rels.filter((r) => r.isRelationOwner && !r.isOptional && !r.isArray) : [];
    const linkage = (r: FieldInfo) => {
        const one = pick(pools.ids[target(r)]).map((id) => identifier(meta, target(r), id));
        return (r.isArray ? fc.array(one, { maxLength: 2 }) : r.isOptional || !r.isRelationOwner ? fc.oneof(one, fc.constant(null)) : one).map((d) => ({ data: d }));
    };
    return fc
        .tuple(fc.tuple(...required.map((r) => linkage(r).map((l) => [r.name, l] as [string, unknown]))), fc.array(pick(rels).chain((r) => linkage(r).map((l) => [r.name, l] as [string, unknown])), { maxLength: 2 }))
        .map(([req, more]) => Object.fromEntries([...more, ...req]));
}

/** A JSON:API write: a resource created, updated or deleted, or a relationship written. */
export function restWrite(meta: ModelMeta, pools: WritePools): fc.Arbitrary<RestWrite> {
    const models = Object.keys(meta.models).filter((m) => pools.ids[m]);
    return fc.tuple(pick(models), pick(pools.users)).chain(([model, user]) => {
        const id = pick(pools.ids[model]);
        const idAttrs = newIdFields(meta, model, pools);
        const create = fc.tuple(idAttrs, scalars(meta, model, pools, true), restRelationships(meta, model, pools, true)).map(([ids, attributes, relationships]) => ({
            method: 'POST',
            path: `/${model}`,
            body: { data: { type: model, attributes: { ...ids, ...attributes }, ...(Object.keys(relationships).length ? { relationships } : {}) } },
        }));
        const update = fc.tuple(id, scalars(meta, model, pools, false), restRelationships(meta, model, pools, false)).map(([i, attributes, relationships]) => ({
            method: 'PATCH',
            path: `/${model}/${restId(meta, model, i)}`,
            body: { data: { type: model, id: restId(meta, model, i), attributes, ...(Object.keys(relationships).length ? { relationships } : {}) } },
        }));
        const remove = id.map((i) => ({ method: 'DELETE', path: `/${model}/${restId(meta, model, i)}` }));
        const rels = relations(meta, model).filter((r) => pools.ids[target(r)]);
        const relationship = rels.length
            ? fc.tuple(id, pick(rels)).chain(([i, r]) => {
                  const one = pick(pools.ids[target(r)]).map((t) => identifier(meta, target(r), t));
                  const methods = r.isArray ? ['POST', 'PATCH', 'DELETE'] : ['PATCH'];
                  return fc.tuple(pick(methods), r.isArray ? fc.array(one, { maxLength: 2 }) : fc.oneof(one, fc.constant(null))).map(([method, d]) => ({ method, path: `/${model}/${restId(meta, model, i)}/relationships/${r.name}`, body: { data: d } }));
              })
            : update;
        return fc.oneof({ weight: 3, arbitrary: create }, { weight: 3, arbitrary: update }, { weight: 1, arbitrary: remove }, { weight: 3, arbitrary: relationship }).map((w) => ({ ...w, user }));
    });
}
