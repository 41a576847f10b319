import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ZenStackMiddleware } from '../../../src/adapters/express';
import { RestApiHandler } from '../../../src/api/rest';
import { RPCApiHandler } from '../../../src/api/rpc';
import type { LoggerConfig } from '../../../src/types';
import type { TestSchema } from '../../support/schema';

/** The header the test app takes its user from (a test stand-in for a session). */
export const USER_HEADER = 'x-user-id';
export const RPC_BASE = '/api/rpc';
export const REST_BASE = '/api/rest';

export interface RunningApi {
    /** `http://127.0.0.1:<port>` */
    origin: string;
    /** Everything the handlers logged (errors of unavailable databases and unexpected failures). */
    logs: string[];
    close(): Promise<void>;
}

/** A logger that keeps every line, so that tests can look at what a client did not see. */
export function memoryLogger(lines: string[]): LoggerConfig {
    const keep = (message: string, code?: string) => {
        lines.push(code ? `${code}: ${message}` : message);
    };
    return { error: keep, warn: keep, info: keep };
}

/**
 * Serves both handlers through the Express adapter on a free loopback port, the way an application
 * would: one raw client for the process (`client`, default the schema's), enhanced per request for
 * the user named by the `x-user-id` header.
 */
export async function startApi(schema: TestSchema, client: unknown = schema.prisma): Promise<RunningApi> {
    const logs: string[] = [];
    const logger = memoryLogger(logs);
    const getPrisma = (req: express.Request) => {
        const raw = req.header(USER_HEADER);
        return schema.enhanceClient(client, raw && /^\d+$/.test(raw) ? { id: Number(raw) } : undefined);
    };
    const common = { getPrisma, logger, modelMeta: schema.modelMeta, zodSchemas: schema.zodSchemas };
    const app = express();
    app.use(RPC_BASE, ZenStackMiddleware({ ...common, handler: RPCApiHandler() }));
    const server: Server = await new Promise((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app.use(REST_BASE, ZenStackMiddleware({ ...common, handler: RestApiHandler({ endpoint: `${origin}${REST_BASE}` }) }));
    return {
        origin,
        logs,
        close: () =>
            new Promise<void>((resolve) => {
                server.close(() => resolve());
                server.closeAllConnections();
            }),
    };
}
