import type { NextRequest } from 'next/server';
import { pathnameOf, serveFetchRequest } from '../fetch/serve';
import { requireFunction, resolveAdapter } from '../shared/options';
import { pathFromRestParam } from '../shared/request';
import { restParam, type AppRouteContext, type AppRouteRequestHandlerOptions } from './options';

/**
 * An App Router route handler for a catch-all route (`app/api/model/[...path]/route.ts`); export it as
 * every method: `export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE }`.
 */
export default function factory(options: AppRouteRequestHandlerOptions): (req: NextRequest, context: AppRouteContext) => Promise<Response> {
    requireFunction(options?.getPrisma, 'getPrisma', 'NextRequestHandler');
    const adapter = resolveAdapter(options, 'NextRequestHandler');
    return async (req, context) => {
        const params = await context?.params;
        const path = pathFromRestParam(pathnameOf(req), restParam(params));
        return serveFetchRequest(adapter, req, { path, getPrisma: () => options.getPrisma(req) });
    };
}
