import { concreteRulesUnder, leavesUnder, onConcreteModel, type WriteKind } from '../../../common/delegate-writes';
import { RestError } from '../../errors';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';

/**
 * `PATCH`, `DELETE` and upserts of a resource of a `@@delegate` base type (`/asset/3`), and changes of its relationships, whose concrete models have
 * rules of their own for the write: made through the concrete models, which ZenStack checks (through the
 * base model it checks the base's rules only; see common/delegate-writes.ts).
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
 * Runs `update` with `model`, or, for a base type whose concrete types have update rules of their own, with
 * the concrete type of the record `where` names (see `onConcreteModel`).
 */
export function updateThroughConcrete<T>(req: RestRequest, model: RestModel, where: Record<string, unknown>, update: (target: RestModel) => Promise<T>): Promise<T> {
    if (!concreteTypesFor(req, model, 'update')) return update(model);
    const { registry, byKey } = req.schema;
    return onConcreteModel(req.prisma, registry, model.def, where, (def) => update(byKey.get(def.key)!), isResourceNotFound);
}

/**
 * An upsert on such a base type: through the concrete type of the record when the user can see it; else the
 * create it is for the user, which the base type refuses (ZenStack's upsert would find a record the user
 * cannot read and update it under the base's rules only).
 */
export function upsertThroughConcrete<T>(
    req: RestRequest,
    model: RestModel,
    where: Record<string, unknown>,
    upsert: (target: RestModel) => Promise<T>,
    create: () => Promise<T>,
): Promise<T> {
    if (!concreteTypesFor(req, model, 'update')) return upsert(model);
    const { registry, byKey } = req.schema;
    return onConcreteModel(req.prisma, registry, model.def, where, (def, known) => (known ? upsert(byKey.get(def.key)!) : create()));
}
