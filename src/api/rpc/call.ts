import type { ZodSchemas } from '@zenstackhq/runtime';
import { BadRequestError } from '../common/errors';
import { readThenWriteOptions } from '../common/isolation';
import { isNotReadable, transactionKeepingWrites } from '../common/transactions';
import { removeHiddenFields } from '../common/delegate-fields';
import { removeUnaskedRelations } from '../common/delegate-relations';
import { idSelect, type ModelDef, type ModelRegistry } from '../common/model-registry';
import { isObject } from '../common/guards';
import { guardProtectedFields } from './field-guard';
import { dropAddedFields, keepHiddenRowsOut, type AddedField } from './read-overrides';
import { guardFalsyConditions } from './falsy-conditions';
import { hoistGuardedFilters } from './hoist-filters';
import { dropEmptyConditions } from './empty-conditions';
import { hideUnreadableTarget, namesOneRecord, targetVisible } from './hidden-target';
import { refuseDelegateAuxRelations } from './delegate-aux';
import { checkHiddenRelationOnlyTarget, checkRelationOnlyTarget, relationOnlyTargetHidden } from './relation-only-update';
import { checkArgStructure } from './arg-structure';
import type { DecimalBudget } from './arg-numbers';
import { checkSelectShape, dropFalseCounts } from './shape';
import { decodeArgs, type Args, type RawArgs } from './input';
import { applyJsonNulls, resolveTypedJsonNulls } from './json-nulls';
import { findOperation, type OperationSpec } from './operations';
import { delegateOf, matchingNothing } from './write-walk';
import { validateArgs } from './validation';
import { applyLimits, type ArgLimits } from './limits';
import { checkWriteRecords, countWriteRecords } from './write-size';
import { checkFilterValues, checkIncludedRelations, countIncludedRelations } from './arg-size';
import { checkSetItems, copyTree, findSetSites, rewriteSets } from './relation-set';
import { findOneToOneSites, guardOneToOne, hasOneToOneSites } from './one-to-one';
import { detachCompoundDisconnects, hasCompoundDisconnects } from './compound-disconnect';
import { checkUnguardedLinks, hasUnguardedLinks } from './self-many-to-many';
import { refuseUncheckedConnectOrCreate } from './connect-or-create';
import { refuseUpsertRelationWrites } from './nested-upsert';
import { refuseRuledNestedUpdateMany } from './nested-update-many';
import { refuseUnhashedPasswords } from './batch-passwords';
import { longFormToOneUpdates } from './to-one-long-form';
import { writeDatesAsDates } from './write-dates';
import { hideNestedTargets, nestedTargets } from './hidden-nested';
import { hasToOneTargets, hideToOneTargets } from './hidden-to-one';
import { mayRerun, rerunning } from '../common/rerun';
import { findsOrCreates } from './find-or-create';
import { findOrderSites, refuseHiddenOrders, type OrderSite } from './hidden-order';
import { emptyHiddenCursors, findCursorSites, type CursorSite } from './hidden-cursor';
import { dropOmitted, liftWriteOmit } from './write-omit';
import { refuseUncheckedBaseWrites, runThroughConcrete, writesThroughConcrete } from './delegate-writes';
import { providerOf } from '../common/isolation';
import { computedFields, keepingInRange, type ComputedField } from './number-range';
import { refuseWithoutIds } from './without-ids';

/** One validated call, ready to run on a client (the request's, or a transaction's). */
export interface PreparedCall {
    registry: ModelRegistry;
    model: ModelDef;
    op: OperationSpec;
    args: Args;
    /**
     * Relation `set`s, disconnects by compound keys, one-to-one links, links through a self-relation many-to-many,
     * records named by nested to-many writes or partners of nested to-one writes in the arguments: the call runs in
     * a transaction that rewrites or checks them first (against the current members, as foreign keys, after a checked
     * unlink, under the linked records' update rules, under the read rule of the named records and partners).
     */
    guarded: boolean;
    /**
     * The rewrite computes what to write from what it reads (a relation `set`, a disconnect by compound key):
     * serializable where the database offers it. (One-to-one links rely on the unique constraint and policy
     * checks instead.)
     */
    readThenWrite: boolean;
    /**
     * Not guarded, but `connect`s or `connectOrCreate`s name records of models not everyone may read: those are
     * looked up first, without a transaction (see `hideNestedTargets`).
     */
    checksLinks: boolean;
    /** Reads ordered through relations to records the user may not read all of: checked when the call runs (`hidden-order.ts`). */
    orderSites: OrderSite[];
    /** Reads with a cursor: made empty when it names a record the user may not read (`hidden-cursor.ts`). */
    cursorSites: CursorSite[];
    /** Fields a write's `omit` leaves out, taken off the call and removed from its result (`write-omit.ts`). */
    omitted: string[];
    /** Fields added to selections to keep the model's read rule, removed from the result (`read-overrides.ts`). */
    added: readonly AddedField[];
    /** On SQLite, the fields the write computes (`{ increment }` …): kept within their type's range (`number-range.ts`). */
    computed: ComputedField[];
    /** The records the call lists for writing (`write-size.ts`). */
    writeRecords: number;
    /** The items of the lists in the call's filters (`arg-size.ts`). */
    filterValues: number;
    /** An upsert, or a write with a nested `upsert` or `connectOrCreate`: run again after losing a race on a new key (`find-or-create.ts`). */
    findsOrCreates: boolean;
}

