import type { Response } from '../../types';
import { RestError } from './errors';
import * as read from './operations/read';
import * as write from './operations/write';
import type { RestRequest, RouteKind, RouteMatch } from './request';
import type { RestSchema } from './schema';

type Operation = (req: RestRequest) => Promise<Response>;

/** Route kind × method → operation. PUT and PATCH are the same (spec §4 rule 1). */
const ROUTES: Record<RouteKind, Partial<Record<string, Operation>>> = {
    collection: { GET: read.listResources, POST: write.createResource },
    resource: { GET: read.fetchResource, PATCH: write.updateResource, PUT: write.updateResource, DELETE: write.deleteResource },
    related: { GET: read.fetchRelated, PATCH: write.replaceRelationship, PUT: write.replaceRelationship },
    relatedById: { GET: read.fetchRelatedById },
    relationship: {
        GET: read.fetchRelationship,
        POST: write.addToRelationship,
        PATCH: write.replaceRelationship,
        PUT: write.replaceRelationship,
        DELETE: write.removeFromRelationship,
    },
};

function decodeSegment(segment: string): string {
    try {
        return decodeURIComponent(segment);
    } catch {
        throw new RestError('invalid-path', 'the request path is not valid percent-encoding');
    }
}

const SLASH = 47;

/**
 * Splits and decodes a path; tolerates slashes before and after it (`//post/1/`), not an empty segment between
 * two others (`/post//comments`, an id left empty): dropping it would shift the segments after it into other
 * roles (`comments` read as the id). With `allowed` (from `urlSegmentCharset`), every segment as sent, still
 * percent-encoded, must match it.
 */
export function splitPath(path: string, allowed?: RegExp): string[] {
    const out: string[] = [];
    // trimmed by index: a regular expression anchored at the end rescans every run of slashes (quadratic)
    let start = 0;
    let end = path.length;
    while (start < end && path.charCodeAt(start) === SLASH) start++;
    while (end > start && path.charCodeAt(end - 1) === SLASH) end--;
    const parts = path.slice(start, end).split('/');
    for (const part of parts) {
        if (part.length === 0) {
            if (parts.length === 1) continue;
            throw new RestError('invalid-path', 'the request path has an empty segment (two slashes in a row)');
        }
        if (allowed && !allowed.test(part)) {
            throw new RestError('invalid-path', 'the request path has a segment with characters this API does not allow');
        }
        out.push(decodeSegment(part));
    }
    return out;
}

/** Resolves a path to a route; throws RestError for unknown types, relationships and shapes. */
export function matchRoute(schema: RestSchema, path: string, allowed?: RegExp): RouteMatch {
    const segments = splitPath(path, allowed);
    if (segments.length === 0 || segments.length > 4) {
        throw new RestError('invalid-path', 'the path must be /:type, /:type/:id, /:type/:id/:relationship or /:type/:id/relationships/:relationship');
    }
    const [type, id] = segments;
    const model = schema.bySegment.get(type);
    if (!model) {
        if (schema.unidentified.has(type)) {
            throw new RestError('unsupported-model', `model "${type}" has no @id or @unique field that every record has, so its records cannot be JSON:API resources (read it through the RPC handler)`);
        }
        throw new RestError('unsupported-model', `model "${type}" does not exist`);
    }
    if (segments.length === 1) {
        return { kind: 'collection', model };
    }
    if (segments.length === 2) {
        return { kind: 'resource', model, id };
    }
    if (segments[2] === 'relationships' && segments.length === 4) {
        const relationship = model.relationships.get(segments[3]);
        if (!relationship) {
            throw new RestError('unsupported-relationship', `relationship "${segments[3]}" does not exist on "${model.type}"`);
        }
        return { kind: 'relationship', model, id, relationship };
    }
    const relationship = model.relationships.get(segments[2]);
    if (!relationship) {
        throw new RestError('unsupported-relationship', `relationship "${segments[2]}" does not exist on "${model.type}"`);
    }
    if (segments.length === 3) {
        return { kind: 'related', model, id, relationship };
    }
    return { kind: 'relatedById', model, id, relationship, relatedId: segments[3] };
}

/** The operation serving a route and method, or a RestError. */
export function selectOperation(route: RouteMatch, method: string): Operation {
    const op = ROUTES[route.kind][method];
    if (!op) {
        throw new RestError('invalid-verb', `${method} is not supported on this path`);
    }
    return op;
}
