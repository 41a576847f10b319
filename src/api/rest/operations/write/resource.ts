import type { Response } from '../../../../types';
import { RestError } from '../../errors';
import { whereById } from '../../ids';
import { idFieldValues } from '../../payload/document';
import type { RestRequest } from '../../request';
import { renderResourceDocument } from '../read';
import { parseNoQuery } from '../../query/read-query';
import { projectionFor, type Projection } from '../../query/select';
import type { RestModel } from '../../schema';
import type { ResourceWrite } from '../../payload';
import type { CrudContract } from '@zenstackhq/runtime';
import { transactionKeepingWrites } from '../../../common/transactions';
import { ownerLinksAsForeignKeys, withLinkConflicts, writesOwnedLinksAsKeys } from './one-to-one';
import { delegateOf, explainFailure, guardedWrite, othersThanCreated } from './guard';
import { prepare, selfLink } from './prepare';
import { checkLinks, linksUnguarded } from './self-many-to-many';
import { updateRecord } from './replace';
import { readUpsertMeta, upsertResource } from './upsert';
import { concreteTypesFor, deleteThroughConcrete, refuseBaseLinks, updateThroughConcrete } from './delegate-writes';

/** POST /:type (create, or upsert with `meta.operation`), PATCH|PUT /:type/:id, DELETE /:type/:id. */

export async function createResource(req: RestRequest): Promise<Response> {
    const matchFields = readUpsertMeta(req.body);
    if (matchFields) return upsertResource(req, matchFields);
    const model = req.route.model;
    const { write, query, invalid } = prepare(req, model, 'create');
    if (invalid) return invalid;
    refuseBaseLinks(req, model, write.data, write.linkPointers);
    // the write's own read-back (under the policy) is the record of the response document
    const projection = projectionFor(model, query.include, query.fields, req.config);
    const created: Record<string, unknown> = await guardedWrite(req, { model, identifiers: othersThanCreated(model, write.data, write.identifiers) }, () =>
        writesOwnedLinksAsKeys(model, write.data) || linksUnguarded(req, model, 'create', { data: write.data })
            ? createWithKeys(req, model, write, projection)
            : delegateOf(req, model).create({ data: write.data, ...projection }),
    );
    const res = await renderResourceDocument(req, model, created, query, 201);
    return { ...res, headers: { ...res.headers, Location: selfLink(res, model, created, req.config.idDivider) } };
}

/**
 * A create whose owner-side links are written as foreign keys after a policy read of each target (one-to-one.ts),
 * and whose links through a self-relation many-to-many are checked first (self-many-to-many.ts).
 */
function createWithKeys(req: RestRequest, model: RestModel, write: ResourceWrite, projection: Projection): Promise<Record<string, unknown>> {
    return withLinkConflicts(model, write.data, write.linkPointers, () =>
        transactionKeepingWrites(req.prisma, async (t) => {
            const tx = t as CrudContract;
            const data = await ownerLinksAsForeignKeys(tx, model, write.data, write.linkPointers, req.config.idDivider);
            await checkLinks(req, tx, model, 'create', { data });
            return (await tx[model.key].create({ data, ...projection })) as Record<string, unknown>;
        }),
    );
}

export async function updateResource(req: RestRequest): Promise<Response> {
    const { model, id } = req.route;
    const where = whereById(model, id, req.config.idDivider);
    const { write, query, invalid } = prepare(req, model, 'update', where);
    if (invalid) return invalid;
    refuseBaseLinks(req, model, write.data, write.linkPointers);
    const projection = projectionFor(model, query.include, query.fields, req.config);
    const update = (target: RestModel, targetWhere: Record<string, unknown>) =>
        updateRecord(req, { model: target, where: targetWhere, id, identifiers: write.identifiers, linkPointers: write.linkPointers }, write.data, projection);
    // a @@delegate base type whose concrete types have update rules of their own: through the record's concrete type
    const updated = await updateThroughConcrete(req, model, where, update);
    return renderResourceDocument(req, model, updated, query, 200);
}

export async function deleteResource(req: RestRequest): Promise<Response> {
    const { model, id } = req.route;
    parseNoQuery(req); // a DELETE takes no parameters: a filter or anything else is a 400, not ignored
    const where = whereById(model, id, req.config.idDivider);
    // deleteMany applies the delete policy as a filter and needs no read-back, so a record that may
    // be deleted but not read is deleted; nothing deleted means missing (404) or denied (403)
    // a model without any delete rule makes deleteMany throw at once: explained like any denial (404 when unreadable)
    // a @@delegate base type whose concrete types have delete rules of their own: through each of them
    const targets = concreteTypesFor(req, model, 'delete') ?? [model];
    const { count } = await guardedWrite(req, { model, where, id, identifiers: [], severalSteps: targets.length > 1 }, () =>
        deleteThroughConcrete(req, targets, idFieldValues(model, where)),
    );
    if (count === 0) {
        const explained = await explainFailure(req, { model, where, id, identifiers: [] });
        throw explained ?? new RestError('forbidden', 'denied by access policy', { ormCode: 'P2004', reason: 'ACCESS_POLICY_VIOLATION' });
    }
    return { status: 204, body: undefined };
}
