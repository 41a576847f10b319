import { each } from './filter-guard';
import { hasOwn, isObject, many } from './guards';
import { idSelect, type ModelDef, type ModelRegistry, type RelationField } from './model-registry';

/**
 * Ordering through to-one relations (RPC `orderBy: { blog: { name: 'asc' } }`, JSON:API `sort=blog.name`) sorts
 * rows by values of their related records, and ZenStack (2.x) applies no read rule of the related model to an
 * order: a readable post whose blog the user may not read is placed by that blog's name. Whoever can add
 * readable blogs of chosen names can then binary-search a hidden name by where the post lands.
 *
 * Refusing every order through a model with read conditions would refuse `sort=author.name` also to the users who
 * may read every author (the demo's users are readable by anyone signed in). Instead the order is refused when,
 * among the rows the query filters, one has a related record on the way that exists but is hidden: the order
 * would look at it. That is asked of the enhanced client, from facts of ZenStack 2.22.3 (tests/policy/
 * rpc-hidden-order.test.ts): at the top of a `where` and inside a relation filter reached from there, `{ blog:
 * { isNot: {} } }` gets the target's read rule (no READABLE blog), while under `AND` nothing does (`blogId: {
 * not: null }`, or `blog: { isNot: null }` from the side without the foreign key: a blog exists). The refusal
 * says only that such a row exists, which the user sees already: its foreign key names a record they cannot
 * read (and `{ profile: { is: null } }` tells the same from the other side).
 */

/** An ordering path up to one relation whose records may be hidden from the user. */
export interface HiddenOrder {
    /** The to-one relations from the ordered model up to that relation (`[author, profile]`). */
    chain: readonly RelationField[];
    /** The ordering path, for messages (`author.profile.gender`). */
    path: string;
    /** The model that relation leads to. */
    target: ModelDef;
}

/**
 * The most relation hops to check (`findHiddenOrder` reads once for each) in one call. Through a cycle of to-one
 * relations (a user's profile, its user, …) an order can name as many as its nesting allows, each check's filter
 * as deep as its hop: an order through more is refused before anything is read.
 */
export const MAX_HIDDEN_ORDER_CHECKS = 16;

/** Why orders needing `count` checks are refused, or undefined when they are within the bound. */
export function tooManyOrderChecks(count: number): string | undefined {
    if (count <= MAX_HIDDEN_ORDER_CHECKS) return undefined;
    return (
        `ordering through at most ${MAX_HIDDEN_ORDER_CHECKS} relations to models with read rules is supported in one request ` +
        `(each is checked for records the user may not read); this one orders through ${count}`
    );
}

/**
 * The relation hops of an `orderBy` of `model` that lead to a model not everyone may read all of, each once.
 * A hop to a model readable by all needs no check, nor a last hop ordered by the field its foreign key points at
 * (`{ blog: { id: 'asc' } }` orders as `blogId` does, which the user reads on the row).
 */
export function ordersThroughHidden(registry: ModelRegistry, model: ModelDef, orderBy: unknown): HiddenOrder[] {
    const found = new Map<string, HiddenOrder>();
    walk(registry, model, orderBy, [], [model], found);
    return [...found.values()];
}

function walk(registry: ModelRegistry, model: ModelDef, orderBy: unknown, chain: RelationField[], models: ModelDef[], found: Map<string, HiddenOrder>): void {
    each(orderBy, (entry) => {
        if (!isObject(entry)) return;
        for (const [key, value] of Object.entries(entry)) {
            const rel = model.relations.get(key);
            const target = rel && registry.models.get(rel.targetKey);
            if (rel && target && !rel.isArray) {
                walk(registry, target, value, [...chain, rel], [...models, target], found);
            } else if (chain.length > 0 && (rel || model.scalars.has(key))) {
                // the end of a path: a field, or the count of a to-many relation
                addHops(chain, models, rel ? undefined : key, found);
            }
        }
    });
}

