import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderAdapterError } from '../shared/errors';
import { requireFunction, resolveAdapter, type CommonAdapterOptions } from '../shared/options';
import { normalizePrefix, splitUrl, stripPrefix } from '../shared/request';
import { serveNodeRequest, writeNodeResponse } from './serve';

export { handleNodeRequest, writeNodeResponse, serveNodeRequest, type NodeRequestInput, type FrameworkSend } from './serve';
export { readNodeBody, isBodyConsumed, type NodeRequest } from './body';
export type { CommonAdapterOptions } from '../shared/options';

/** Options of the Node.js (`node:http`) adapter. */
export interface NodeHandlerOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for a request, e.g. `enhance(prisma, { user: await getUser(req) })`. */
    getPrisma: (req: IncomingMessage, res: ServerResponse) => unknown | Promise<unknown>;
    /** The mount point stripped from the URL path, e.g. `/api/model` (default: none). */
    prefix?: string;
}

/**
 * A `(req, res, next?) => Promise<void>` request listener serving the API on Node's `http` module (and
 * Connect-style routers). Outside `prefix`, it calls `next()` when given one, else answers 404.
 */
export function createNodeHandler(
    options: NodeHandlerOptions,
): (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => Promise<void> {
    requireFunction(options?.getPrisma, 'getPrisma', 'createNodeHandler');
    const adapter = resolveAdapter(options, 'createNodeHandler');
    const prefix = normalizePrefix(options.prefix);
    return async (req, res, next) => {
        const { pathname, search } = splitUrl(req.url ?? '/');
        const path = stripPrefix(pathname, prefix);
        if (path === undefined) {
            if (next) {
                next();
            } else {
                writeNodeResponse(adapter, res, renderAdapterError(adapter.handler, 404, `no API route at this path (the API is mounted at ${prefix})`));
            }
            return;
        }
        await serveNodeRequest(adapter, req, res, { path, search, getPrisma: () => options.getPrisma(req, res) });
    };
}

export default createNodeHandler;
