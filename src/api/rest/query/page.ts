import { INT32_MAX } from '../../common/guards';
import { RestError } from '../errors';
import type { RestConfig } from '../options';
import type { PageQuery } from './types';

const DIGITS = /^\d+$/;

function integer(parameter: string, raw: string): number {
    const text = raw.trim();
    const n = Number(text);
    if (!DIGITS.test(text) || !Number.isSafeInteger(n)) {
        throw new RestError('invalid-page', `${parameter} must be a non-negative integer, got "${raw}"`, { source: { parameter } });
    }
    return n;
}

/** `page[offset]` / `page[limit]` → skip/take; defaults from `pageSize`, capped by `maxPageSize`. */
export function parsePage(page: { offset?: string; limit?: string }, config: RestConfig): PageQuery {
    const offset = page.offset === undefined ? 0 : integer('page[offset]', page.offset);
    // Prisma's query compiler wraps `skip` to 32 bits: a larger offset would start the page near the beginning
    if (offset > INT32_MAX) {
        throw new RestError('invalid-page', `page[offset] must not exceed ${INT32_MAX}`, { source: { parameter: 'page[offset]' } });
    }
    if (page.limit === undefined) {
        return { offset, limit: config.pageSize, explicitLimit: false };
    }
    const limit = integer('page[limit]', page.limit);
    if (limit === 0) {
        throw new RestError('invalid-page', 'page[limit] must be at least 1', { source: { parameter: 'page[limit]' } });
    }
    if (limit > config.maxPageSize) {
        throw new RestError('invalid-page', `page[limit] must not exceed ${config.maxPageSize}`, { source: { parameter: 'page[limit]' } });
    }
    return { offset, limit, explicitLimit: true };
}

/** Prisma `skip`/`take` of a page. */
export function pageArgs(page: PageQuery): { skip?: number; take?: number } {
    const args: { skip?: number; take?: number } = {};
    if (page.offset > 0) args.skip = page.offset;
    if (Number.isFinite(page.limit)) args.take = page.limit;
    return args;
}
