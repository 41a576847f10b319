import { hasOwn, isObject } from '../common/guards';
import { LOGICAL, reject, relationFilterForms, target, type Walk } from '../common/filter-guard';
import { uniqueConstraint, type ModelDef, type ModelRegistry, type RelationField } from '../common/model-registry';
import type { Args } from './input';
import { SINGLE_RECORD_WRITES } from './write-filters';

/**
 * ZenStack (2.x) adds a field's read rule to a filter only when the field's condition is truthy: it skips
 * `{ vip: false }`, `{ salary: 0 }`, `{ phone: null }`, `{ code: '' }`, which then match rows whose field the
 * user may not read (`{ vip: false }` lists everyone who is not a VIP, and so tells who is). Nor does it apply
 * the rules of the fields of a compound unique key (`{ name_salary: { name, salary } }`) in `findUnique`.
 *
 * Where it guards filters (a read's `where`, `updateMany`/`deleteMany`, nested reads and relation counts,
 * along relation filters: `common/filter-guard.ts`), such a condition on a field with a read rule becomes the
 * same condition in a form it guards: `{ equals: value }` (a to-one relation: `{ is: null }`). A compound key
 * of `findUnique` with such a field gets that field's condition beside it. The unique field that names the
 * record of a `findUnique` cannot take another form: a falsy value there is a 400.
 *
 * The arguments are rewritten in a copy along the changed paths; unchanged parts are shared.
 */

/** A value ZenStack takes for "no condition" (`!value`), where Prisma reads an equality. */
function isFalsy(value: unknown): boolean {
    return value !== undefined && !value;
}

/** `{ ...obj, [key]: value }` made once, on the first change. */
type Copy = { out?: Record<string, unknown> };

function put(copy: Copy, original: Record<string, unknown>, key: string, value: unknown): void {
    copy.out ??= { ...original };
    copy.out[key] = value;
}

/**
 * `profile: null`, `{ is: null }` or `{ isNot: null }` on a to-one relation from the side without the key, to a model
 * not everyone may read in full: ZenStack adds the related read rule to a truthy condition only, so these matched by
 * the related row whatever its rule (`isNot: null` told that a user has a profile the caller may not see, which
 * `include` answers as `null`). They become the guarded `{ isNot: {} }` and `{ is: {} }`: a related record the user
 * cannot read is no related record, as everywhere else.
 */
function nullOnHiddenPartner(field: RelationField, value: unknown): Record<string, unknown> | undefined {
    if (!field.nullMatchesHidden) return undefined;
    if (value === null) return { isNot: {} };
    if (!isObject(value) || Object.keys(value).length !== 1) return undefined;
    if (hasOwn(value, 'is') && value.is === null) return { isNot: {} };
    if (hasOwn(value, 'isNot') && value.isNot === null) return { is: {} };
    return undefined;
}

/** The filter with its falsy conditions on protected fields in guarded form, at every position ZenStack guards. */
export function guardFalsyWhere(w: Walk, where: unknown): unknown {
    if (!isObject(where)) return where;
    const copy: Copy = {};
    for (const [key, value] of Object.entries(where)) {
        // under AND/OR/NOT nothing is guarded: a protected field there is refused (filter-guard.ts)
        if (LOGICAL.has(key)) continue;
        const field = w.model.fields.get(key);
        if (!field) continue;
        if (!('targetKey' in field)) {
            if (field.readProtected && isFalsy(value)) put(copy, where, key, { equals: value });
            continue;
        }
        if (value === null && field.readProtected && !field.isArray) {
            put(copy, where, key, { is: null });
            continue;
        }
        const hiddenPartner = nullOnHiddenPartner(field, value);
        if (hiddenPartner) {
            put(copy, where, key, hiddenPartner);
            continue;
        }
        const next = target(w, field);
        if (!next || !isObject(value)) continue;
        const { ops } = relationFilterForms(field, next.model, value);
        let relation: unknown = value;
        if (ops.length === 0) {
            relation = guardFalsyWhere(next, value);
        } else {
            const inner: Copy = {};
            for (const k of ops) {
                const guarded = guardFalsyWhere(next, value[k]);
                if (guarded !== value[k]) put(inner, value, k, guarded);
            }
            relation = inner.out ?? value;
        }
        if (relation !== value) put(copy, where, key, relation);
    }
    return copy.out ?? where;
}

