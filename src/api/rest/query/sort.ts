import { RestError } from '../errors';
import type { RestModel } from '../schema';
import { idOrder } from './select';

const UNSORTABLE = new Set(['Json', 'Bytes', 'Unsupported']);

function invalid(detail: string): RestError {
    return new RestError('invalid-sort', detail, { source: { parameter: 'sort' } });
}

/**
 * `sort=f1,-f2,author.name` → Prisma `orderBy`: fields of the model (ids included), descending with
 * a leading `-`, through to-one relationships with dots. A to-one relationship itself (`sort=author`)
 * sorts by the related resource's id, as 2.x does. The id fields are appended as a tie-breaker so
 * that pages are stable. A path goes through at most `maxDepth` relationships, as a filter path does.
 */
export function parseSort(model: RestModel, text: string | undefined, maxDepth: number): Array<Record<string, unknown>> {
    if (text === undefined) {
        return idOrder(model);
    }
    const orderBy: Array<Record<string, unknown>> = [];
    // a field sorted by again orders nothing more: it is left out, so that a 16 KiB `sort=id,id,…` stays one term
    // (4,000 terms made Prisma hold 11 MB compiling them, and SQLite refuse the query); an id field sorted by needs no
    // tie-breaker below
    const sorted = new Set<string>();
    for (const raw of text.split(',')) {
        const item = raw.trim();
        if (item.length === 0) {
            throw invalid('empty field name in "sort"');
        }
        const desc = item.startsWith('-');
        const dir = desc ? 'desc' : 'asc';
        const path = (desc ? item.slice(1) : item).split('.');
        // every relationship on the way is a join, as in a filter path: the same limit (maxIncludeDepth)
        const hops = path.length - 1;
        if (hops > maxDepth) {
            throw invalid(`sort "${item.length > 200 ? `${item.slice(0, 200)}…` : item}" goes through ${hops} relationships; the limit is ${maxDepth} (maxIncludeDepth)`);
        }
        let current = model;
        const chain: string[] = [];
        let toOne = false;
        for (let i = 0; i < path.length; i++) {
            const name = path[i];
            const last = i === path.length - 1;
            const field = current.def.fields.get(name);
            if (!field) {
                throw invalid(`"${name}" in sort "${item}" is not a field of "${current.type}"`);
            }
            if ('targetKey' in field) {
                const rel = current.relationships.get(name);
                if (!rel || rel.isArray) {
                    throw invalid(`sort "${item}": "${name}" is a ${rel ? 'to-many relationship; sort by a field of a to-one relationship' : 'relationship that cannot be sorted by'}`);
                }
                if (field.readProtected) {
                    throw invalid(`sort "${item}": "${name}" cannot be sorted through, reading it is restricted by the access policy`);
                }
                chain.push(name);
                current = rel.target;
                toOne = last;
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
        const key = chain.join('.');
        if (sorted.has(key)) continue;
        sorted.add(key);
        if (toOne) {
            // a to-one relationship itself: by the id of the resource it links to (2.x does the same)
            for (const id of current.idFields) {
                if (id.readProtected) {
                    throw invalid(`sort "${item}": the id of "${current.type}" cannot be sorted, reading it is restricted by the access policy`);
                }
                orderBy.push(nested([...chain, id.name], dir));
            }
            continue;
        }
        orderBy.push(nested(chain, dir));
    }
    for (const f of model.idFields) {
        if (!sorted.has(f.name)) orderBy.push({ [f.name]: 'asc' });
    }
    return orderBy;
}

/** `['author', 'name']`, `'asc'` → `{ author: { name: 'asc' } }`. */
function nested(chain: readonly string[], dir: 'asc' | 'desc'): Record<string, unknown> {
    let order: unknown = dir;
    for (let i = chain.length - 1; i >= 0; i--) order = { [chain[i]]: order };
    return order as Record<string, unknown>;
}
