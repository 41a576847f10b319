import { RestError } from '../errors';
import type { RestModel } from '../schema';
import { idOrder } from './select';

const UNSORTABLE = new Set(['Json', 'Bytes', 'Unsupported']);

function invalid(detail: string): RestError {
    return new RestError('invalid-sort', detail, { source: { parameter: 'sort' } });
}

/**
 * `sort=f1,-f2,author.name` → Prisma `orderBy`: fields of the model (ids included), descending with
 * a leading `-`, through to-one relationships with dots. The id fields are appended as a tie-breaker
 * so that pages are stable.
 */
export function parseSort(model: RestModel, text: string | undefined): Array<Record<string, unknown>> {
    if (text === undefined) {
        return idOrder(model);
    }
    const orderBy: Array<Record<string, unknown>> = [];
    const used = new Set<string>();
    for (const raw of text.split(',')) {
        const item = raw.trim();
        if (item.length === 0) {
            throw invalid('empty field name in "sort"');
        }
        const desc = item.startsWith('-');
        const path = (desc ? item.slice(1) : item).split('.');
        let current = model;
        const chain: string[] = [];
        for (let i = 0; i < path.length; i++) {
            const name = path[i];
            const last = i === path.length - 1;
            const field = current.def.fields.get(name);
            if (!field) {
                throw invalid(`"${name}" in sort "${item}" is not a field of "${current.type}"`);
            }
            if ('targetKey' in field) {
                const rel = current.relationships.get(name);
                if (last || !rel || rel.isArray) {
                    throw invalid(`sort "${item}": "${name}" is a ${field.isArray ? 'to-many ' : ''}relationship; sort by a field${field.isArray ? ' of a to-one relationship' : ` of it (${name}.field)`}`);
                }
                if (field.readProtected) {
                    throw invalid(`sort "${item}": "${name}" cannot be sorted through, reading it is restricted by the access policy`);
                }
                chain.push(name);
                current = rel.target;
            } else {
                if (!last) {
                    throw invalid(`sort "${item}": "${name}" is not a relationship`);
                }
                if (UNSORTABLE.has(field.kind) || field.isArray) {
                    throw invalid(`sort "${item}": fields of type ${field.type}${field.isArray ? '[]' : ''} cannot be sorted`);
                }
                if (field.omitted) {
                    throw invalid(`"${name}" in sort "${item}" is not a field of "${current.type}"`);
                }
                // ZenStack guards filters on fields with field-level read rules, not ordering: the order would leak
                if (field.readProtected) {
                    throw invalid(`sort "${item}": "${name}" cannot be sorted, reading it is restricted by the access policy`);
                }
                chain.push(name);
            }
        }
        if (chain.length === 1) used.add(chain[0]);
        let order: unknown = desc ? 'desc' : 'asc';
        for (let i = chain.length - 1; i >= 0; i--) order = { [chain[i]]: order };
        orderBy.push(order as Record<string, unknown>);
    }
    for (const f of model.idFields) {
        if (!used.has(f.name)) orderBy.push({ [f.name]: 'asc' });
    }
    return orderBy;
}