/**
 * Turns received arguments into the client's arguments: typed values restored, zod-validated
 * (when schemas are available), checked against protected fields and limits, Json null markers
 * swapped for the client runtime's objects.
 */
export function prepareCall(
    prisma: unknown,
    registry: ModelRegistry,
    model: ModelDef,
    op: OperationSpec,
    raw: RawArgs,
    zodSchemas: ZodSchemas | undefined,
    limits?: ArgLimits,
    decimals?: DecimalBudget,
): PreparedCall {
    refuseWithoutIds(model, op);
    const decoded = decodeArgs(raw);
    // before anything else walks the arguments: their size is what is bounded
    if (limits?.maxFilterValues !== undefined) checkFilterValues(decoded.listed, limits.maxFilterValues);
    const maxRelations = limits?.maxIncludedRelations;
    if (maxRelations !== undefined && maxRelations !== Infinity) checkIncludedRelations(countIncludedRelations(registry, model, decoded.args, maxRelations), maxRelations);
    const writeRecords = countWriteRecords(registry, model, op.name, decoded.args);
    if (limits?.maxWriteRecords !== undefined) checkWriteRecords(writeRecords, limits.maxWriteRecords);
    const { args: received, slots: jsonNulls, forValidation } = resolveTypedJsonNulls(registry, model, op.name, decoded.args, decoded.jsonNulls);
    // zod (when given) reports unknown arguments itself, as a 422 listing the issues
    validateArgs(zodSchemas, model.name, op.name, forValidation);
    const args = dropFalseCounts(received);
    for (const key of Object.keys(args)) {
        if (!op.argKeys.has(key)) {
            throw new BadRequestError(`unknown argument "${key}" for ${op.name}; expected one of: ${[...op.argKeys].join(', ')}`);
        }
    }
    checkSelectShape(args, op.name);
    checkArgStructure(registry, model, op.name, args, decimals, decoded.jsonNulls);
    refuseDelegateAuxRelations(registry, model, args);
    refuseUncheckedBaseWrites(registry, model, op.name, args);
    refuseUncheckedConnectOrCreate(registry, model, op.name, args);
    refuseUpsertRelationWrites(registry, model, op.name, args);
    refuseRuledNestedUpdateMany(registry, model, op.name, args);
    refuseUnhashedPasswords(registry, model, op.name, args);
    const limited = applyLimits(registry, model, op.name, args, limits);
    // after the Json nulls, which are placed by path
    const conditions = dropEmptyConditions(registry, model, op.name, applyJsonNulls(limited, jsonNulls, prisma));
    const filtered = guardFalsyConditions(registry, model, op.name, hoistGuardedFilters(registry, model, op.name, conditions));
    const prepared = writeDatesAsDates(registry, model, op.name, longFormToOneUpdates(registry, model, op.name, filtered));
    guardProtectedFields(registry, model, op.name, prepared);
    const orderSites = findOrderSites(registry, model, op.name, prepared);
    const cursorSites = findCursorSites(registry, model, prepared);
    const setSites = findSetSites(registry, model, op.name, prepared);
    checkSetItems(setSites);
    // each reads the current members (or the records to check), then writes what follows from them
    const readThenWrite = setSites.length > 0 || hasCompoundDisconnects(registry, model, op.name, prepared) || hasUnguardedLinks(registry, model, op.name, prepared);
    const named = nestedTargets(registry, model, op.name, prepared);
    const guarded =
        readThenWrite ||
        hasOneToOneSites(findOneToOneSites(registry, model, op.name, prepared)) ||
        named === 'writes' ||
        hasToOneTargets(registry, model, op.name, prepared);
    const checksLinks = !guarded && named === 'links';
    // nested reads and aggregates that would answer from rows the model's read rule hides (read-overrides.ts)
    const kept = keepHiddenRowsOut(registry, model, op.name, prepared);
    const { args: sent, omitted } = liftWriteOmit(model, op.name, kept.args);
    const computed = providerOf(prisma) === 'sqlite' ? computedFields(registry, model, op.name, sent) : [];
    const findsOrCreatesKey = findsOrCreates(registry, model, op.name, sent);
    return {
        registry,
        model,
        op,
        args: sent,
        guarded,
        readThenWrite,
        checksLinks,
        orderSites,
        cursorSites,
        omitted,
        added: kept.added,
        computed,
        writeRecords,
        filterValues: decoded.listed,
        findsOrCreates: findsOrCreatesKey,
    };
}