function addHops(chain: readonly RelationField[], models: readonly ModelDef[], field: string | undefined, found: Map<string, HiddenOrder>): void {
    const path = [...chain.map((r) => r.name), field ?? '_count'].join('.');
    chain.forEach((rel, i) => {
        const target = models[i + 1];
        if (target.readableByAll) return;
        if (i === chain.length - 1 && field !== undefined && orderedAsForeignKey(models[i], rel, field)) return;
        const key = chain
            .slice(0, i + 1)
            .map((r) => r.name)
            .join('.');
        if (!found.has(key)) found.set(key, { chain: chain.slice(0, i + 1), path, target });
    });
}

/** `field` of the related record is the one the relation's own foreign key holds, readable on the row. */
function orderedAsForeignKey(from: ModelDef, rel: RelationField, field: string): boolean {
    const local = rel.isOwner ? rel.foreignKeyMapping?.[field] : undefined;
    const fk = local === undefined ? undefined : from.scalars.get(local);
    return fk !== undefined && !fk.readProtected;
}

/** The positive conditions of a to-one relation filter (`{ name: 'x' }` or `{ is: { name: 'x' } }`), if it is one. */
function positiveFilter(value: unknown): Record<string, unknown> | undefined {
    if (!isObject(value)) return undefined;
    if (!hasOwn(value, 'is') && !hasOwn(value, 'isNot')) return value;
    return isObject(value.is) ? value.is : undefined;
}

/**
 * A raw "the related record exists" condition (to be placed under `AND`, where no read rule is applied); none for a
 * required relation, whose record always exists (Prisma takes no `not: null` on a required foreign key).
 */
function exists(rel: RelationField): Record<string, unknown>[] {
    if (!rel.isOptional) return [];
    const keys = rel.isOwner ? Object.values(rel.foreignKeyMapping ?? {}) : [];
    if (keys.length > 0) return [Object.fromEntries(keys.map((k) => [k, { not: null }]))];
    return [{ [rel.name]: { isNot: null } }];
}

/**
 * The rows of `where` whose records on `chain` are readable up to the last relation, and whose record there
 * exists but is hidden (a superset of them where a condition had to be dropped); undefined when `where` already
 * keeps to readable records there, through a relation filter ZenStack guards. Such a filter on a model with
 * read overrides (`read-override.ts`) may match hidden records, so it does not count.
 */
export function hiddenRowsWhere(registry: ModelRegistry, where: unknown, chain: readonly RelationField[]): Record<string, unknown> | undefined {
    const [rel, ...rest] = chain;
    const base = isObject(where) ? where : {};
    const target = registry.models.get(rel.targetKey);
    const positive = target?.hasReadOverrides ? undefined : positiveFilter(base[rel.name]);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(base)) if (key !== rel.name) out[key] = value;
    if (rest.length === 0) {
        if (positive) return undefined;
        // at the top of the filter: no readable record; under AND: one exists
        out[rel.name] = { isNot: {} };
        out.AND = [...many(base.AND), ...exists(rel)];
        return out;
    }
    const inner = hiddenRowsWhere(registry, positive, rest);
    if (!inner) return undefined;
    out[rel.name] = { is: inner };
    return out;
}

type FindFirst = (args: unknown) => Promise<unknown>;

/**
 * The first of `orders` (`ordersThroughHidden` of the read's `orderBy`) that would sort rows of `where` (with
 * `extra` raw conditions, under `AND`) by a record the user may not read, checked on the enhanced client `db`;
 * undefined when there is none. One query per relation hop to a model not everyone may read all of.
 */
export async function findHiddenOrder(
    db: unknown,
    registry: ModelRegistry,
    model: ModelDef,
    where: unknown,
    orders: readonly HiddenOrder[],
    extra: readonly unknown[] = [],
): Promise<HiddenOrder | undefined> {
    for (const order of orders) {
        const probe = hiddenRowsWhere(registry, where, order.chain);
        if (!probe) continue;
        if (extra.length > 0) probe.AND = [...many(probe.AND), ...extra];
        const delegate = (db as Record<string, { findFirst: FindFirst }>)[model.key];
        if (await delegate.findFirst({ where: probe, select: idSelect(model) })) return order;
    }
    return undefined;
}
