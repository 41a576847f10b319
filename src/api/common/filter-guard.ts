import { BadRequestError } from './errors';
import { hasOwn, isObject, withoutKey } from './guards';
import type { ModelDef, ModelRegistry, RelationField, ScalarField } from './model-registry';

/**
 * Which filters the access policy guards, and the check that refuses the ones it does not (both handlers).
 *
 * ZenStack (2.x) guards a filter where it names a field as a key of a read's `where`, of the `where` of
 * `updateMany`/`deleteMany`, or of a relation filter (`some`, `every`, `none`, `is`, `isNot`, or a to-one
 * relation's own conditions) reached from there:
 * - a condition on a field with a field-level read rule matches only rows where the user may read the field;
 * - a relation filter sees only the related rows the user may read.
 *
 * It guards nothing under `AND`, `OR` or `NOT`, and nothing in the `where` of a single-record or nested write,
 * except that a field's rule, once applied for a condition at the top of a level, holds for that whole level
 * (`ruledFieldsNamed`).
 * There, a condition on a protected field or through a relation to rows with read rules would answer
 * differently for a right and a wrong guess of a value the user may not read (a count, a match, a write that
 * finds its record or not). Those filters are refused with a 400. A filter on an `@omit` field is refused
 * everywhere, because ZenStack guards it nowhere.
 */

export const LOGICAL = new Set(['AND', 'OR', 'NOT']);
export const RELATION_FILTERS = new Set(['is', 'isNot', 'some', 'every', 'none']);
const TO_ONE_FILTERS = new Set(['is', 'isNot']);
const TO_MANY_FILTERS = new Set(['some', 'every', 'none']);

/**
 * How Prisma may read the filter object of relation `rel` (to `target`): as relation filters (`ops`: `posts: { some }`,
 * `author: { is }`) and/or, for a to-one relation, as the related model's own conditions (`author: { email }`).
 * A to-one relation takes `is`/`isNot` only, each an object or null, and any other value is the conditions: a
 * related model may have fields named like the operators (`some`, `every`, even `is`), which are conditions there.
 * Where `is` or `isNot` is also a field of the target, `{ is: {…} }` can be read either way: both are given, and a
 * check must cover both (a rewrite keeps to the operators, which Prisma tries first).
 */
export function relationFilterForms(rel: RelationField, target: ModelDef, value: Record<string, unknown>): { ops: string[]; conditions: boolean } {
    const keys = Object.keys(value);
    if (rel.isArray) {
        const ops = keys.filter((k) => TO_MANY_FILTERS.has(k));
        return { ops, conditions: ops.length === 0 };
    }
    const ops = keys.filter((k) => TO_ONE_FILTERS.has(k) && (value[k] === null || isObject(value[k])));
    if (ops.length === 0 || ops.length < keys.length) return { ops: [], conditions: true };
    return { ops, conditions: ops.some((k) => target.fields.has(k)) };
}

export type Walk = { registry: ModelRegistry; model: ModelDef };

/**
 * Where a filter is checked. `read`: the `where` of a read, of a nested read or relation count, or of
 * `updateMany`/`deleteMany`, which ZenStack guards until the first AND/OR/NOT. `write`: the filter of a
 * single-record or nested write, which it does not guard at all.
 */
export type FilterMode = 'read' | 'write';

export function reject(model: ModelDef, field: string, use: string): never {
    throw new BadRequestError(`field "${field}" of ${model.name} cannot be used for ${use}: reading it is restricted by the access policy`);
}

export function target(w: Walk, rel: RelationField): Walk | undefined {
    const model = w.registry.models.get(rel.targetKey);
    return model ? { registry: w.registry, model } : undefined;
}

export function each(v: unknown, fn: (item: unknown) => void): void {
    if (Array.isArray(v)) v.forEach(fn);
    else fn(v);
}

/** What an unguarded filter is used for, in messages. */
const UNGUARDED_USE: Record<FilterMode, string> = { read: 'filtering under AND, OR or NOT', write: 'filtering a write' };

function unguardedRelation(w: Walk, rel: RelationField, next: Walk | undefined, mode: FilterMode): void {
    if (rel.readProtected) reject(w.model, rel.name, UNGUARDED_USE[mode]);
    if (next && !next.model.readableByAll) {
        const where = mode === 'read' ? 'under AND, OR or NOT' : 'in the filter of a write';
        throw new BadRequestError(`filtering through "${rel.name}" of ${w.model.name} ${where} is not supported: the read rules of ${next.model.name} are not applied there`);
    }
}

