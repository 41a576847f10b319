import { concreteRulesUnder, leavesUnder, onConcreteModel, type IdWhere, type WriteKind } from '../../../common/delegate-writes';
import { classifyError } from '../../../common/errors';
import { RestError } from '../../errors';
import { delegateOf } from './guard';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';

/**
 * `PATCH`, `DELETE` and upserts of a resource of a `@@delegate` base type (`/asset/3`), and changes of its
 * relationships, whose concrete models have rules of their own for the write: made through the concrete models,
 * which ZenStack checks (through the base model it checks the base's rules only; see common/delegate-writes.ts).
 */

/** The concrete types a write of `kind` on `model` goes through, or undefined when it goes through `model` itself. */
export function concreteTypesFor(req: RestRequest, model: RestModel, kind: WriteKind): RestModel[] | undefined {
    if (!model.def.discriminator || !concreteRulesUnder(req.schema.registry, model.def, kind)) return undefined;
    return leavesUnder(req.schema.registry, model.def).map((def) => req.schema.byKey.get(def.key)!);
}

/** The 404 of the record the URL names (a related record's has a pointer): not this concrete type's. */
function isResourceNotFound(err: unknown): boolean {
    return err instanceof RestError && err.code === 'not-found' && err.extra.source === undefined;
}

/**
 * Runs `update` with `model` and `where`, or, for a base type whose concrete types have update rules of their own,
 * with the concrete type of the record `where` names and, when the user can see it, its id (see `onConcreteModel`).
 */
export function updateThroughConcrete<T>(
    req: RestRequest,
    model: RestModel,
    where: Record<string, unknown>,
    update: (target: RestModel, where: Record<string, unknown>) => Promise<T>,
): Promise<T> {
    if (!concreteTypesFor(req, model, 'update')) return update(model, where);
    const { registry, byKey } = req.schema;
    return onConcreteModel(req.prisma, registry, model.def, where, (def, _known, idWhere) => update(byKey.get(def.key)!, idWhere ?? where), isResourceNotFound);
}

/**
 * An upsert on such a base type: through the concrete type of the record, by its id, when the user can see it;
 * else the create it is for the user, which the base type refuses (ZenStack's upsert would find a record the
 * user cannot read and update it under the base's rules only).
 */
export function upsertThroughConcrete<T>(
    req: RestRequest,
    model: RestModel,
    where: Record<string, unknown>,
    upsert: (target: RestModel, where: Record<string, unknown>) => Promise<T>,
    create: () => Promise<T>,
): Promise<T> {
    if (!concreteTypesFor(req, model, 'update')) return upsert(model, where);
    const { registry, byKey } = req.schema;
    return onConcreteModel(req.prisma, registry, model.def, where, (def, known, idWhere: IdWhere | undefined) =>
        known ? upsert(byKey.get(def.key)!, idWhere ?? where) : create(),
    );
}

/**
 * `DELETE` of such a base type's resource: a `deleteMany` of each concrete type (one holds the record; the
 * others find nothing, or refuse at once when they have no delete rule at all, which is passed over).
 */
export async function deleteThroughConcrete(req: RestRequest, targets: readonly RestModel[], where: Record<string, unknown>): Promise<{ count: number }> {
    let count = 0;
    for (const target of targets) {
        try {
            count += ((await delegateOf(req, target).deleteMany({ where })) as { count: number }).count;
        } catch (err) {
            if (targets.length === 1 || classifyError(err).kind !== 'policy') throw err;
        }
    }
    return { count };
}

/**
 * Links or unlinks of such records from the side without the foreign key (`POST /user/1/relationships/assets`,
 * `relationships.assets` in a user's body) write their rows under the base type's update rules only: a 400 that
 * says to link them from their side (`PATCH /asset/3/relationships/owner`, made through the concrete type).
 */
export function refuseBaseLinks(req: RestRequest, model: RestModel, data: Record<string, unknown>, pointers: Readonly<Record<string, string>> = {}): void {
    for (const key of Object.keys(data)) {
        const rel = model.relationships.get(key);
        if (!rel || rel.field.isOwner || !rel.target.def.discriminator) continue;
        if (!concreteRulesUnder(req.schema.registry, rel.target.def, 'update')) continue;
        throw new RestError(
            'invalid-payload',
            `relationship "${key}" links ${rel.target.type} resources, whose concrete types have update rules of their own that this ` +
                `change would not check: change it from the ${rel.target.type}'s side (its own relationship to ${model.type})`,
            pointers[key] ? { source: { pointer: pointers[key] } } : {},
        );
    }
}