type ClientMethod = (args: Args) => Promise<unknown>;

/** Databases whose transaction a failed statement aborts (nothing runs in it after, until the rollback). */
const ABORTING: ReadonlySet<string> = new Set(['postgresql', 'cockroachdb']);

/**
 * The client's method for a call. The model key comes from the schema metadata and the method
 * name from the operation table, so nothing user-controlled is looked up on the client.
 */
export function clientMethod(client: unknown, model: ModelDef, op: OperationSpec): ClientMethod {
    const delegate = (client as Record<string, unknown> | null | undefined)?.[model.key];
    const method = delegate && typeof delegate === 'object' ? (delegate as Record<string, unknown>)[op.name] : undefined;
    if (typeof method !== 'function') {
        if (op.optional) {
            throw new BadRequestError(`operation ${op.name} is not supported by this client`);
        }
        throw new Error(`the client has no ${model.key}.${op.name} method`);
    }
    return (args) => (method as ClientMethod).call(delegate, args);
}

/**
 * Runs a prepared call on a client. Synchronous throws (ZenStack validates some arguments eagerly)
 * become rejections. A guarded call (relation `set`s, disconnects by compound keys, one-to-one links, links
 * through a self-relation many-to-many) reads what it needs and writes in one transaction: `client` is used as
 * it is when it already is one (`inTransaction`). A write in that transaction whose result cannot be read back
 * is kept: the transaction commits and the error is thrown afterwards, as ZenStack does with its own transactions.
 */
export async function runCall(client: unknown, call: PreparedCall, inTransaction = false): Promise<unknown> {
    if (writesThroughConcrete(call)) {
        // an update or delete through a @@delegate base model whose concrete models have rules of their own for it
        const through = (tx: unknown) => runThroughConcrete(tx, call, (c, concrete) => runCall(c, concrete, true));
        const made = inTransaction ? await through(client) : await transactionKeepingWrites(client, through);
        removeHiddenFields(call.registry, call.model, made);
        removeUnaskedRelations(call.registry, call.model, call.args, made);
        return made;
    }
    let result: unknown;
    // the arguments sent to the client, once rewritten (relation `set`s, …)
    const sent: { args?: Args } = {};
    // in a PostgreSQL transaction a failed statement aborts it, and the record could not be looked up after a failure
    // (a unique violation of an update's new id would tell that a record the user cannot read exists): before the write,
    // unless every record is readable by all
    const visibleBefore = inTransaction && ABORTING.has(providerOf(client)) && !call.model.readableByAll && namesOneRecord(call) ? await targetVisible(client, call) : undefined;
    try {
        result = await callClient(client, call, inTransaction, sent);
    } catch (err) {
        throw await hideUnreadableTarget(client, call, sent.args ?? call.args, err, visibleBefore);
    }
    // concrete fields ZenStack merges into delegate base records without their read rules, and relations it includes there
    removeHiddenFields(call.registry, call.model, result);
    removeUnaskedRelations(call.registry, call.model, call.args, result);
    dropOmitted(result, call.omitted);
    dropAddedFields(result, call.added);
    return result;
}

/**
 * The create an upsert makes when its record is not there for the user. ZenStack looks the record up without
 * the read rule, so an upsert of a record the user may update but not read runs its update branch, where the
 * guards above (which read the record under the policy) see nothing to check: a guarded upsert whose record
 * the user cannot see runs as the create it is for the user (a hidden record with that key: a unique violation).
 */
