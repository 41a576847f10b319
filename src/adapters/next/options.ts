import type { NextApiRequest, NextApiResponse } from 'next';
import type { NextRequest } from 'next/server';
import type { CommonAdapterOptions } from '../shared/options';

/** Options of a Pages Router API route (`pages/api/model/[...path].ts`). */
export interface PagesRouteRequestHandlerOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: await getSessionUser(req, res) })`. */
    getPrisma: (req: NextApiRequest, res: NextApiResponse) => unknown | Promise<unknown>;
    /** Pages Router (the default). */
    useAppDir?: false | undefined;
}

/** Options of an App Router route handler (`app/api/model/[...path]/route.ts`). */
export interface AppRouteRequestHandlerOptions extends CommonAdapterOptions {
    /** Returns the enhanced client for the request, e.g. `enhance(prisma, { user: await auth() })`. */
    getPrisma: (req: NextRequest) => unknown | Promise<unknown>;
    /** App Router. */
    useAppDir: true;
}

/** Route parameters of the catch-all segment. */
export type RouteParams = Record<string, string | string[] | undefined>;
/**
 * The second argument of an App Router route handler. Typed as Next.js 15+ declares it (a Promise, which
 * its build-time route check insists on); a plain object, as Next.js 13/14 pass it, works too at run time.
 */
export interface AppRouteContext {
    params: Promise<RouteParams>;
}
