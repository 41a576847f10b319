import type { CrudContract, DbOperations } from '@zenstackhq/runtime';
import type { Response } from '../../../../types';
import { JSONAPI_HEADERS, RestError } from '../../errors';
import type { RestRequest } from '../../request';
import type { RestModel } from '../../schema';
import { readConsistently } from '../../../common/snapshot-read';
import type { PageQuery } from '../../query/types';

/** Helpers shared by the read operations. */

export function delegate(db: CrudContract, model: RestModel): DbOperations {
    return db[model.key];
}

export function ok(body: unknown, status = 200): Response {
    return { status, body, headers: JSONAPI_HEADERS };
}

export function notFound(model: RestModel, id: string | number | undefined): RestError {
    return new RestError('not-found', id === undefined ? `${model.type} not found` : `${model.type} "${id}" not found`);
}

/**
 * Reads a page and the total under the same filter and policy, consistently. When the page is not
 * full the total follows from it (offset + rows), so the count query is skipped; otherwise both are
 * read as one snapshot (`readConsistently`: in one transaction, or on SQLite between two probes that
 * prove nothing was committed meanwhile). Without a page limit and offset, one query is all it takes.
 */
export async function readPage<T>(
    req: RestRequest,
    page: PageQuery,
    fetch: (db: CrudContract) => Promise<T>,
    rowsOf: (result: T) => readonly unknown[],
    count: (db: CrudContract) => Promise<number>,
): Promise<{ result: T; total: number }> {
    if (!Number.isFinite(page.limit) && page.offset === 0) {
        const result = await fetch(req.prisma);
        return { result, total: rowsOf(result).length };
    }
    const read = async (db: CrudContract) => {
        const result = await fetch(db);
        const n = rowsOf(result).length;
        const full = n >= page.limit || (n === 0 && page.offset > 0);
        return { result, total: full ? await count(db) : page.offset + n };
    };
    return readConsistently(req.prisma, read);
}
