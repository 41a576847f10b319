import { BadRequestError } from '../common/errors';
import { hasOwn, isObject, jsonKey } from '../common/guards';
import { comparableValue, idSelect, uniqueConstraint, uniqueWhere, type ModelDef, type ModelRegistry, type RelationField } from '../common/model-registry';
import { isPlainObject } from '../common/guards';
import type { Args } from './input';
import { delegateOf, many, walkUpdates, type Step } from './write-walk';
import { findNamedRecords, type NamedFilter } from './named-records';

/**
 * ZenStack 2.x runs a to-many `set` in a nested update without checking the update rule of the
 * records it detaches (a `disconnect` of the same records is checked), and without checking the
 * parent's own update rule when the data holds only relation changes. A user who can read another
 * user's record could detach every related record from it with `{ posts: { set: [] } }`.
 *
 * So the RPC handler never sends `set` on a relation: it finds every such `set` in the update paths
 * of the arguments (`update`, `upsert`, nested `update`/`upsert` at any depth; nested-upsert.ts refuses it in a nested upsert), reads the current
 * members the user can see through the same enhanced client and transaction, and sends the
 * difference as `disconnect` (members no longer listed: policy-checked) plus `connect` (members not
 * there yet: policy-checked). Members the user cannot see stay attached: the replacement replaces
 * the relation as the user sees it. Scalar-list `set` is left alone.
 */

type Data = Record<string, unknown>;

export interface SetSite {
    /** From the top-level record to the record whose relation is replaced. */
    path: Step[];
    relation: RelationField;
    target: ModelDef;
    /** The object holding `set` (`{ set, connect?, … }`): rewritten in place (in a copy of the arguments, see `rewriteSets`). */
    holder: Data;
}

/** Every relation `set` in the update paths of an operation's arguments (a `set` anywhere else is the ORM's to refuse). */
export function findSetSites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): SetSite[] {
    const sites: SetSite[] = [];
    walkUpdates(registry, model, op, args, ({ relation, target, ops, place }) => {
        if (place.path && relation.isArray && 'set' in ops) sites.push({ path: place.path, relation, target, holder: ops });
    });
    return sites;
}

/** A value a unique field is matched with (a number, string, Date, Decimal, …; not a filter object or null). */
function isKeyValue(value: unknown): boolean {
    return value !== undefined && value !== null && !isPlainObject(value) && !Array.isArray(value);
}

/** Whether `item` names one record (a `WhereUniqueInput`): every field of one unique constraint (the id too), by value. */
export function namesUniqueKey(model: ModelDef, item: unknown): boolean {
    if (!isPlainObject(item)) return false;
    for (const c of Object.values(model.uniqueConstraints)) {
        if (c.fields.length === 1) {
            if (hasOwn(item, c.fields[0]) && isKeyValue(item[c.fields[0]])) return true;
            continue;
        }
        const values = hasOwn(item, c.name) ? item[c.name] : undefined;
        if (isPlainObject(values) && c.fields.every((f) => hasOwn(values, f) && isKeyValue(values[f]))) return true;
    }
    return false;
}

/**
 * Each member a `set` lists must name one record, as Prisma requires: the rewrite matches members by
 * record, and a filter matching several (or a non-object) would otherwise be resolved to any one of them.
 */
export function checkSetItems(sites: readonly SetSite[]): void {
    for (const site of sites) {
        many(site.holder.set).forEach((item, i) => {
            if (!namesUniqueKey(site.target, item)) {
                const keys = Object.values(site.target.uniqueConstraints).map((c) => c.fields.join('+'));
                throw new BadRequestError(
                    `invalid arguments: "set" of relation "${site.relation.name}": item ${i} must be a unique filter of ${site.target.name} (by ${keys.join(', ')})`,
                );
            }
        });
    }
}

/** A copy of the plain objects and arrays of `value`; anything else (Dates, Decimals, Buffers, the client's null markers) is shared. */
export function copyTree(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(copyTree);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = copyTree(item);
    return out;
}

/**
 * `args` rewritten by `pass` in a copy, or `args` itself when nothing needs it: `pass(args, false)` only tells
 * whether anything would change, `pass(copy, true)` changes the copy.
 */
export function rewrittenCopy<T>(args: T, pass: (args: T, apply: boolean) => boolean): T {
    if (!pass(args, false)) return args;
    const copy = copyTree(args) as T;
    pass(copy, true);
    return copy;
}

/** Whether `key: value` of a unique filter is a compound key (`a_b: { a, b }`). */
export function isCompoundKey(model: ModelDef, key: string, value: unknown): boolean {
    const constraint = uniqueConstraint(model, key);
    return constraint !== undefined && constraint.fields.length > 1 && isObject(value) && !model.fields.has(key);
}

/** A unique filter (`WhereUniqueInput`) as a plain filter: compound keys `a_b: { a, b }` spread. */
export function asFilter(model: ModelDef, where: Data): Data {
    const out: Data = {};
    for (const [key, value] of Object.entries(where)) {
        if (isCompoundKey(model, key, value)) Object.assign(out, value);
        else out[key] = value;
    }
    return out;
}

/**
 * `{ rel: { where?, select: … } }` nesting from the top-level record down to the replaced relation, whose
 * members are read by id (those matching `members` only, when given), with `parent` (fields of the record
 * holding the relation) read beside them.
 */
