import { RestError } from '../errors';
import type { RestModel } from '../schema';
import type { FilterParam } from './params';

export interface FilterContext {
    provider: string;
    maxFilters: number;
    enumValues: (enumName: string) => readonly string[] | undefined;
}

/** filter[...] parameters → Prisma `where` (work in progress). */
export function buildFilter(_model: RestModel, filters: readonly FilterParam[], _ctx: FilterContext): Record<string, unknown> | undefined {
    if (filters.length === 0) return undefined;
    throw new RestError('invalid-filter', 'filters are not supported yet', { source: { parameter: filters[0].parameter } });
}
