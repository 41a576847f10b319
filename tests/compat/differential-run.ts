import type { HandleRequestFn } from '../../src/types';
import type { TestSchema } from '../support/schema';
import type { Answer, Difference } from './known-differences';
import { SILENT_LOGGER, type Side } from './sides';

/** What the differential tests share: one request to one side, and what differs between two answers that no known difference explains. */

export const ENDPOINT = 'http://localhost/api';
export const RUNS = Number(process.env.DIFF_RUNS ?? 300);
export const SEED = Number(process.env.DIFF_SEED ?? 20240501);

/**
 * The time one property of `runs` generated cases may take (ms): the suite's 120 s, or `perCase` ms a case when
 * DIFF_RUNS asks for more, so that a long exploration on a slow machine ends by what it finds, not by the clock.
 */
export function propertyTimeout(runs: number, perCase: number): number {
    return Math.max(120_000, runs * perCase);
}

export interface Request {
    method: string;
    path: string;
    query?: Record<string, string>;
    body?: unknown;
    /** The user's id (anonymous when absent). */
    user?: number;
    /** Whether the request context carries the schema's zod schemas. */
    zod?: boolean;
}

/** `handler`'s answer to `r` on `side`'s database as user `r.user`, as it goes over the wire. */
export async function answer(handler: HandleRequestFn, side: Side, r: Request): Promise<Answer> {
    const s = side.s as TestSchema;
    const res = await handler({
        method: r.method,
        path: r.path,
        query: r.query ?? {},
        requestBody: r.body,
        prisma: s.enhance(r.user === undefined ? undefined : { id: r.user }),
        modelMeta: s.modelMeta,
        zodSchemas: r.zod ? s.zodSchemas : undefined,
        logger: SILENT_LOGGER,
    });
    return { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null)) };
}

/** What differs between the two answers that no known difference explains (empty when none). */
export function unexplained<R>(differences: Difference<R>[], r: R, ours: Answer, upstream: Answer, compare: () => string[]): string[] {
    if (ours.status >= 500 || upstream.status >= 500) return [`status ${ours.status} | ${upstream.status}: ${JSON.stringify(ours.body).slice(0, 600)} | ${JSON.stringify(upstream.body).slice(0, 600)}`];
    if (ours.status !== upstream.status) {
        return differences.some((d) => d.status?.(r, ours, upstream)) ? [] : [`status ${ours.status} | ${upstream.status}: ${JSON.stringify(ours.body).slice(0, 600)} | ${JSON.stringify(upstream.body).slice(0, 600)}`];
    }
    if (ours.status >= 300 || differences.some((d) => d.data?.(r))) return [];
    return compare();
}
