import type { DbClientContract } from '@zenstackhq/runtime';
import { RestApiHandler } from '../../../src/api/rest';
import { RPCApiHandler } from '../../../src/api/rpc';
import type { Response } from '../../../src/types';
import type { TestSchema } from '../../support/schema';

/** One request with a body, straight to a handler, over a client the test opened itself (hooked, or on its own pool). */
export type DirectCall = (s: TestSchema, prisma: DbClientContract, method: string, path: string, requestBody: unknown) => Promise<Response>;

export const rpcDirect: DirectCall = (s, prisma, method, path, requestBody) =>
    RPCApiHandler()({ method, path, query: {}, requestBody, prisma, modelMeta: s.modelMeta, logger: null });

export const restDirect: DirectCall = (s, prisma, method, path, requestBody) =>
    RestApiHandler({ endpoint: 'http://localhost/api' })({ method, path, query: {}, requestBody, prisma, modelMeta: s.modelMeta, logger: null });