/**
 * A to-one relation filter from the side holding the foreign key that names only the fields the key references
 * (`blog: null`, `blog: { id: 2 }`, `blog: { is: { id: { in: [1, 2] } } }`, `blog: { isNot: null }`): it matches as
 * the same condition on the row's own key (`blogId`) does, a value the user reads on the row, whatever the related
 * record's read rule. So it is allowed where ZenStack guards nothing (under AND/OR/NOT, a write's filter), as
 * `blogId` is; `OR: [{ owner: { id: me } }, { public: true }]` is a common form of it.
 */
function heldByForeignKey(model: ModelDef, rel: RelationField, value: unknown): boolean {
    const mapping = rel.foreignKeyMapping;
    if (rel.isArray || !rel.isOwner || !mapping || rel.readProtected) return false;
    if (Object.values(mapping).some((fk) => model.scalars.get(fk)?.readProtected !== false)) return false;
    // Prisma takes no `null` for a required relation (`post: null`, `is: null`): left to be refused as elsewhere
    const onKey = (filter: unknown) => (filter === null ? rel.isOptional : isObject(filter) && Object.keys(filter).every((k) => hasOwn(mapping, k)));
    if (value === null) return rel.isOptional;
    if (!isObject(value)) return false;
    const ops = Object.keys(value).filter((k) => k === 'is' || k === 'isNot');
    if (ops.length === 0) return onKey(value) && !Object.keys(value).some((k) => RELATION_FILTERS.has(k));
    return ops.length === Object.keys(value).length && ops.every((k) => onKey(value[k]));
}

/**
 * A filter `heldByForeignKey` lets through, as the same conditions on the key the row holds, moved under the
 * `AND` of `where` (in place). Prisma answers `blog: { id: 2 }` with a join, so on a row whose key names no record
 * (a dangling key: `relationMode = "prisma"` keeps no foreign key constraint, and `blogId` is written as it is)
 * it told whether a blog 2 exists, even one the user may not read. On the key alone it does not; where the
 * constraint holds, the two are the same condition.
 */
function onForeignKey(model: ModelDef, where: Record<string, unknown>, rel: RelationField, value: unknown): void {
    const mapping = rel.foreignKeyMapping!;
    // the key names a record: every part of it is set (Prisma takes no `not: null` on a required field)
    const present = Object.values(mapping)
        .filter((fk) => model.scalars.get(fk)?.isOptional)
        .map((fk) => ({ [fk]: { not: null } }));
    // `blog: { is: {} }` on a required key holds for every row. Prisma drops an empty `AND: []` or `OR: []` (and a `NOT`
    // of one) from the filter, also under `NOT`, where it then matches every row: an empty `in`/`notIn` is kept
    const key = Object.values(mapping)[0];
    const always = { [key]: { notIn: [] } };
    const absent = present.length > 0 ? { NOT: { AND: present } } : { [key]: { in: [] } };
    const matching = (filter: unknown): Record<string, unknown> => {
        if (filter === null) return absent;
        const conditions = [...Object.entries(filter as Record<string, unknown>).map(([k, v]) => ({ [mapping[k]]: v })), ...present];
        return { AND: conditions.length > 0 ? conditions : [always] };
    };
    const parts: unknown[] = [];
    if (!isObject(value)) parts.push(absent);
    else if (!hasOwn(value, 'is') && !hasOwn(value, 'isNot')) parts.push(matching(value));
    else {
        if (hasOwn(value, 'is')) parts.push(matching(value.is));
        if (hasOwn(value, 'isNot')) parts.push({ NOT: matching(value.isNot) });
    }
    const and = where.AND === undefined ? [] : Array.isArray(where.AND) ? where.AND : [where.AND];
    delete where[rel.name];
    where.AND = [...and, ...parts];
}

/**
 * Refuses the filters the access policy does not guard (see above), at any depth of AND/OR/NOT and relation
 * filters. `skip`: keys of `where` not to check (a unique field that names the record of a write). A to-one
 * relation filter on only the key the row holds is let through there, rewritten onto the key (`onForeignKey`).
 */
export function checkWhere(w: Walk, where: unknown, mode: FilterMode = 'read', skip?: ReadonlySet<string>): void {
    walk(w, where, mode, mode === 'read', skip);
}

/**
 * The fields with read rules that a guarded level of a filter names with a condition ZenStack applies their rules
 * for (a truthy one: it skips `email: ''`): it ANDs each one's rule onto that whole level, so a condition on the same
 * field under AND/OR/NOT there is only ever evaluated on rows where the user may read the field
 * (`email: { contains: 'a', mode: 'insensitive' }, AND: [{ email: { endsWith: '.com' } }]`).
 */
function ruledFieldsNamed(model: ModelDef, where: Record<string, unknown>): Set<string> | undefined {
    if (!model.hasReadProtected) return undefined;
    let named: Set<string> | undefined;
    for (const [key, value] of Object.entries(where)) {
        const field = model.scalars.get(key);
        if (value && field?.readProtected && !field.omitted) (named ??= new Set()).add(key);
    }
    return named;
}

