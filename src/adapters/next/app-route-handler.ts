import { NextResponse, type NextRequest } from 'next/server';
import { pathnameOf, serveFetchRequest } from '../fetch/serve';
import { requireFunction, resolveAdapter } from '../shared/options';
import { pathFromRestParam } from '../shared/request';
import type { AppRouteContext, AppRouteRequestHandlerOptions } from './options';
import { restParam } from './params';

/**
 * An App Router route handler for a catch-all route (`app/api/model/[...path]/route.ts`); export it as
 * every method: `export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE }`.
 * It answers with a `NextResponse` (as `@zenstackhq/server` does), so a wrapping route can still use
 * `res.cookies` on it.
 */
export default function factory(options: AppRouteRequestHandlerOptions): (req: NextRequest, context: AppRouteContext) => Promise<NextResponse> {
    requireFunction(options?.getPrisma, 'getPrisma', 'NextRequestHandler');
    const adapter = resolveAdapter(options, 'NextRequestHandler');
    return async (req, context) => {
        const params = await context?.params;
        const path = pathFromRestParam(pathnameOf(req), restParam(params));
        const res = await serveFetchRequest(adapter, req, { path, getPrisma: () => options.getPrisma(req) });
        return new NextResponse(res.body, { status: res.status, headers: res.headers });
    };
}
