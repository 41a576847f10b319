import type { DbOperations } from '@zenstackhq/runtime';
import { classifyError } from '../../../common/errors';
import { isMissingReference, mayRerun, rerunning } from '../../../common/rerun';
import { RestError } from '../../errors';
import { formatId, idSelect } from '../../ids';
import { idFieldValues } from '../../payload/document';
import { idValuesKey, type ResolvedIdentifier } from '../../payload/identifiers';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';

/**
 * Runs one write and, only when the access policy denies it, a record is missing or a unique constraint
 * is violated, finds out why with reads under the same policy: a target record the user cannot see is a
 * 404 (never a 403 or 409 that would reveal it exists), as is a related record named in the body (with a
 * pointer). Any other denial keeps its 403, any other unique violation its 409. A write that succeeded but whose result cannot be read back
 * (RESULT_NOT_READABLE) is reported as it is: the write is kept; unless it changed nothing, when
 * the record it names may be one the user cannot see (then a 404 too).
 */

export function delegateOf(req: RestRequest, model: RestModel): DbOperations {
    return req.prisma[model.key];
}

/** The 404 for the record a URL names. */
export function resourceNotFound(model: RestModel, id: string | undefined): RestError {
    return new RestError('not-found', id === undefined ? `${model.type} not found` : `${model.type} "${id}" not found`);
}

async function missingIdentifier(req: RestRequest, identifiers: readonly ResolvedIdentifier[]): Promise<ResolvedIdentifier | undefined> {
    const byTarget = new Map<RestModel, ResolvedIdentifier[]>();
    for (const id of identifiers) {
        const list = byTarget.get(id.target) ?? [];
        list.push(id);
        byTarget.set(id.target, list);
    }
    for (const [target, ids] of byTarget) {
        const rows: Record<string, unknown>[] = await delegateOf(req, target).findMany({
            where: { OR: ids.map((i) => idFieldValues(target, i.where)) },
            select: idSelect(target),
        });
        const seen = new Set(rows.map((r) => idValuesKey(target, r)));
        const missing = ids.find((i) => !seen.has(idValuesKey(target, idFieldValues(target, i.where))));
        if (missing) return missing;
    }
    return undefined;
}

/**
 * The identifiers of a create without those naming the record it creates (a record linked to itself through a
 * relation of its own model): that one is not there before the write, and its absence explains no failure.
 */
export function othersThanCreated(model: RestModel, data: Record<string, unknown>, identifiers: readonly ResolvedIdentifier[]): readonly ResolvedIdentifier[] {
    if (!model.idFields.every((f) => data[f.name] !== undefined && data[f.name] !== null)) return identifiers;
    const created = idValuesKey(model, data);
    return identifiers.filter((i) => i.target !== model || idValuesKey(model, idFieldValues(model, i.where)) !== created);
}

export interface WriteTarget {
    model: RestModel;
    /** The record the URL names (update, delete, relationship writes). */
    where?: Record<string, unknown>;
    /** Its raw id, for messages. */
    id?: string;
    /** Records the body names (connect / set / disconnect). */
    identifiers: readonly ResolvedIdentifier[];
    /** Where the body changes each relationship (relation name → pointer), for conflicts found while writing. */
    linkPointers?: Readonly<Record<string, string>>;
    /**
     * The write changes nothing (an update without attributes or relationships): ZenStack then checks no
     * update rule and answers RESULT_NOT_READABLE for a record the user cannot read, which is explained too.
     */
    noChange?: boolean;
    /**
     * The write is several ORM calls outside one transaction (a delete through each concrete type of a base type): not
     * run again after a deadlock, as an earlier call of it may have committed. Any other write is one call or one transaction.
     */
    severalSteps?: boolean;
}

/** Explains a failed write: a 404 when the target or a named related record is not visible, else undefined. */
export async function explainFailure(req: RestRequest, target: WriteTarget): Promise<RestError | undefined> {
    if (target.where) {
        const found = await delegateOf(req, target.model).findUnique({ where: target.where, select: idSelect(target.model) });
        if (!found) return resourceNotFound(target.model, target.id);
    }
    const missing = await missingIdentifier(req, target.identifiers);
    if (missing) {
        const id = formatId(missing.target, idFieldValues(missing.target, missing.where), req.config.idDivider);
        return new RestError('not-found', `related ${missing.target.type} "${id}" not found`, { source: { pointer: missing.pointer } });
    }
    return undefined;
}

/** Runs `write`; on a policy denial or a missing record, replaces the error with a precise 404 when there is one. */
export async function guardedWrite<T>(req: RestRequest, target: WriteTarget, write: () => Promise<T>): Promise<T> {
    try {
        // a whole write runs again after losing to a concurrent transaction (a deadlock; rerun.ts)
        return await (target.severalSteps || !mayRerun(req.prisma) ? write() : rerunning(write));
    } catch (err) {
        const kind = classifyError(err).kind;
        // a unique violation too: the colliding row shows that a related record the user cannot see exists
        // (a create in another user's hidden project that reuses a task number of it), where any other
        // failure naming that record answers the 404 of a missing one; and a foreign key of the written row naming
        // no row: a related record the body names was deleted after the handler or ZenStack found it, answered as a
        // record that was never there is. Only when the body names records: a delete of a record others still
        // reference is no missing reference, and stays a 400 whatever language the database reports it in
        const missingReference = target.identifiers.length > 0 && isMissingReference(err);
        if (kind === 'policy' || kind === 'not-found' || kind === 'unique' || (kind === 'not-readable' && target.noChange) || missingReference) {
            let explained: RestError | undefined;
            try {
                explained = await explainFailure(req, target);
            } catch {
                explained = undefined; // the diagnosis is best effort: report the original error
            }
            if (explained) throw explained;
        }
        throw err;
    }
}
