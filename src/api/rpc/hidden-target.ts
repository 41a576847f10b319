import { classifyError, failedInDatabase, RecordNotFoundError } from '../common/errors';
import { hasOwn, isPlainObject, many } from '../common/guards';
import { idSelect, type RelationField } from '../common/model-registry';
import type { PreparedCall } from './call';
import type { Args } from './input';
import { isMatchingNothing, toOneData } from './write-walk';

/**
 * ZenStack checks that the record of an `update` or `delete` exists without its read rule, so a write
 * of a record the user cannot read answers 403 (denied) where a missing record answers 404: whether a
 * guessed id exists would be a yes/no question anyone could ask. An `update` with empty `data` is not
 * checked against the update rule at all, and answers 403 RESULT_NOT_READABLE for a record that
 * exists. When such a write fails and the user cannot read its record, the answer is the data layer's
 * own 404 for a missing record instead (same message, same code); so it is when a nested write fails (a
 * nested record not found, a data-layer error), which only happens once the record itself was found.
 */

const SINGLE_RECORD_WRITES: ReadonlySet<string> = new Set(['update', 'delete']);

/** Failures that come after ZenStack found the record (a missing one answers 404 first). */
const REVEALING_FAILURES: ReadonlySet<string> = new Set(['policy', 'not-found', 'orm', 'unique']);

type FindUnique = (args: unknown) => Promise<unknown>;

/**
 * Whether update data writes nothing: no field, or only relations left without an operation (a relation
 * `set` that changes nothing the user sees is rewritten to `{}`), with empty lists of operations
 * (`update: []`, `createMany: { data: [] }`), a to-one `disconnect: false`, `delete: false` or empty `update`, or with to-many `disconnect`s that name no record the user
 * can see (each filter given one that matches nothing by `hidden-nested.ts`).
 */
function writesNothing(call: PreparedCall, data: unknown): boolean {
    if (!isPlainObject(data)) return false;
    return Object.entries(data).every(([key, ops]) => {
        const relation = call.model.relations.get(key);
        return relation !== undefined && isPlainObject(ops) && Object.entries(ops).every(([action, value]) => doesNothing(call, relation, action, value));
    });
}

/**
 * A relation's operation that changes nothing (to-one: `disconnect: false`, `delete: false`, an `update` with
 * empty data of a model without `@updatedAt` fields, which the ORM would set).
 */
function doesNothing(call: PreparedCall, relation: RelationField, action: string, value: unknown): boolean {
    if (!relation.isArray) {
        if (action === 'update') return updatesNothing(call, relation, value);
        return (action === 'disconnect' || action === 'delete') && value === false;
    }
    if (Array.isArray(value) && value.length === 0) return true;
    if (action === 'createMany') return isPlainObject(value) && Array.isArray(value.data) && value.data.length === 0;
    return action === 'disconnect' && unlinksNothing(call, relation, value);
}

function updatesNothing(call: PreparedCall, relation: RelationField, value: unknown): boolean {
    const target = call.registry.find(relation.targetName);
    if (!target || target.updatedAtFields.length > 0) return false;
    const data = toOneData(target, value);
    return isPlainObject(data) && Object.keys(data).length === 0;
}

/** A to-many `disconnect` all of whose filters match nothing (`matchingNothing` of `write-walk.ts` among their `AND`). */
function unlinksNothing(call: PreparedCall, relation: RelationField, value: unknown): boolean {
    const target = call.registry.find(relation.targetName);
    if (!target || target.idFields.length === 0 || (!Array.isArray(value) && !isPlainObject(value))) return false;
    return many(value).every((item) => isPlainObject(item) && many(item.AND).some((c) => isMatchingNothing(target, c)));
}

/** Whether the failure of `call`, sent as `args`, could reveal that a record the user cannot read exists. */
function mayRevealHiddenRecord(call: PreparedCall, args: Args, err: unknown): boolean {
    if (!SINGLE_RECORD_WRITES.has(call.op.name)) return false;
    const kind = classifyError(err).kind;
    // a nested write's failure (a nested record not found, a data-layer error such as P2014) comes only once the
    // record itself is found: for a missing one the answer is the 404, whatever the nested writes
    if (REVEALING_FAILURES.has(kind)) return true;
    // nothing was written: the answer must not differ from a missing record's
    return kind === 'not-readable' && call.op.name === 'update' && writesNothing(call, args.data);
}

/** Whether `call` (an `update` or `delete` naming its record) is one whose failure `hideUnreadableTarget` may hide. */
export function namesOneRecord(call: PreparedCall): boolean {
    return SINGLE_RECORD_WRITES.has(call.op.name) && hasOwn(call.args, 'where') && call.model.idFields.length > 0;
}

/** Whether the user can read the record `call` names, looked up on `client`; `undefined` when that cannot be told. */
export async function targetVisible(client: unknown, call: PreparedCall): Promise<boolean | undefined> {
    const delegate = (client as Record<string, Record<string, unknown> | undefined>)[call.model.key];
    const findUnique = delegate?.findUnique as FindUnique | undefined;
    if (typeof findUnique !== 'function') return undefined;
    try {
        return !!(await findUnique.call(delegate, { where: call.args.where, select: idSelect(call.model) }));
    } catch (err) {
        // the check is best effort: the original answer stands; but a statement the database refused (a value it cannot
        // take) has aborted a PostgreSQL transaction, and is the answer itself
        if (failedInDatabase(err)) throw err;
        return undefined;
    }
}

/**
 * The 404 a missing record of `call` gets, when its failure `err` concerns a record the user cannot read;
 * otherwise `err`. `args` are the arguments the client got (after the handler's rewrites). `visibleBefore` is
 * whether the user could read the record just before the write, when it was looked up then (in a PostgreSQL
 * transaction, which the failure aborts: no look is possible after it); otherwise it is looked up now.
 */
export async function hideUnreadableTarget(client: unknown, call: PreparedCall, args: Args, err: unknown, visibleBefore?: boolean): Promise<unknown> {
    if (!mayRevealHiddenRecord(call, args, err) || !namesOneRecord(call)) return err;
    // a look-up the database refuses after the failure leaves the failure's own answer
    const visible = visibleBefore ?? (await targetVisible(client, call).catch(() => undefined));
    return visible === false ? new RecordNotFoundError(`entity not found for model ${call.model.key}`) : err;
}
