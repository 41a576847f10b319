import type { NextApiRequest, NextApiResponse } from 'next';
import type { NextRequest, NextResponse } from 'next/server';
import AppRouteHandler from './app-route-handler';
import PagesRouteHandler from './pages-route-handler';
import type { AppRouteContext, AppRouteRequestHandlerOptions, PagesRouteRequestHandlerOptions } from './options';

export type { AppRouteContext, AppRouteRequestHandlerOptions, PagesRouteRequestHandlerOptions } from './options';
export type { PagesRouteRequestHandlerOptions as RequestHandlerOptions } from './options';

/**
 * Creates a Next.js API handler: an App Router route handler with `useAppDir: true`, else a Pages
 * Router API route. Mount it on a catch-all route named `[...path]`.
 */
export function NextRequestHandler(options: PagesRouteRequestHandlerOptions): (req: NextApiRequest, res: NextApiResponse) => Promise<void>;
export function NextRequestHandler(options: AppRouteRequestHandlerOptions): (req: NextRequest, context: AppRouteContext) => Promise<NextResponse>;
export function NextRequestHandler(options: PagesRouteRequestHandlerOptions | AppRouteRequestHandlerOptions) {
    return options?.useAppDir === true ? AppRouteHandler(options) : PagesRouteHandler(options as PagesRouteRequestHandlerOptions);
}

export { AppRouteHandler, PagesRouteHandler };
export default NextRequestHandler;