async function asCreateIfHidden(tx: unknown, call: PreparedCall): Promise<PreparedCall> {
    // (a model without id fields, a view, has no upsert)
    if (call.op.name !== 'upsert' || !isObject(call.args.where) || call.model.idFields.length === 0) return call;
    const delegate = delegateOf(tx, call.model);
    if (isObject(await delegate.findUnique({ where: call.args.where, select: idSelect(call.model) }))) return call;
    // ZenStack refuses an upsert before any lookup where the user may never update such a record (a rule false for
    // them whatever the row); so does the create it runs as: an update of no row meets the same refusal, and writes nothing
    await delegate.updateMany({ where: matchingNothing(call.model), data: {} });
    const { where: _where, update: _update, create, ...shape } = call.args;
    return { ...call, op: findOperation('create')!, args: { ...shape, data: create } };
}

async function callClient(client: unknown, call: PreparedCall, inTransaction: boolean, sent: { args?: Args }): Promise<unknown> {
    // a read takes no locks it could lose a race over: run once, without the loop's extra frame
    if (inTransaction || call.op.methods[0] === 'GET' || !mayRerun(client)) return runClient(client, call, inTransaction, sent);
    // the whole call runs again after losing a race (rerun.ts): a deadlock, an upsert (or connectOrCreate) of a new key
    // another request created meanwhile, a linked record deleted since it was checked (answered then as a missing one)
    return rerunning(() => runClient(client, call, false, sent), { findsOrCreates: call.findsOrCreates, links: true });
}

async function runClient(client: unknown, call: PreparedCall, inTransaction: boolean, sent: { args?: Args }): Promise<unknown> {
    if (call.computed.length === 0) return runChecked(client, call, inTransaction, sent);
    const run = (tx: unknown) => keepingInRange(tx, call.computed, () => runChecked(tx, call, true, sent));
    return inTransaction ? run(client) : transactionKeepingWrites(client, run);
}

async function runChecked(client: unknown, prepared: PreparedCall, inTransaction: boolean, sent: { args?: Args }): Promise<unknown> {
    // reads only (a write with such an order was refused): on the client the read runs on, a transaction's in one
    await refuseHiddenOrders(client, prepared.registry, prepared.orderSites);
    const call = prepared.cursorSites.length === 0 ? prepared : { ...prepared, args: await emptyHiddenCursors(client, prepared.args, prepared.cursorSites) };
    if (!call.guarded) {
        let args = call.args;
        if (call.checksLinks) {
            // the records links name are looked up on the client: no transaction is needed (see hideNestedTargets)
            args = copyTree(call.args) as Args;
            await hideNestedTargets(client, call.registry, call.model, call.op.name, args);
            sent.args = args;
        }
        if (!(await relationOnlyTargetHidden(client, call.model, call.op.name, args))) return clientMethod(client, call.model, call.op)(args);
        // checked by a write, undone with the update when that fails
        const checked = async (tx: unknown) => {
            await checkHiddenRelationOnlyTarget(tx, call.model, args);
            return clientMethod(tx, call.model, call.op)(args);
        };
        return inTransaction ? checked(client) : transactionKeepingWrites(client, checked);
    }
    const run = async (tx: unknown) => {
        const c = await asCreateIfHidden(tx, call);
        await checkRelationOnlyTarget(tx, c.model, c.op.name, c.args);
        // rewritten in a copy: the caller's arguments stay as they were
        const args = await rewriteSets(tx, c.registry, c.model, c.op.name, c.args);
        const required = await detachCompoundDisconnects(tx, c.registry, c.model, c.op.name, args);
        await hideNestedTargets(tx, c.registry, c.model, c.op.name, args);
        await hideToOneTargets(tx, c.registry, c.model, c.op.name, args);
        await checkUnguardedLinks(tx, c.registry, c.model, c.op.name, args);
        await guardOneToOne(tx, c.registry, c.model, args, findOneToOneSites(c.registry, c.model, c.op.name, args));
        sent.args = args;
        if (!required) return clientMethod(tx, c.model, c.op)(args);
        // the write passes its rules (or fails on them first), then is undone by the refusal
        try {
            await clientMethod(tx, c.model, c.op)(args);
        } catch (err) {
            if (!isNotReadable(err)) throw err;
        }
        throw required;
    };
    if (inTransaction) return run(client);
    return transactionKeepingWrites(client, run, call.readThenWrite ? readThenWriteOptions(client) : undefined);
}
