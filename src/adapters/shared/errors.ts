import type { HandleRequestFn, Response } from '../../types';

/** What the client is told when `getPrisma` gives nothing back: a server configuration problem. */
export const NO_PRISMA_MESSAGE = 'unable to get prisma from request context';
export const INTERNAL_ERROR_MESSAGE = 'an unexpected error occurred';

/** An adapter-detected error rendered in the handler's protocol (see `RenderErrorFn`). */
export function renderAdapterError(handler: HandleRequestFn, status: number, message: string): Response {
    const render = handler.renderError;
    if (typeof render === 'function') {
        try {
            const rendered = render(status, message);
            if (rendered && typeof rendered.status === 'number') {
                return rendered;
            }
        } catch {
            // fall through to the neutral format
        }
    }
    return { status, body: { error: { message } } };
}

function numberIn(value: unknown, min: number, max: number): number | undefined {
    return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

/**
 * The status an application means by what it threw from `getPrisma`: `status`, `statusCode` or
 * `getStatus()` (http-errors, h3, Hono, SvelteKit, NestJS …), if it is a 4xx/5xx; otherwise undefined.
 */
export function statusOfThrown(err: unknown): number | undefined {
    if (typeof err !== 'object' || err === null) {
        return undefined;
    }
    const e = err as { status?: unknown; statusCode?: unknown; getStatus?: unknown };
    const fromMethod = typeof e.getStatus === 'function' ? safeCall(e.getStatus as () => unknown, err) : undefined;
    return numberIn(e.status, 400, 599) ?? numberIn(e.statusCode, 400, 599) ?? numberIn(fromMethod, 400, 599);
}

function safeCall(fn: () => unknown, self: unknown): unknown {
    try {
        return fn.call(self);
    } catch {
        return undefined;
    }
}

/**
 * The client-facing message of an error thrown with a status: its own message for a 4xx (unless it says
 * `expose: false`), the generic one for a 5xx (unless it says `expose: true`), as http-errors does.
 */
export function messageOfThrown(err: unknown, status: number): string {
    const e = err as { message?: unknown; expose?: unknown; body?: { message?: unknown } };
    const expose = typeof e.expose === 'boolean' ? e.expose : status < 500;
    if (!expose) {
        return status >= 500 ? INTERNAL_ERROR_MESSAGE : defaultReason(status);
    }
    const text = typeof e.message === 'string' && e.message ? e.message : typeof e.body?.message === 'string' ? e.body.message : '';
    return text || defaultReason(status);
}

const REASONS: Record<number, string> = {
    400: 'bad request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not found',
    413: 'request body too large',
    429: 'too many requests',
};

function defaultReason(status: number): string {
    return REASONS[status] ?? (status >= 500 ? INTERNAL_ERROR_MESSAGE : 'request rejected');
}