export function selectAlong(registry: ModelRegistry, path: Step[], relation: RelationField, target: ModelDef, members?: Data, parent: Data = {}): Data {
    let select: Data = { ...parent, [relation.name]: members ? { where: members, select: idSelect(target) } : { select: idSelect(target) } };
    for (let i = path.length - 1; i >= 0; i--) {
        const step = path[i];
        const stepModel = registry.models.get(step.relation.targetKey)!;
        const nested: Data = { select };
        if (step.where) nested.where = asFilter(stepModel, step.where);
        select = { [step.relation.name]: nested };
    }
    return select;
}

/** The record at the end of `path` in what `selectAlong` read, or undefined when the user cannot see it. */
export function follow(record: unknown, path: Step[]): Data | undefined {
    let current = record;
    for (const step of path) {
        if (!isObject(current)) return undefined;
        const next = current[step.relation.name];
        current = Array.isArray(next) ? next[0] : next;
    }
    return isObject(current) ? current : undefined;
}

/**
 * A comparable form of a record's id. A native uuid (`@db.Uuid`) or case-insensitive text (`@db.Citext`) is compared
 * in lower case, as PostgreSQL compares it: a `set` listing a current member in another letter case keeps it (it was
 * detached and linked again, which needs the member's update rule: a 403 for a member the user may only read).
 */
function idKey(model: ModelDef, record: Data): string | undefined {
    const values: unknown[] = [];
    for (const f of model.idFields) {
        const v = record[f.name];
        if (v === undefined || v === null || isObject(v)) return undefined;
        values.push(comparableValue(f, v));
    }
    return jsonKey(values);
}

// the relation guards take `uniqueWhere` from here, beside the walk helpers
export { uniqueWhere };

/**
 * The id keys of the records the `set`s name (by id, or by another unique key: looked up, all sites together,
 * one read per target model and unique constraint, `named-records.ts`), as `keysOf` lists them; unreadable ones
 * stay undefined.
 */
async function wantedKeys(client: unknown, sites: readonly SetSite[], wanted: readonly unknown[][]): Promise<Array<Array<string | undefined>>> {
    const lookups: NamedFilter[] = [];
    const keys = sites.map((site, s) =>
        wanted[s].map((item) => {
            if (!isObject(item)) return undefined;
            const direct = idKey(site.target, item);
            if (direct !== undefined && Object.keys(item).length === site.target.idFields.length) return direct;
            lookups.push({ target: site.target, item });
            return lookups.length - 1;
        }),
    );
    const found = await findNamedRecords(client, lookups, lookUpAlone, true);
    return keys.map((list, s) =>
        list.map((k) => {
            if (typeof k !== 'number') return k;
            const record = found[k];
            return isObject(record) ? idKey(sites[s].target, record) : undefined;
        }),
    );
}

/** A member of a `set` with conditions beside its unique key, looked up on its own (with them). */
function lookUpAlone(client: unknown, target: ModelDef, item: Data): Promise<Data | null> {
    return delegateOf(client, target).findFirst({ where: asFilter(target, item), select: idSelect(target) }) as Promise<Data | null>;
}

function append(holder: Data, key: 'connect' | 'disconnect', items: unknown[]): void {
    if (items.length === 0) return;
    holder[key] = [...many(holder[key]), ...items];
}

/**
 * The arguments with every relation `set` rewritten as `disconnect` + `connect` against the members the
 * user can see now, in a copy: the caller's arguments (an application's parsed body) stay as they were.
 * `client` must be the transaction the write then runs in, so that the read and the write agree.
 */
export async function rewriteSets(client: unknown, registry: ModelRegistry, model: ModelDef, op: string, args: Args): Promise<Args> {
    const copy = copyTree(args) as Args;
    await rewriteSetSites(client, registry, model, copy.where, findSetSites(registry, model, op, copy));
    return copy;
}

async function rewriteSetSites(client: unknown, registry: ModelRegistry, model: ModelDef, where: unknown, sites: SetSite[]): Promise<void> {
    const wanted = sites.map((site) => many(site.holder.set));
    const wantedKeysOf = await wantedKeys(client, sites, wanted);
    for (const [s, site] of sites.entries()) {
        delete site.holder.set;
        const record = isObject(where)
            ? await delegateOf(client, model).findUnique({ where, select: selectAlong(registry, site.path, site.relation, site.target) })
            : undefined;
        const parent = follow(record, site.path);
        // the record is not there or not visible: nothing to detach (the write itself decides what happens)
        const current = parent ? many(parent[site.relation.name]).filter(isObject) : [];
        const keys = wantedKeysOf[s];
        const wantedSet = new Set(keys.filter((k): k is string => k !== undefined));
        const currentSet = new Set<string>();
        const disconnect: Data[] = [];
        for (const member of current) {
            const key = idKey(site.target, member)!;
            currentSet.add(key);
            if (!wantedSet.has(key)) disconnect.push(uniqueWhere(site.target, member));
        }
        append(site.holder, 'disconnect', disconnect);
        append(
            site.holder,
            'connect',
            wanted[s].filter((_item, i) => keys[i] === undefined || !currentSet.has(keys[i]!)),
        );
    }
}
