import type { CrudContract } from '@zenstackhq/runtime';
import { isNotReadable } from '../../../common/transactions';
import { RestError } from '../../errors';
import { idSelect } from '../../ids';
import { isObject } from '../../payload/pointer';
import type { RestModel } from '../../schema';

/**
 * ZenStack 2.x cannot run a nested `disconnect` of records with a compound id: it turns their compound key
 * (`{ row_num: { row, num } }`) into a filter the ORM refuses ("needs at least one of `row_num`"), so such
 * members could not be removed from a to-many relationship, nor left out of a replacement. They are detached
 * by an update of each member instead, in the transaction of the write: ZenStack checks it under the member's
 * update rule, as it checks a nested disconnect. A member whose link is required cannot be detached (400).
 */

type Data = Record<string, unknown>;

function requiredLink(rel: string, target: RestModel): RestError {
    return new RestError('orm-error', `a ${target.type} of "${rel}" cannot be detached: its link is required`, { ormCode: 'P2014' });
}

/** Detaches the compound-id members `data` disconnects (see above) and returns the data without those disconnects. */
export async function detachCompoundMembers(tx: CrudContract, model: RestModel, data: Data): Promise<Data> {
    let out = data;
    for (const [name, op] of Object.entries(data)) {
        const rel = model.relationships.get(name);
        if (!rel?.isArray || rel.target.idFields.length < 2 || !isObject(op) || !Array.isArray(op.disconnect)) continue;
        // the member holds the foreign key (Prisma's implicit many-to-many takes single-field ids only)
        const back = rel.field.backLink ? rel.target.def.relations.get(rel.field.backLink) : undefined;
        if (!back || back.isArray) continue;
        if (!back.isOptional) throw requiredLink(name, rel.target);
        for (const member of op.disconnect as Data[]) {
            try {
                await tx[rel.target.key].update({ where: member, data: { [back.name]: { disconnect: true } }, select: idSelect(rel.target) });
            } catch (err) {
                // detached, but no longer readable by the user (it was readable through the relationship): done
                if (!isNotReadable(err)) throw err;
            }
        }
        const rest: Data = { ...op };
        delete rest.disconnect;
        if (out === data) out = { ...data };
        if (Object.keys(rest).length > 0) out[name] = rest;
        else delete out[name];
    }
    return out;
}
