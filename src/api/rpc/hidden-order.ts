import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import { findHiddenOrder, ordersThroughHidden, type HiddenOrder } from '../common/hidden-order';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';

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

function collect(registry: ModelRegistry, model: ModelDef, args: Record<string, unknown>, sites: OrderSite[]): void {
    if (args.orderBy !== undefined) {
        const orders = ordersThroughHidden(registry, model, args.orderBy);
        if (orders.length > 0) sites.push({ model, where: args.where, orders });
    }
    for (const shape of [args.include, args.select]) {
        if (!isObject(shape)) continue;
        for (const [key, value] of Object.entries(shape)) {
            const rel = model.relations.get(key);
            const target = rel && registry.models.get(rel.targetKey);
            if (target && isObject(value)) collect(registry, target, value, sites);
        }
    }
}

/**
 * The reads of a call whose order has to be checked when it runs. A write that returns such a nested read is
 * refused here: it may itself link rows to hidden records (a post created with a secret blog's id) that a check
 * made before it could not see.
 */
export function findOrderSites(registry: ModelRegistry, model: ModelDef, opName: string, args: Args): OrderSite[] {
    const sites: OrderSite[] = [];
    collect(registry, model, args, sites);
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
 * is checked over every row of its model its own filter matches, whatever its parent: a superset of its rows.
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
