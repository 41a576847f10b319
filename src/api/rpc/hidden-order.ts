import { BadRequestError } from '../common/errors';
import { hasOwn, isObject } from '../common/guards';
import { findHiddenOrder, ordersThroughHidden, tooManyOrderChecks, type HiddenOrder } from '../common/hidden-order';
import type { ModelDef, ModelRegistry, RelationField } from '../common/model-registry';
import type { Args } from './input';
import { asFilter } from './relation-set';

/**
 * Orders through to-one relations to records the user may not read (`common/hidden-order.ts`), in an RPC call:
 * its own `orderBy` and those of the nested reads of its `include`/`select`.
 */

/** A read in the call with an order that may look at hidden records: its model, filter and those orderings. */
export interface OrderSite {
    model: ModelDef;
    where: unknown;
    orders: HiddenOrder[];
}

const READS = new Set(['findMany', 'findFirst', 'findUnique', 'count', 'aggregate', 'groupBy']);

/**
 * The rows of `model` a nested read through `rel` (of the parent rows `parent` filters) can return, as a filter:
 * its own `where` with the relation's other side kept to those parents, at the top of the filter, where ZenStack
 * applies the parent's read rule (only readable parents have nested rows). Its own `where` alone (every row of
 * the model it matches, a superset) when that key is taken, the relation has no other side, or that side has a
 * field-level read rule: ZenStack then matches only rows where the user may read it, while the nested read
 * returns the others too (a subset would let an order by a hidden record through).
 */
function nestedRows(model: ModelDef, rel: RelationField, where: unknown, parent: Record<string, unknown>): unknown {
    const back = rel.backLink ? model.relations.get(rel.backLink) : undefined;
    if (where !== undefined && !isObject(where)) return where;
    if (!back || back.readProtected || (where && hasOwn(where, back.name))) return where;
    return { ...where, [back.name]: back.isArray ? { some: parent } : { is: parent } };
}

/** A read's filter as the filter of its rows inside a relation filter (a unique one's compound keys spread). */
function asParent(model: ModelDef, where: unknown): Record<string, unknown> {
    return isObject(where) ? asFilter(model, where) : {};
}

function collect(registry: ModelRegistry, model: ModelDef, args: Record<string, unknown>, where: unknown, sites: OrderSite[]): void {
    if (args.orderBy !== undefined) {
        const orders = ordersThroughHidden(registry, model, args.orderBy);
        if (orders.length > 0) sites.push({ model, where, orders });
    }
    for (const shape of [args.include, args.select]) {
        if (!isObject(shape)) continue;
        for (const [key, value] of Object.entries(shape)) {
            const rel = model.relations.get(key);
            const target = rel && registry.models.get(rel.targetKey);
            if (!rel || !target || !isObject(value)) continue;
            collect(registry, target, value, nestedRows(target, rel, value.where, asParent(model, where)), sites);
        }
    }
}

/**
 * The reads of a call whose order has to be checked when it runs. A write that returns such a nested read is
 * refused here: it may itself link rows to hidden records (a post created with a secret blog's id) that a check
 * made before it could not see. So is a call whose orders need more than MAX_HIDDEN_ORDER_CHECKS checks.
 */
export function findOrderSites(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): OrderSite[] {
    const sites: OrderSite[] = [];
    collect(registry, model, args, args.where, sites);
    const tooMany = tooManyOrderChecks(sites.reduce((n, site) => n + site.orders.length, 0));
    if (tooMany) throw new BadRequestError(tooMany);
    if (sites.length > 0 && !READS.has(opName)) {
        const [order] = sites[0].orders;
        throw new BadRequestError(
            `ordering by "${order.path}" of ${sites[0].model.name} in the result of ${opName} is not supported: it may sort by ${order.target.name} records the user may not read; read them after the write`,
        );
    }
    return sites;
}

/**
 * Refuses (400) an order that would sort the rows a read filters by a record the user may not read. A nested read
 * is checked over the rows of its model its own filter matches whose parent is one the read's filters reach
 * (readable, matching the parent's `where`, at every level up): a superset of its rows, since `take`, `skip`
 * and cursors are left out.
 * Costs a query per relation hop to a model not everyone may read all of, only when the call has such an order.
 */
export async function refuseHiddenOrders(client: unknown, registry: ModelRegistry, sites: readonly OrderSite[]): Promise<void> {
    for (const site of sites) {
        const order = await findHiddenOrder(client, registry, site.model, site.where, site.orders);
        if (order) {
            throw new BadRequestError(
                `ordering by "${order.path}" of ${site.model.name} is not supported here: it would sort by ${order.target.name} records the user may not read`,
            );
        }
    }
}
