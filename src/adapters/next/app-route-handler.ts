import { NextResponse, type NextRequest } from 'next/server';
import { pathnameOf, serveFetchRequest, unmatchedPathResponse } from '../fetch/serve';
import { requireFunction, resolveAdapter } from '../shared/options';
import { restParamPath } from '../shared/request';
import type { AppRouteContext, AppRouteRequestHandlerOptions } from './options';
import { restParam } from './params';

/** The `digest` codes of the errors Next.js throws as control flow (see `unstable_rethrow` in `next/navigation`). */
const NEXT_CONTROL_FLOW = new Set([
    'NEXT_REDIRECT', // redirect(), permanentRedirect()
    'NEXT_HTTP_ERROR_FALLBACK', // notFound(), forbidden(), unauthorized() (Next.js 15)
    'NEXT_NOT_FOUND', // notFound() (Next.js 13, 14)
    'DYNAMIC_SERVER_USAGE', // headers(), cookies() … during static rendering
    'BAILOUT_TO_CLIENT_SIDE_RENDERING',
    'HANGING_PROMISE_REJECTION',
    'NEXT_PRERENDER_INTERRUPTED',
]);
const REACT_POSTPONE = Symbol.for('react.postpone');

/**
 * An error Next.js throws to take over the request (`redirect()`, `notFound()` … from `next/navigation`, a bail
 * out of static rendering): thrown from getPrisma it goes back to Next.js, which answers it (307 and `Location`,
 * the not-found page …), as 2.x lets it. Recognised by its `digest`, as Next.js itself does.
 */
function isNextControlFlow(err: unknown): boolean {
    if (typeof err !== 'object' || err === null) {
        return false;
    }
    const { digest, $$typeof } = err as { digest?: unknown; $$typeof?: unknown };
    return (typeof digest === 'string' && NEXT_CONTROL_FLOW.has(digest.split(';')[0])) || $$typeof === REACT_POSTPONE;
}

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
        const path = restParamPath(pathnameOf(req), restParam(params));
        const res = path === undefined ? unmatchedPathResponse(adapter) : await serveFetchRequest(adapter, req, { path, rethrow: isNextControlFlow, getPrisma: () => options.getPrisma(req) });
        return new NextResponse(res.body, { status: res.status, headers: res.headers });
    };
}
