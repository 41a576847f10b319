import type { RestModel, RestRelationship } from '../schema';
import type { RelationshipLinkage } from './identifiers';
import { hasOwn, payloadError } from './pointer';

/**
 * Relationship linkage → Prisma nested relation writes. Related records are only attached or
 * detached (connect / set / disconnect), never modified otherwise (spec §4 rule 3).
 */

/** What a relationship change does: in a resource create or update, or on a relationship endpoint. */
export type LinkOperation = 'create' | 'update' | 'add' | 'remove';

type Wheres = Record<string, unknown>[];

const TO_MANY: Record<LinkOperation, (wheres: Wheres) => Record<string, unknown> | undefined> = {
    create: (wheres) => (wheres.length > 0 ? { connect: wheres } : undefined),
    update: (wheres) => ({ set: wheres }),
    add: (wheres) => ({ connect: wheres }),
    remove: (wheres) => ({ disconnect: wheres }),
};

/** The nested write for a relationship's linkage, or `undefined` when there is nothing to do. */
export function linkageToPrisma(rel: RestRelationship, linkage: RelationshipLinkage, operation: LinkOperation, pointer: string): Record<string, unknown> | undefined {
    if (Array.isArray(linkage)) {
        if (!rel.isArray) {
            throw payloadError(pointer, `"${rel.name}" is a to-one relationship`);
        }
        return TO_MANY[operation](linkage.map((l) => l.where));
    }
    if (rel.isArray || operation === 'add' || operation === 'remove') {
        throw payloadError(pointer, `"${rel.name}" is a to-many relationship: expected an array of resource identifiers`);
    }
    if (linkage === null) {
        if (!rel.field.isOptional) {
            throw payloadError(pointer, `"${rel.name}" is required and cannot be set to null`);
        }
        return operation === 'create' ? undefined : { disconnect: true };
    }
    return { connect: linkage.where };
}

/** The unique `where` on `target` made of the given field values, when those fields form a unique constraint. */
export function uniqueWhereOf(target: RestModel, values: Record<string, unknown>): Record<string, unknown> | undefined {
    const names = Object.keys(values);
    for (const c of Object.values(target.def.uniqueConstraints)) {
        if (c.fields.length !== names.length || !c.fields.every((f) => hasOwn(values, f))) continue;
        if (c.fields.length === 1) {
            return { [c.fields[0]]: values[c.fields[0]] };
        }
        const compound: Record<string, unknown> = {};
        for (const f of c.fields) compound[f] = values[f];
        return { [c.name]: compound };
    }
    return undefined;
}

export interface ForeignKeyLink {
    /** The foreign-key attributes the operation replaces. */
    foreignKeys: string[];
    operation: Record<string, unknown>;
}

/**
 * Foreign-key attributes sent without their relationship (e.g. `authorId`) become a connect (or,
 * on update, a disconnect for `null`) of the owning relation, which ZenStack policy-checks like any
 * relationship change and which mixes with other nested writes. Returns `undefined` to keep the raw
 * values (not all keys of the relation given, some null, or no matching unique constraint).
 */
export function ownerLinkFromForeignKeys(rel: RestRelationship, values: Record<string, unknown>, mode: 'create' | 'update'): ForeignKeyLink | undefined {
    const mapping = rel.field.isOwner ? rel.field.foreignKeyMapping : undefined;
    if (!mapping) return undefined;
    const entries = Object.entries(mapping);
    if (entries.length === 0 || !entries.every(([, fk]) => hasOwn(values, fk))) return undefined;
    const foreignKeys = entries.map(([, fk]) => fk);
    const nulls = entries.filter(([, fk]) => values[fk] === null).length;
    if (nulls === entries.length) {
        return mode === 'update' && rel.field.isOptional ? { foreignKeys, operation: { disconnect: true } } : undefined;
    }
    if (nulls > 0) return undefined;
    const refs: Record<string, unknown> = {};
    for (const [ref, fk] of entries) refs[ref] = values[fk];
    const unique = uniqueWhereOf(rel.target, refs);
    return unique ? { foreignKeys, operation: { connect: unique } } : undefined;
}