/** `findUnique`: the unique key stays as it is; a compound one with a protected field gets that field's condition. */
function guardUniqueWhere(model: ModelDef, where: Record<string, unknown>): Record<string, unknown> {
    const copy: Copy = {};
    for (const [key, value] of Object.entries(where)) {
        const constraint = uniqueConstraint(model, key);
        if (!constraint) continue;
        if (constraint.fields.length === 1) {
            if (model.scalars.get(key)?.readProtected && isFalsy(value)) reject(model, key, 'finding a record by an empty, zero or false value');
            continue;
        }
        if (!isObject(value)) continue;
        for (const name of constraint.fields) {
            if (!model.scalars.get(name)?.readProtected || hasOwn(where, name) || !hasOwn(value, name)) continue;
            put(copy, where, name, { equals: value[name] });
        }
    }
    return copy.out ?? where;
}

/** A nested read (`include`/`select` of a relation): its `where` and its own nested reads. */
function guardNested(w: Walk, shape: unknown): unknown {
    if (!isObject(shape)) return shape;
    const copy: Copy = {};
    for (const [key, value] of Object.entries(shape)) {
        if (!isObject(value)) continue;
        if (key === '_count') {
            const counted = guardCounts(w, value);
            if (counted !== value) put(copy, shape, key, counted);
            continue;
        }
        const rel = w.model.relations.get(key);
        const next = rel && target(w, rel);
        if (!next) continue;
        const guarded = guardShape(next, value, true);
        if (guarded !== value) put(copy, shape, key, guarded);
    }
    return copy.out ?? shape;
}

/** `_count: { select: { posts: { where } } }`. */
function guardCounts(w: Walk, count: Record<string, unknown>): unknown {
    if (!isObject(count.select)) return count;
    const select = count.select;
    const copy: Copy = {};
    for (const [key, value] of Object.entries(select)) {
        const rel = w.model.relations.get(key);
        const next = rel && target(w, rel);
        if (!next || !isObject(value) || !hasOwn(value, 'where')) continue;
        const where = guardFalsyWhere(next, value.where);
        if (where !== value.where) put(copy, select, key, { ...value, where });
    }
    return copy.out ? { ...count, select: copy.out } : count;
}

function guardShape(w: Walk, args: Record<string, unknown>, withWhere: boolean): Record<string, unknown> {
    const copy: Copy = {};
    if (withWhere && hasOwn(args, 'where')) {
        const where = guardFalsyWhere(w, args.where);
        if (where !== args.where) put(copy, args, 'where', where);
    }
    for (const key of ['include', 'select']) {
        if (!hasOwn(args, key)) continue;
        const nested = guardNested(w, args[key]);
        if (nested !== args[key]) put(copy, args, key, nested);
    }
    return copy.out ?? args;
}

/** One call's arguments with the conditions above in guarded form (the same object when none changes). */
export function guardFalsyConditions(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): Args {
    // `check` evaluates its `where` against the rules, without the database: plain values only
    if (opName === 'check' || !(registry.hasReadProtectedFields || registry.hasNullMatchingHidden)) return args;
    const w: Walk = { registry, model };
    let unique = args;
    if (opName === 'findUnique' && isObject(args.where)) {
        const where = guardUniqueWhere(model, args.where);
        if (where !== args.where) unique = { ...args, where };
    }
    // a single-record write's `where` is refused where it uses a protected field (write-filters.ts)
    return guardShape(w, unique, !SINGLE_RECORD_WRITES.has(opName)) as Args;
}
