import type { NextApiRequest, NextApiResponse } from 'next';
import { serveNodeRequest, writeNodeResponse, type FrameworkSend } from '../node/serve';
import { renderAdapterError } from '../shared/errors';
import { requireFunction, resolveAdapter } from '../shared/options';
import { UNMATCHED_PATH_MESSAGE, restParamPath, splitUrl } from '../shared/request';
import type { PagesRouteRequestHandlerOptions, RouteParams } from './options';
import { pagesRestParam } from './params';

/**
 * Next.js's `res.send`, for its ETag and 304 to a matching `If-None-Match`. Given text, it leaves the content type
 * as it is (an object would be made `application/json; charset=utf-8`). A stand-in response without it (an app's unit
 * test) is written to directly.
 */
function nextSend(req: NextApiRequest, res: NextApiResponse): FrameworkSend | undefined {
    return typeof res.send === 'function' ? { method: req.method, send: (body) => res.send(body) } : undefined;
}

/**
 * A Pages Router API route for a catch-all route (`pages/api/model/[...path].ts`). Next.js parses JSON
 * bodies itself and answers a malformed one with its own plain-text 400; to get the API's error format,
 * turn its parser off (`export const config = { api: { bodyParser: false } }`): the adapter reads the body.
 */
export default function factory(options: PagesRouteRequestHandlerOptions): (req: NextApiRequest, res: NextApiResponse) => Promise<void> {
    requireFunction(options?.getPrisma, 'getPrisma', 'NextRequestHandler');
    const adapter = resolveAdapter(options, 'NextRequestHandler');
    return async (req, res) => {
        // The query string is parsed from the URL: `req.query` mixes it with the route parameters.
        const { pathname, search } = splitUrl(req.url ?? '/');
        const path = restParamPath(pathname, pagesRestParam(req.query as RouteParams, pathname, search));
        if (path === undefined) {
            writeNodeResponse(adapter, res, renderAdapterError(adapter.handler, 400, UNMATCHED_PATH_MESSAGE));
            return;
        }
        await serveNodeRequest(adapter, req, res, { path, search, getPrisma: () => options.getPrisma(req, res) }, nextSend(req, res));
    };
}
