import { relationFilterForms } from '../common/filter-guard';
import { hasOwn, isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { mapReadFilters, put } from './read-filters';
import { rewrittenCopy } from './relation-set';
import { many, matchingNothing, walkWrites, type RelationWrite } from './write-walk';

/**
 * Empty conditions written out as the ORM reads them, before ZenStack sees them.
 *
 * Prisma reads an empty condition as no condition: a field filter `{}` (`title: {}`), `AND: []`, `NOT: []`, and
 * a filter made only of those, so `OR: [{}]` is an `OR` of nothing, which matches no row, and `NOT: {}` matches
 * every row (Prisma documents the reduction for `OR`, `AND` and `NOT` of zero filters). ZenStack 2.x, when it puts
 * the read rules into a relation filter (`posts: { some: … }`), reads `{}` as "true" instead: there
 * `some: { OR: [{}] }` matched every user with a post, `every: { NOT: [{}] }` only users without one, and with a
 * condition beside it (`some: { OR: [{}], title }`, `some: { title: {} }` under `OR`) it handed Prisma an `OR`
 * object or an `AND` inside a field filter, which Prisma refuses (400). So the handler takes the empty conditions
 * out the way Prisma does (a field filter `{}`, `AND`/`NOT` members and lists that are empty, an `OR` member that
 * is empty; an `OR` with no member left matches no row), wherever a filter is: the `where` of every operation and
 * nested write, relation filters at any depth, nested reads and relation counts. The answer is then the ORM's
 * documented one, with or without ZenStack's rewrite (Prisma alone reads an `OR` of nothing inside an `AND` member
 * as no condition; here it matches no row everywhere). Relation filters are never taken out: `author: {}` and
 * `posts: { some: {} }` mean "has a related record". Copied along the changed paths only: unchanged parts are
 * shared with the caller's arguments (a nested write's filters are rewritten in a copy of the arguments).
 */

type Data = Record<string, unknown>;

const EMPTY_WHEN_EMPTY = new Set(['AND', 'NOT']);

function isEmptyObject(value: unknown): boolean {
    if (!isObject(value)) return false;
    for (const key in value) if (hasOwn(value, key)) return false;
    return true;
}

/** An `AND`/`OR`/`NOT` value without its empty members (`undefined`: the combinator itself is a no-op). */
function combinator(registry: ModelRegistry, model: ModelDef, key: string, value: unknown): unknown {
    if (!Array.isArray(value)) {
        // a single filter (`NOT: {…}`); an `OR` object is not Prisma's and is left for it to refuse
        if (key === 'OR' || !isObject(value)) return value;
        const inner = withoutEmptyConditions(registry, model, value);
        return isEmptyObject(inner) ? undefined : inner;
    }
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
        const member = value[i];
        const inner = isObject(member) ? withoutEmptyConditions(registry, model, member) : member;
        const drop = isEmptyObject(inner);
        if (!out && (drop || inner !== member)) out = value.slice(0, i);
        if (out && !drop) out.push(inner);
    }
    const list = out ?? value;
    return list.length === 0 && EMPTY_WHEN_EMPTY.has(key) ? undefined : list;
}

/** A relation filter's value with the empty conditions of its filters taken out (the filters themselves stay). */
function relationValue(registry: ModelRegistry, model: ModelDef, key: string, value: Data): Data {
    const rel = model.relations.get(key);
    const target = rel && registry.models.get(rel.targetKey);
    if (!rel || !target) return value;
    const { ops, conditions } = relationFilterForms(rel, target, value);
    // `{ is: {…} }` where the target has a field named `is` reads both ways: left as it is
    if (ops.length > 0 && conditions) return value;
    if (ops.length === 0) return rel.isArray ? value : withoutEmptyConditions(registry, target, value);
    const copy: { out?: Data } = {};
    for (const op of ops) if (isObject(value[op])) put(copy, value, op, withoutEmptyConditions(registry, target, value[op] as Data));
    return copy.out ?? value;
}

/** A scalar field whose filter `{}` is no condition (not Json, whose filters Prisma reads apart). */
function isPlainScalar(model: ModelDef, key: string): boolean {
    const field = model.scalars.get(key);
    return field !== undefined && field.kind !== 'Json' && field.kind !== 'Unsupported';
}

/** A filter of `model` without its empty conditions (the same object when it has none). */
export function withoutEmptyConditions(registry: ModelRegistry, model: ModelDef, where: Data): Data {
    const copy: { out?: Data } = {};
    for (const key in where) {
        if (!hasOwn(where, key)) continue;
        const value = where[key];
        if (key === 'AND' || key === 'OR' || key === 'NOT') put(copy, where, key, combinator(registry, model, key, value));
        else if (!isObject(value)) continue;
        else if (model.relations.has(key)) put(copy, where, key, relationValue(registry, model, key, value));
        else if (isEmptyObject(value) && isPlainScalar(model, key)) put(copy, where, key, undefined);
    }
    const out = copy.out ?? where;
    // an `OR` of nothing matches no row: Prisma drops `OR: []` from an `AND` member (where ZenStack puts the read
    // rules beside it), so it goes as a condition every layer reads so
    const none = Array.isArray(out.OR) && out.OR.length === 0 && model.idFields.length > 0 ? matchingNothing(model) : undefined;
    if (!none) return out;
    const and = out.AND === undefined ? [] : Array.isArray(out.AND) ? out.AND : [out.AND];
    const result: Data = { ...out, AND: [...and, none] };
    delete result.OR;
    return result;
}

/** Nested writes whose items are filters themselves, and those whose items hold one as `where`. */
const FILTER_ITEMS = ['deleteMany', 'delete', 'disconnect', 'connect', 'set'];
const WHERE_ITEMS = ['updateMany', 'update', 'upsert', 'connectOrCreate'];

/** The filters of one nested relation write, without their empty conditions; `apply`: written back in place. */
function nestedFilters(registry: ModelRegistry, write: RelationWrite, apply: boolean): boolean {
    const { ops, target } = write;
    let changed = false;
    const clean = (where: Data): Data => {
        const out = withoutEmptyConditions(registry, target, where);
        changed ||= out !== where;
        return out;
    };
    for (const key of FILTER_ITEMS) {
        const items = ops[key];
        if (isObject(items)) {
            const out = clean(items);
            if (apply) ops[key] = out;
        }
        if (!Array.isArray(items)) continue;
        for (let i = 0; i < items.length; i++) {
            const item = items[i];
            if (!isObject(item)) continue;
            const out = clean(item);
            if (apply) items[i] = out;
        }
    }
    for (const key of WHERE_ITEMS) {
        for (const item of many(ops[key])) {
            if (!isObject(item) || !isObject(item.where)) continue;
            const out = clean(item.where);
            if (apply) item.where = out;
        }
    }
    return changed;
}

/** One call's arguments with the empty conditions of their filters taken out (the same object when there are none). */
export function dropEmptyConditions(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): Args {
    const filtered = mapReadFilters(registry, model, args as Data, (m, where) => withoutEmptyConditions(registry, m, where)) as Args;
    if (opName !== 'create' && opName !== 'update' && opName !== 'upsert') return filtered;
    return rewrittenCopy(filtered, (copy, apply) => {
        let changed = false;
        walkWrites(registry, model, opName, copy, (write) => {
            changed = nestedFilters(registry, write, apply) || changed;
        });
        return changed;
    });
}
