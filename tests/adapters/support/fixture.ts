import type { DbClientContract } from '@zenstackhq/runtime';
import { RPCApiHandler } from '../../../src/api/rpc';
import { RestApiHandler } from '../../../src/api/rest';
import type { HandleRequestFn, LoggerConfig } from '../../../src/types';
import { loadSchema, type TestSchema } from '../../support/schema';

/** Where every test app mounts the two handlers, and the REST endpoint they advertise. */
export const RPC_PREFIX = '/api/rpc';
export const REST_PREFIX = '/api/rest';
export const REST_ENDPOINT = `http://localhost${REST_PREFIX}`;
/** A small limit so that the 413 path is cheap to exercise. */
export const BODY_LIMIT = 16 * 1024;
/** Below Node's own 16 KiB header limit, so that the adapter (not the HTTP server) answers. */
export const QUERY_LIMIT = 2 * 1024;

/** The header test clients use to say who they are (a stand-in for a session cookie or a JWT). */
export const USER_HEADER = 'x-user-id';

/** An error an application's auth layer might throw, carrying an HTTP status. */
export class UnauthorizedError extends Error {
    readonly status = 401;
    constructor() {
        super('invalid credentials');
        this.name = 'UnauthorizedError';
    }
}

/** The application's own "try again later" (e.g. its session store is down), thrown by its auth. */
export class MaintenanceError extends Error {
    readonly status = 503;
    readonly expose = true;
    constructor() {
        super('down for maintenance');
        this.name = 'MaintenanceError';
    }
}

/** What each adapter test receives to build its app. */
export interface AdapterFixture {
    schema: TestSchema;
    /** The per-request client, from the value of the user header (as an app's auth would do). */
    getPrisma: (userHeader: string | null | undefined) => DbClientContract | undefined;
    rpc: HandleRequestFn;
    rest: HandleRequestFn;
    /** Common adapter options: silent logger (captured), small body limit. */
    common: { logger: LoggerConfig; bodyLimit: number; queryLimit: number; modelMeta: TestSchema['modelMeta']; zodSchemas: TestSchema['zodSchemas'] };
    /** What the adapters logged at level error. */
    errors: string[];
}

/**
 * Maps the user header to a client: a number is a signed-in user, `invalid` makes the app's auth throw
 * a 401, `maintenance` a 503, `crash` makes it throw an unexpected error (carrying a secret that must not leak), `none`
 * makes it return nothing (a misconfigured `getPrisma`); absent means anonymous.
 */
export function userClient(schema: TestSchema, header: string | null | undefined): DbClientContract | undefined {
    if (header === 'invalid') {
        throw new UnauthorizedError();
    }
    if (header === 'maintenance') {
        throw new MaintenanceError();
    }
    if (header === 'crash') {
        throw new Error('database password is hunter2');
    }
    if (header === 'none') {
        return undefined;
    }
    return schema.enhance(header ? { id: Number(header) } : undefined);
}

export async function createFixture(): Promise<AdapterFixture> {
    const schema = await loadSchema();
    const errors: string[] = [];
    return {
        schema,
        getPrisma: (header) => userClient(schema, header),
        rpc: RPCApiHandler(),
        rest: RestApiHandler({ endpoint: REST_ENDPOINT }),
        common: {
            logger: { error: (message) => errors.push(message) },
            bodyLimit: BODY_LIMIT,
            queryLimit: QUERY_LIMIT,
            modelMeta: schema.modelMeta,
            zodSchemas: schema.zodSchemas,
        },
        errors,
    };
}

/** Reads a single-valued header from a Node or Fetch-style header bag. */
export function headerOf(headers: Record<string, string | string[] | undefined> | Headers, name: string): string | undefined {
    if (typeof (headers as Headers).get === 'function') {
        return (headers as Headers).get(name) ?? undefined;
    }
    const value = (headers as Record<string, string | string[] | undefined>)[name];
    return Array.isArray(value) ? value[0] : value;
}
