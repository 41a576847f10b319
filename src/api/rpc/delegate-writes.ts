import { concreteRulesUnder, leavesUnder, onConcreteModel, type WriteKind } from '../common/delegate-writes';
import { BadRequestError, classifyError } from '../common/errors';
import { isObject } from '../common/guards';
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

/**
 * A nested update or delete of records of such a base model (`user.update({ data: { assets: { delete } } })`)
 * is a 400: ZenStack makes it unchecked by the concrete models' rules, and it cannot be made through them
 * (the relation names the base model). Each can be written through its own model's operations. So is an
 * `updateManyAndReturn` through the base model: ZenStack leaves it to Prisma on the base table, unchecked,
 * and a concrete model's takes no base fields.
 */
export function refuseUncheckedBaseWrites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): void {
    if (op === 'updateManyAndReturn' && model.discriminator && concreteRulesUnder(registry, model, 'update')) {
        throw new BadRequestError(
            `updateManyAndReturn of ${model.name} records is not offered: its concrete models have update rules of their own; use updateMany`,
        );
    }
    walkWrites(registry, model, op, args, ({ relation, target, ops }) => {
        if (!target.discriminator) return;
        for (const nested of Object.keys(ops)) {
            const kind = KIND[nested];
            if (!kind || ops[nested] === undefined || !concreteRulesUnder(registry, target, kind)) continue;
            throw new BadRequestError(
                `a nested ${nested} through "${relation.name}" writes ${target.name} records, whose concrete models have ` +
                    `${kind} rules of their own that it would not check: make it through the record's own model ` +
                    `(${leavesUnder(registry, target)
                        .map((m) => m.key)
                        .join(', ')})`,
            );
        }
    });
}

type Run = (client: unknown, call: PreparedCall) => Promise<unknown>;

/**
 * Makes `call`, a write through a base model, through its concrete models, on `tx` (a transaction): a
 * single-record write through the model of its record, a many-record one through each concrete model,
 * the counts added up. `run` makes one call (the usual path, in that transaction).
 */
export async function runThroughConcrete(tx: unknown, call: PreparedCall, run: Run): Promise<unknown> {
    const { registry, model, op, args } = call;
    const on = (target: ModelDef, changes: Partial<PreparedCall> = {}) => run(tx, { ...call, model: target, ...changes });
    if (op.name === 'updateMany' || op.name === 'deleteMany') {
        return manyThroughConcrete(registry, model, args, (target, limit) => on(target, { args: limit === undefined ? args : { ...args, limit } }));
    }
    const where = isObject(args.where) ? args.where : {};
    if (op.name !== 'upsert') return onConcreteModel(tx, registry, model, where, (target) => on(target));
    // an upsert: its update through the model of the record, found; else its create, which a base model refuses
    // (not the upsert itself: ZenStack would find a record the user cannot see and update it under the base's rules)
    const { where: w, update, create, ...shape } = args;
    try {
        return await onConcreteModel(tx, registry, model, where, (target, known) =>
            known ? on(target) : on(target, { op: findOperation('update')!, args: { ...shape, where: w, data: update } }),
        );
    } catch (err) {
        if (classifyError(err).kind !== 'not-found') throw err;
        return run(tx, { ...call, op: findOperation('create')!, args: { ...shape, data: create } });
    }
}

async function manyThroughConcrete(
    registry: ModelRegistry,
    model: ModelDef,
    args: Args,
    each: (target: ModelDef, limit: number | undefined) => Promise<unknown>,
): Promise<unknown> {
    const limit = typeof args.limit === 'number' ? args.limit : undefined;
    let count = 0;
    for (const leaf of leavesUnder(registry, model)) {
        if (limit !== undefined && count >= limit) break;
        const result = await each(leaf, limit === undefined ? undefined : limit - count);
        if (isObject(result) && typeof result.count === 'number') count += result.count;
    }
    return { count };
}
