// Owned by the REST reads work: each export serves one read route (see ../../router.ts).
import type { Response } from '../../../../types';
import { RestError } from '../../errors';
import type { RestRequest } from '../../request';

const pending = async (_req: RestRequest): Promise<Response> => {
    throw new RestError('invalid-verb', 'not implemented yet');
};

export const listResources = pending;
export const fetchResource = pending;
export const fetchRelated = pending;
export const fetchRelatedById = pending;
export const fetchRelationship = pending;
