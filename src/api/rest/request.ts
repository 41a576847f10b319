import type { DbClientContract, ZodSchemas } from '@zenstackhq/runtime';
import type { LoggerConfig } from '../../types';
import type { RestConfig } from './options';
import type { RestModel, RestRelationship, RestSchema } from './schema';

/** The kinds of path the JSON:API handler serves. */
export type RouteKind =
    | 'collection' // /:type
    | 'resource' // /:type/:id
    | 'related' // /:type/:id/:relationship
    | 'relatedById' // /:type/:id/:relationship/:relatedId
    | 'relationship'; // /:type/:id/relationships/:relationship

export interface RouteMatch {
    kind: RouteKind;
    model: RestModel;
    /** Raw id segment (URL-decoded), for every kind but `collection`. */
    id?: string;
    relationship?: RestRelationship;
    relatedId?: string;
}

/** One request, routed: what every REST operation receives. */
export interface RestRequest {
    /** Upper-case HTTP method. */
    method: string;
    route: RouteMatch;
    /** The path as received (for links). */
    path: string;
    query: Record<string, string | string[]>;
    body: unknown;
    prisma: DbClientContract;
    schema: RestSchema;
    config: RestConfig;
    logger: LoggerConfig | null | undefined;
    zodSchemas?: ZodSchemas;
}
