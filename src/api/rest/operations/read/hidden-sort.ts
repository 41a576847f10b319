import { findHiddenOrder, ordersThroughHidden, tooManyOrderChecks } from '../../../common/hidden-order';
import { RestError } from '../../errors';
import { idFieldValues } from '../../payload/document';
import type { RestRequest } from '../../request';
import type { RestModel, RestRelationship } from '../../schema';

/** The one parent whose relationship is read: its model, its unique `where` and the relationship. */
export interface RelatedOf {
    parent: RestModel;
    parentWhere: Record<string, unknown>;
    rel: RestRelationship;
}

/**
 * A `sort` through to-one relationships that would place resources by records the user may not read
 * (`common/hidden-order.ts`) is a 400 `invalid-sort`. Checked on the client the page is read with (a snapshot's
 * transaction too), over the resources of `where` (of one parent's relationship, with `related`); a query per
 * relationship on the way to a model not everyone may read all of, none for the others and none without such a sort.
 */
export async function refuseHiddenSort(db: unknown, req: RestRequest, model: RestModel, where: unknown, orderBy: unknown, related?: RelatedOf): Promise<void> {
    const registry = req.schema.registry;
    const orders = ordersThroughHidden(registry, model.def, orderBy);
    if (orders.length === 0) return;
    const tooMany = tooManyOrderChecks(orders.length);
    if (tooMany) throw new RestError('invalid-sort', `sort: ${tooMany}`, { source: { parameter: 'sort' } });
    const order = await findHiddenOrder(db, registry, model.def, where, orders, related ? relatedTo(related) : []);
    if (order) {
        throw new RestError('invalid-sort', `sort "${order.path}": it would order ${model.type} resources by ${order.target.name} records the user may not read`, {
            source: { parameter: 'sort' },
        });
    }
}

/**
 * The related records of one parent, as a raw condition on the target (placed under `AND`): its relationship's
 * other side names the parent. The parent is readable, the read of the page checks it. Empty (every record of the
 * target, a superset) when the relation has no other side in the metadata.
 */
function relatedTo({ parent, parentWhere, rel }: RelatedOf): unknown[] {
    const backLink = rel.field.backLink && rel.target.def.relations.get(rel.field.backLink);
    if (!backLink) return [];
    // a compound id's unique form `{ a_b: { a, b } }` is not a filter: its fields are
    const filter = { ...idFieldValues(parent, parentWhere) };
    return [{ [backLink.name]: backLink.isArray ? { some: filter } : { is: filter } }];
}
