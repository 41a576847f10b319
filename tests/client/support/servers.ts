import express from 'express';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { ZenStackMiddleware as UpstreamMiddleware } from '@zenstackhq/server/express';
import { RPCApiHandler as UpstreamRPCApiHandler } from '@zenstackhq/server/api/rpc';
import { ZenStackMiddleware } from '../../../src/adapters/express';
import { RPCApiHandler } from '../../../src/api/rpc';
import { loadSchema, type TestSchema } from '../../support/schema';
import { SILENT_LOGGER } from '../../compat/sides';

/**
 * Two real HTTP servers for the generated client hooks to talk to: ours and `@zenstackhq/server` 2.22.3, each
 * its Express adapter with its RPC handler, behind an app-wide `express.json()` (the set-up 2.x's Express
 * adapter requires), each on its own identically seeded SQLite database. The user is the `x-user-id` header,
 * standing in for a session.
 */

export const USER_HEADER = 'x-user-id';

/** Where the hooks' endpoint lies on each server: the hooks' default path, and one validating with zod. */
export const PLAIN_PATH = '/api/model';
export const VALIDATED_PATH = '/api/validated';

export interface ClientServer {
    name: 'ours' | 'upstream';
    s: TestSchema;
    /** `http://127.0.0.1:<port>` */
    origin: string;
    close: () => Promise<void>;
}

function listen(app: express.Express): Promise<http.Server> {
    return new Promise((resolve) => {
        const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
}

async function start(name: ClientServer['name'], seed: (s: TestSchema) => Promise<void>, zmodel?: string): Promise<ClientServer> {
    const s = await loadSchema(zmodel);
    await seed(s);
    const getPrisma = (req: express.Request) => {
        const user = req.header(USER_HEADER);
        return s.enhance(user ? { id: Number(user) } : undefined);
    };
    const common = { getPrisma, modelMeta: s.modelMeta, logger: SILENT_LOGGER };
    const app = express();
    app.use(express.json());
    if (name === 'ours') {
        app.use(PLAIN_PATH, ZenStackMiddleware({ ...common, handler: RPCApiHandler() }));
        app.use(VALIDATED_PATH, ZenStackMiddleware({ ...common, handler: RPCApiHandler(), zodSchemas: s.zodSchemas }));
    } else {
        app.use(PLAIN_PATH, UpstreamMiddleware({ ...common, handler: UpstreamRPCApiHandler() } as never));
        app.use(VALIDATED_PATH, UpstreamMiddleware({ ...common, handler: UpstreamRPCApiHandler(), zodSchemas: s.zodSchemas } as never));
    }
    const server = await listen(app);
    const { port } = server.address() as AddressInfo;
    return {
        name,
        s,
        origin: `http://127.0.0.1:${port}`,
        close: async () => {
            await new Promise<void>((resolve) => server.close(() => resolve()));
            await s.cleanup();
        },
    };
}

/** Ours and 2.22.3's server, started for the enclosing `describe` and seeded alike (the blog schema unless `zmodel` is given). */
export function clientServers(seed: (s: TestSchema) => Promise<void>, zmodel?: string): { ours: () => ClientServer; upstream: () => ClientServer } {
    const started: Partial<Record<ClientServer['name'], ClientServer>> = {};
    beforeAll(async () => {
        started.ours = await start('ours', seed, zmodel);
        started.upstream = await start('upstream', seed, zmodel);
    });
    afterAll(async () => {
        await started.ours?.close();
        await started.upstream?.close();
    });
    return { ours: () => started.ours as ClientServer, upstream: () => started.upstream as ClientServer };
}

/** The `fetch` an app hands the hooks' provider: the browser's, with the session (here: the user header). */
export function userFetch(user: number | undefined): (url: string, init?: RequestInit) => Promise<Response> {
    return (url, init) => {
        const headers = new Headers(init?.headers);
        if (user !== undefined) headers.set(USER_HEADER, String(user));
        return fetch(url, { ...init, headers });
    };
}
