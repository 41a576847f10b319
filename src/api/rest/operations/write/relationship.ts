import type { Response } from '../../../../types';
import { RestError } from '../../errors';
import { whereById, whereByIdValues } from '../../ids';
import { parseRelationshipWrite } from '../../payload';
import { parseNoQuery } from '../../query/read-query';
import type { RestRequest } from '../../request';
import type { RestRelationship } from '../../schema';
import { relationshipDocument } from '../read';
import { updateRecord } from './replace';
import { refuseBaseLinks, updateThroughConcrete } from './delegate-writes';

/**
 * POST (add), PATCH|PUT (replace) and DELETE (remove) on /:type/:id/relationships/:relationship,
 * and PATCH|PUT on /:type/:id/:relationship for a to-one relationship (spec §4 rule 7). Each is one
 * nested update of the owner record, so it is all-or-nothing; the answer is the relationship document.
 */

type Change = 'add' | 'update' | 'remove';

function relationshipOf(req: RestRequest): RestRelationship {
    const rel = req.route.relationship;
    if (!rel) throw new Error('route without relationship');
    return rel;
}

async function changeRelationship(req: RestRequest, change: Change): Promise<Response> {
    const { model, id } = req.route;
    const rel = relationshipOf(req);
    const where = whereById(model, id, req.config.idDivider);
    const { data, identifiers, linkPointers } = parseRelationshipWrite(rel, req.body, change, req.config.idDivider);
    parseNoQuery(req);
    refuseBaseLinks(req, model, data, linkPointers);
    // of a @@delegate base type whose concrete types have update rules of their own: through the record's concrete type
    const updated = await updateThroughConcrete(req, model, where, (target, targetWhere) =>
        updateRecord(req, { model: target, where: targetWhere, id, identifiers, linkPointers }, data),
    );
    // read back by the id the record has now: a to-one relationship may be part of a compound id
    return relationshipDocument(req, model, whereByIdValues(model, updated), rel, 200);
}

function requireToMany(req: RestRequest, verb: string): void {
    const rel = relationshipOf(req);
    if (!rel.isArray) {
        throw new RestError('invalid-verb', `${verb} applies to to-many relationships only; "${rel.name}" is to-one: replace it with PATCH`);
    }
}

/** POST /:type/:id/relationships/:relationship: adds the identifiers to a to-many relationship. */
export async function addToRelationship(req: RestRequest): Promise<Response> {
    requireToMany(req, 'POST');
    return changeRelationship(req, 'add');
}

/** DELETE /:type/:id/relationships/:relationship: removes the identifiers from a to-many relationship. */
export async function removeFromRelationship(req: RestRequest): Promise<Response> {
    requireToMany(req, 'DELETE');
    return changeRelationship(req, 'remove');
}

/** PATCH|PUT: replaces the relationship entirely (`null` / `[]` clears it). */
export async function replaceRelationship(req: RestRequest): Promise<Response> {
    const rel = relationshipOf(req);
    if (req.route.kind === 'related' && rel.isArray) {
        throw new RestError(
            'invalid-verb',
            `a to-many relationship is replaced at /${req.route.model.segment}/:id/relationships/${rel.name}, not at its related-resources URL`,
        );
    }
    return changeRelationship(req, 'update');
}
