import { hasOwn, isObject } from '../common/guards';
import { anyReadProtected, coveredConstraints, type ModelDef } from '../common/model-registry';
import { checkWhere, each, reject, target, type Walk } from '../common/filter-guard';
import type { Args } from './input';

/**
 * The filters of writes. ZenStack guards a filter on a field with a field-level read rule when it reads,
 * and in `updateMany`/`deleteMany`, but not in the `where` of `update`, `upsert` and `delete`, nor in
 * nested writes (`connect`, `set`, `disconnect`, nested `update`/`upsert`/`delete`/`updateMany`/`deleteMany`,
 * `connectOrCreate`): there, whether the write finds its record (200 against 404, an update against a
 * create) would tell whether a guess of a value the user may not read is right. Such filters are refused
 * with a 400. A protected unique field may still *name* the record (`where: { email }`): it is then the
 * identifier, which a create's unique conflict reveals anyway, not an extra condition.
 */

/** Their `where` is checked here, as a write's filter, and not as a read's. */
export const SINGLE_RECORD_WRITES = new Set(['update', 'upsert', 'delete']);

export function guardWriteFilters(w: Walk, opName: string, args: Args): void {
    if (SINGLE_RECORD_WRITES.has(opName)) checkUniqueWhere(w, args.where);
    checkWriteData(w, args.data);
    checkWriteData(w, args.create);
    checkWriteData(w, args.update);
}

/**
 * A unique `where` (`update`, `connect`, …): protected fields are refused as conditions, but allowed as
 * the identifier when no unprotected unique constraint names the record (then the first covered
 * protected one does).
 */
function checkUniqueWhere(w: Walk, where: unknown): void {
    if (!isObject(where)) return;
    const covered = coveredConstraints(w.model, where);
    const identifier = covered.some((c) => !anyReadProtected(w.model, c.fields)) ? undefined : covered[0];
    for (const c of covered) {
        if (c === identifier || c.fields.length === 1) continue;
        // a compound key given next to another identifier is a condition on its fields
        const field = c.fields.find((f) => w.model.scalars.get(f)?.readProtected);
        if (field) reject(w.model, field, 'filtering a write');
    }
    checkWhere(w, where, 'write', identifier ? new Set([identifier.key]) : undefined);
}

/** The `data` of a create or update, for the filters of its nested writes. */
function checkWriteData(w: Walk, data: unknown): void {
    each(data, (item) => {
        if (!isObject(item)) return;
        for (const [key, value] of Object.entries(item)) {
            const rel = w.model.relations.get(key);
            const next = rel && target(w, rel);
            if (!rel || !next || !isObject(value)) continue;
            for (const [action, payload] of Object.entries(value)) {
                each(payload, (p) => checkNestedWrite(next, rel.isArray, action, p));
            }
        }
    });
}

/** A to-one nested `update` is either its data or `{ where?, data }`. */
function isWhereAndData(model: ModelDef, p: Record<string, unknown>): boolean {
    return hasOwn(p, 'data') && !model.fields.has('data') && Object.keys(p).every((k) => k === 'where' || k === 'data');
}

function checkNestedWrite(next: Walk, toMany: boolean, action: string, p: unknown): void {
    // a to-many relation names its records by unique wheres; a to-one one filters its single record
    const checkTarget = (where: unknown) => (toMany ? checkUniqueWhere(next, where) : checkWhere(next, where, 'write'));
    switch (action) {
        case 'create':
            checkWriteData(next, p);
            break;
        case 'connect':
        case 'set':
            checkUniqueWhere(next, p);
            break;
        case 'disconnect':
        case 'delete':
            checkTarget(p);
            break;
        case 'deleteMany':
            checkWhere(next, p, 'write');
            break;
        case 'updateMany':
            if (isObject(p)) checkWhere(next, p.where, 'write');
            break;
        case 'connectOrCreate':
            if (!isObject(p)) break;
            checkUniqueWhere(next, p.where);
            checkWriteData(next, p.create);
            break;
        case 'update':
            if (!isObject(p)) break;
            if (toMany || isWhereAndData(next.model, p)) {
                checkTarget(p.where);
                checkWriteData(next, p.data);
            } else {
                checkWriteData(next, p);
            }
            break;
        case 'upsert':
            if (!isObject(p)) break;
            checkTarget(p.where);
            checkWriteData(next, p.create);
            checkWriteData(next, p.update);
            break;
    }
}
