import { isObject } from '../common/guards';
import { idSelect, type ModelDef, type ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { delegateOf, matchingNothing } from './write-walk';

/**
 * Cursors naming a record the user may not read. Prisma looks a cursor's row up by its unique key without the read
 * filter ZenStack adds to the query, and starts the page at that row's place in the order: whether a page came back
 * told a user that a hidden record with that key exists, and an order by a field of it gave that field's value away
 * (a hidden draft's title was read back letter by letter, by renaming one's own post around it and ordering by
 * title; 2.x answers the same). A cursor on such a record is read as one on no record, which Prisma answers with
 * an empty page (a count of 0, aggregates over no row): the read gets a filter matching nothing. At the top of a
 * call and in its nested reads (`include`/`select` at any depth). Costs one read of the cursor's record per cursor,
 * only in calls that have one; a write's nested read is checked before the write.
 */

/** A read with a cursor: the keys leading to its arguments (`[]`: the call's own), and its model. */
export interface CursorSite {
    path: string[];
    model: ModelDef;
}

function collect(registry: ModelRegistry, model: ModelDef, args: Record<string, unknown>, path: string[], sites: CursorSite[]): void {
    if (isObject(args.cursor) && model.idFields.length > 0) sites.push({ path, model });
    for (const key of ['include', 'select']) {
        const shape = args[key];
        if (!isObject(shape)) continue;
        for (const [name, value] of Object.entries(shape)) {
            const rel = model.relations.get(name);
            const target = rel && registry.models.get(rel.targetKey);
            if (target && isObject(value)) collect(registry, target, value, [...path, key, name], sites);
        }
    }
}

/** The reads of a call that carry a cursor. */
export function findCursorSites(registry: ModelRegistry, model: ModelDef, args: Args): CursorSite[] {
    const sites: CursorSite[] = [];
    collect(registry, model, args, [], sites);
    return sites;
}

function at(args: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
    let value = args;
    for (const key of path) value = value[key] as Record<string, unknown>;
    return value;
}

/**
 * `args` with the read at `path` made to match nothing: copied along the path, the rest shared. The condition joins
 * the filter's own `AND`: its other conditions stay where they were, at the top of the filter, which the policy guards
 * (wrapped in an `AND` of their own, ZenStack leaves relation filters there unguarded and hands them to Prisma as they
 * are, whose refusal of one then answered what a guarded filter does not reach).
 */
function matchingNothingAt(args: Record<string, unknown>, path: readonly string[], model: ModelDef): Record<string, unknown> {
    if (path.length === 0) {
        const nothing = matchingNothing(model);
        const where = args.where;
        if (!isObject(where)) return { ...args, where: nothing };
        const and = where.AND === undefined ? [] : Array.isArray(where.AND) ? where.AND : [where.AND];
        return { ...args, where: { ...where, AND: [...and, nothing] } };
    }
    const [key, ...rest] = path;
    return { ...args, [key]: matchingNothingAt(args[key] as Record<string, unknown>, rest, model) };
}

/**
 * What a cursor's record is looked up with: the read's own selection of scalars where its model has read overrides
 * (a read of only overridden fields reaches every row they are readable on, as ZenStack means it, and so does the
 * record its cursor names: a cursor by id there named a record the read lists), the ids otherwise.
 */
function cursorSelect(model: ModelDef, read: Record<string, unknown>): Record<string, true> {
    const select = read.select;
    if (!model.hasReadOverrides || !isObject(select)) return idSelect(model);
    const scalars = Object.keys(select).filter((k) => select[k] === true && model.scalars.has(k));
    return scalars.length > 0 ? Object.fromEntries(scalars.map((k) => [k, true as const])) : idSelect(model);
}

/** The call's arguments with every read whose cursor names a record the user may not read (or no record) made empty. */
export async function emptyHiddenCursors(client: unknown, args: Args, sites: readonly CursorSite[]): Promise<Args> {
    let out = args;
    for (const site of sites) {
        const read = at(args, site.path);
        // under the user's read rule: null for a record they may not read, as for one that is not there
        const record = await delegateOf(client, site.model).findUnique({ where: read.cursor, select: cursorSelect(site.model, read) });
        if (record === null || record === undefined) out = matchingNothingAt(out, site.path, site.model) as Args;
    }
    return out;
}