/** `covered`: the fields with read rules whose rules ZenStack applies to the whole level of the filter `where` lies in. */
function walk(w: Walk, where: unknown, mode: FilterMode, guarded: boolean, skip?: ReadonlySet<string>, covered?: ReadonlySet<string>): void {
    if (!isObject(where)) return;
    const ruled = guarded ? ruledFieldsNamed(w.model, where) : covered;
    for (const [key, value] of Object.entries(where)) {
        if (skip?.has(key)) continue;
        if (LOGICAL.has(key)) {
            each(value, (item) => walk(w, item, mode, false, undefined, ruled));
            continue;
        }
        const field = w.model.fields.get(key);
        if (!field) continue;
        if ('targetKey' in field) {
            // a condition on the key the row holds reads nothing of the related record
            if (!guarded && heldByForeignKey(w.model, field, value)) {
                onForeignKey(w.model, where, field, value);
                continue;
            }
            const next = target(w, field);
            if (!guarded) unguardedRelation(w, field, next, mode);
            if (!next || !isObject(value)) continue;
            const { ops, conditions } = relationFilterForms(field, next.model, value);
            ops.forEach((k) => walk(next, value[k], mode, guarded));
            // ZenStack reads a to-one filter with an `is` or `isNot` as those operators and guards them alone (nothing for
            // a null), so beside other keys, which Prisma then reads as the related model's own conditions (`badge: {
            // is: null, secret }` on a Badge with a field named `is`), those conditions are not guarded
            const unguardedConditions = !field.isArray && ops.length === 0 && (value.is !== undefined || value.isNot !== undefined);
            if (conditions) walk(next, value, mode, guarded && !unguardedConditions);
        } else if ((field as ScalarField).omitted) {
            reject(w.model, key, 'filtering');
        } else if (!guarded && field.readProtected && !ruled?.has(key)) {
            reject(w.model, key, UNGUARDED_USE[mode]);
        }
    }
}

/**
 * `{ AND: [a, b], c }` → `{ ...a, ...b, c }` while no key repeats (and so on for an `AND` inside a member):
 * the same filter, with the members' conditions moved to where ZenStack guards them. Members whose keys
 * would collide, and anything that is not an object, stay under `AND`. Returns `where` itself when it has
 * no `AND`.
 */
export function hoistConjunctions(where: Record<string, unknown>): Record<string, unknown> {
    if (!hasOwn(where, 'AND')) return where;
    const out = withoutKey(where, 'AND');
    const kept: unknown[] = [];
    each(where.AND, (item) => {
        if (!isObject(item)) {
            kept.push(item);
            return;
        }
        const flat = hoistConjunctions(item);
        if (Object.keys(flat).some((key) => key === 'AND' || hasOwn(out, key))) kept.push(flat);
        else Object.assign(out, flat);
    });
    if (kept.length > 0) out.AND = kept;
    return out;
}

/** The key and value of an object with exactly one key. */
function soleEntry(value: unknown): [string, unknown] | undefined {
    if (!isObject(value)) return undefined;
    const entries = Object.entries(value);
    return entries.length === 1 ? entries[0] : undefined;
}

/** A to-many relation filter and the one that matches exactly when it does not. */
const NEGATION: Record<string, (inner: unknown) => [string, unknown]> = {
    some: (inner) => ['none', inner],
    none: (inner) => ['some', inner],
    every: (inner) => ['some', { NOT: inner }],
};

/**
 * `NOT: { posts: { some: s } }` → `posts: { none: s }` (`none` → `some`, `every: s` → `some: { NOT: s }`), for
 * to-many relations (`isToMany`): the same filter, with the relation filter moved where ZenStack guards it.
 * Only a `NOT` member made of one relation with one filter moves, and only when its key does not repeat;
 * the rest stays under `NOT`.
 */
export function hoistNegations(where: Record<string, unknown>, isToMany: (key: string) => boolean): Record<string, unknown> {
    if (!hasOwn(where, 'NOT')) return where;
    const out = withoutKey(where, 'NOT');
    const kept: unknown[] = [];
    each(where.NOT, (item) => {
        const [key, filter] = soleEntry(item) ?? [];
        const [op, inner] = soleEntry(filter) ?? [];
        if (key === undefined || op === undefined || !hasOwn(NEGATION, op) || !isToMany(key) || hasOwn(out, key)) {
            kept.push(item);
            return;
        }
        const [negated, value] = NEGATION[op](inner);
        out[key] = { [negated]: value };
    });
    if (kept.length > 0) out.NOT = Array.isArray(where.NOT) || kept.length > 1 ? kept : kept[0];
    return out;
}
