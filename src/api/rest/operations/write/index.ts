// Owned by the REST writes work: each export serves one write route (see ../../router.ts).
import type { Response } from '../../../../types';
import { RestError } from '../../errors';
import type { RestRequest } from '../../request';

const pending = async (_req: RestRequest): Promise<Response> => {
    throw new RestError('invalid-verb', 'not implemented yet');
};

export const createResource = pending;
export const updateResource = pending;
export const deleteResource = pending;
export const addToRelationship = pending;
export const replaceRelationship = pending;
export const removeFromRelationship = pending;
