import { concreteRulesUnder, leavesUnder, onConcreteModel, type IdWhere, type WriteKind } from '../common/delegate-writes';
import { BadRequestError, classifyError } from '../common/errors';
import { isObject, isPlainObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { findOperation } from './operations';
import { walkWrites } from './write-walk';
import type { PreparedCall } from './call';

/**
 * RPC writes through a `@@delegate` base model whose concrete models have rules of their own for the
 * write (see common/delegate-writes.ts): a top-level one is made through the concrete models, a nested
 * one is refused.
 */

const KIND: Readonly<Record<string, WriteKind>> = {
    update: 'update',
    upsert: 'update',
    updateMany: 'update',
    delete: 'delete',
    deleteMany: 'delete',
};

/** Whether the call is a write through a base model that must be made through its concrete models. */
export function writesThroughConcrete(call: Pick<PreparedCall, 'registry' | 'model' | 'op'>): boolean {
    const kind = KIND[call.op.name];
    return !!kind && !!call.model.discriminator && concreteRulesUnder(call.registry, call.model, kind);
}

/** Nested writes that link or unlink records of the relation's target: from the side without the key they write the target's row. */
const LINKS = ['connect', 'disconnect', 'set', 'connectOrCreate'];

/**
 * What cannot be made through the concrete models is a 400 when they have rules of their own for it:
 * - a nested update or delete of records of such a base model (`user.update({ data: { assets: { delete } } })`):
 *   ZenStack makes it unchecked by the concrete models' rules, and it cannot be made through them (the relation
 *   names the base model);
 * - a link or unlink of such records from the side without the foreign key (`user.update({ data: { assets: {
 *   connect } } })`), which updates their rows the same way; from the record's side (`asset.update({ data: { owner:
 *   { connect } } })`) it is an update of the record, made through its concrete model;
 * - an `updateManyAndReturn` through the base model (ZenStack leaves it to Prisma on the base table, unchecked),
 *   and a `limit` on `updateMany`/`deleteMany` through it (a concrete model's ignores it on base fields).
 * Each can be written through the record's own model.
 */
export function refuseUncheckedBaseWrites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): void {
    if (model.discriminator && concreteRulesUnder(registry, model, KIND[op] ?? 'update')) {
        if (op === 'updateManyAndReturn') {
            throw new BadRequestError(`updateManyAndReturn of ${model.name} records is not offered: its concrete models have update rules of their own; use updateMany`);
        }
        if ((op === 'updateMany' || op === 'deleteMany') && args.limit !== undefined) {
            throw new BadRequestError(`"limit" is not offered on ${op} of ${model.name} records, whose concrete models have rules of their own: make it through each concrete model`);
        }
    }
    if (args.limit !== undefined && ((op === 'deleteMany' && involvesDelegate(registry, model)) || (op === 'updateMany' && model.delegated && writesBaseRows(model, args.data)))) {
        throw new BadRequestError(
            `"limit" is not offered on ${op} of ${model.name} records${op === 'updateMany' ? ' writing fields of its base model' : ''}: ` +
                `ZenStack 2.22 leaves it out there (it ${op === 'deleteMany' ? 'deletes' : 'updates'} every matching record); name the records in "where" instead`,
        );
    }
    walkWrites(registry, model, op, args, ({ relation, target, ops }) => {
        if (!target.discriminator) return;
        for (const nested of Object.keys(ops)) {
            if (ops[nested] === undefined) continue;
            const links = LINKS.includes(nested) && !relation.isOwner;
            const kind = links ? 'update' : KIND[nested];
            if (!kind || !concreteRulesUnder(registry, target, kind)) continue;
            const own = leavesUnder(registry, target)
                .map((m) => m.key)
                .join(', ');
            throw new BadRequestError(
                links
                    ? `a nested ${nested} through "${relation.name}" changes ${target.name} records, whose concrete models have update rules ` +
                          `of their own that it would not check: link them from their side (an update of the ${target.key}, or of its own model: ${own})`
                    : `a nested ${nested} through "${relation.name}" writes ${target.name} records, whose concrete models have ` +
                          `${kind} rules of their own that it would not check: make it through the record's own model (${own})`,
            );
        }
    });
}

