import type { RestConfig } from '../options';
import { idSelect } from '../ids';
import type { RestModel } from '../schema';
import { planOf } from '../document/model-plan';
import type { Fieldsets, IncludeTree } from './types';

/**
 * Builds the Prisma `select` of a resource type: its ids, the attributes of its fieldset, what
 * to-one identifiers need (foreign keys on the owner side; the related id otherwise, for primary
 * data only), and for each included relationship the nested select of the target, except for the
 * relationships read apart (`loadedApart`: only their foreign keys are selected). To-many
 * relationships that are not included are never loaded, and neither is the far side of a to-one
 * relationship of an included resource: its linkage is one more policy-checked read per
 * relationship, so included resources carry links only there (as JSON:API allows), unless that
 * relationship is itself included. A `@@delegate` base model is the exception (see `Projection`).
 */

type Select = Record<string, unknown>;

/**
 * The records an included to-many relationship reads per parent: one more than it shows (`pageSize`), which tells the
 * document builder that the relationship has more members. `maxIncludedRecords` counts with the same cap (read-query.ts).
 */
export function includedToManyTake(config: RestConfig): number {
    return config.pageSize + 1;
}

/**
 * The shape of a read: `{ select }`, or for a `@@delegate` base model read without a fieldset of its
 * own, `{ include }` of its relationships only (possibly neither). Without a `select` the ORM loads
 * every field, and ZenStack adds the fields of each record's concrete model (a `Video`'s `duration`
 * read as an `Asset`), as `@zenstackhq/server` 2.x answers them; a `select` would drop them.
 */
export type Projection = { select: Select } | { include?: Select };

const defaults = new WeakMap<RestModel, Projection>();
const orders = new WeakMap<RestModel, Array<Record<string, 'asc'>>>();

/** `orderBy` on the id fields: a stable order for pages and included to-many relationships. */
export function idOrder(model: RestModel): Array<Record<string, 'asc'>> {
    let order = orders.get(model);
    if (!order) {
        order = model.idFields.map((f) => ({ [f.name]: 'asc' as const }));
        orders.set(model, order);
    }
    return order;
}

/** Whether `model`'s records are read whole (see `Projection`) in a document shaped by `fields`. */
function readsWhole(model: RestModel, fields: Fieldsets | undefined): boolean {
    return model.descendants.length > 0 && !fields?.has(model.type);
}

function project(model: RestModel, include: IncludeTree | undefined, fields: Fieldsets | undefined, config: RestConfig, primary: boolean): Projection {
    const whole = readsWhole(model, fields);
    const plan = planOf(model);
    const set = fields?.get(model.type);
    const select: Select = whole ? {} : { ...idSelect(model) };
    if (!whole) {
        for (const a of plan.attributes) {
            if (!set || set.has(a.name)) select[a.name] = true;
        }
    }
    for (const r of plan.relationships) {
        const sub = include?.get(r.name);
        const shown = !set || set.has(r.name);
        if (r.loadedApart) {
            // read apart (operations/read/to-one-apart.ts): its foreign keys only
            if ((shown || sub) && !whole) for (const fk of r.linkKeys!.local) select[fk] = true;
            continue;
        }
        if (shown && r.fkFields && !whole) {
            for (const fk of r.fkFields) select[fk] = true;
        }
        if (sub) {
            const target = r.rel.target;
            const nested: Select = { ...project(target, sub, fields, config, false) };
            if (r.isArray) {
                nested.orderBy = idOrder(target);
                if (Number.isFinite(config.pageSize)) nested.take = includedToManyTake(config);
            }
            select[r.name] = nested;
        } else if (primary && shown && !r.isArray && !r.fkFields) {
            select[r.name] = { select: idSelect(r.rel.target) };
            // its foreign keys, if on this side, tell a target the user may not read from no link (document/builder.ts)
            if (r.linkKeys && !whole) for (const fk of r.linkKeys.local) select[fk] = true;
        }
    }
    if (!whole) return { select };
    return Object.keys(select).length > 0 ? { include: select } : {};
}

/** The projection of primary data of `model` for a document shaped by `include` and `fields` (the plain case is cached per model). */
export function projectionFor(model: RestModel, include: IncludeTree | undefined, fields: Fieldsets | undefined, config: RestConfig): Projection {
    if ((!include || include.size === 0) && !fields?.has(model.type)) {
        let projection = defaults.get(model);
        if (!projection) {
            projection = project(model, undefined, undefined, config, true);
            defaults.set(model, projection);
        }
        return projection;
    }
    return project(model, include, fields, config, true);
}

/** The projection of an included resource of `model` (as nested in its includer's select: no to-one ids beyond foreign keys). */
export function includedProjection(model: RestModel, include: IncludeTree | undefined, fields: Fieldsets | undefined, config: RestConfig): Projection {
    return project(model, include, fields, config, false);
}