const involving = new WeakMap<ModelDef, boolean>();

/**
 * Whether ZenStack's `@@delegate` layer makes the model's `deleteMany` (finding the records, then deleting them one by
 * one, without a `limit`): the model is in such a hierarchy, or reaches one through its relations, at any depth.
 */
function involvesDelegate(registry: ModelRegistry, model: ModelDef): boolean {
    let known = involving.get(model);
    if (known !== undefined) return known;
    known = false;
    const seen = new Set<ModelDef>();
    const queue = [model];
    while (queue.length > 0 && !known) {
        const next = queue.pop()!;
        if (seen.has(next)) continue;
        seen.add(next);
        known = next.delegated;
        for (const rel of next.relations.values()) {
            const target = registry.models.get(rel.targetKey);
            if (target) queue.push(target);
        }
    }
    involving.set(model, known);
    return known;
}

/**
 * Whether an `updateMany` of a model in a `@@delegate` hierarchy writes rows of a base model: a field it inherits, or
 * a base model's `@updatedAt`. ZenStack then updates the records found one by one, without the call's `limit`.
 */
function writesBaseRows(model: ModelDef, data: unknown): boolean {
    if (model.updatedAtFields.some((f) => f.info.inheritedFrom)) return true;
    return isPlainObject(data) && Object.keys(data).some((key) => !!model.fields.get(key)?.info.inheritedFrom);
}

type Run = (client: unknown, call: PreparedCall) => Promise<unknown>;

/**
 * Makes `call`, a write through a base model, through its concrete models, on `tx` (a transaction): a
 * single-record write through the model of its record, a many-record one through each concrete model, the
 * counts added up (a `limit` is refused: see `refuseUncheckedBaseWrites`). `run` makes one call (the usual
 * path, in that transaction).
 */
export async function runThroughConcrete(tx: unknown, call: PreparedCall, run: Run): Promise<unknown> {
    const { registry, model, op, args } = call;
    const on = (target: ModelDef, changes: Partial<PreparedCall> = {}) => run(tx, { ...call, model: target, ...changes });
    if (op.name === 'updateMany' || op.name === 'deleteMany') {
        const leaves = leavesUnder(registry, model);
        let count = 0;
        for (const leaf of leaves) {
            let result: unknown;
            try {
                result = await on(leaf);
            } catch (err) {
                // a concrete model whose rules allow no delete at all is refused before anything is written (as the REST
                // handler's deletes through the base type): it deletes none of its rows; the others are deleted. Not so
                // an updateMany, which ZenStack may refuse after writing (a post-update rule)
                if (op.name === 'deleteMany' && leaves.length > 1 && classifyError(err).kind === 'policy') continue;
                throw err;
            }
            if (isObject(result) && typeof result.count === 'number') count += result.count;
        }
        return { count };
    }
    // a concrete model takes its record by id (the base model's other unique keys are not its own): the record was
    // found by the full filter under the read policy, in this transaction
    const where = isObject(args.where) ? args.where : {};
    const named = (idWhere: IdWhere | undefined) => (idWhere ? { ...args, where: idWhere } : args);
    if (op.name !== 'upsert') return onConcreteModel(tx, registry, model, where, (target, _known, idWhere) => on(target, { args: named(idWhere) }));
    // an upsert: its update through the model of the record, found; else its create, which a base model refuses
    // (not the upsert itself: ZenStack would find a record the user cannot see and update it under the base's rules)
    const { where: w, update, create, ...shape } = args;
    try {
        return await onConcreteModel(tx, registry, model, where, (target, known, idWhere) =>
            known
                ? on(target, { args: named(idWhere) })
                : on(target, { op: findOperation('update')!, args: { ...shape, where: idWhere ?? w, data: update } }),
        );
    } catch (err) {
        if (classifyError(err).kind !== 'not-found') throw err;
        return run(tx, { ...call, op: findOperation('create')!, args: { ...shape, data: create } });
    }
}
