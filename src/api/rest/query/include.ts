import { RestError } from '../errors';
import type { RestModel } from '../schema';
import type { IncludeTree } from './types';

type MutableTree = Map<string, MutableTree>;

function invalid(detail: string): RestError {
    return new RestError('invalid-include', detail, { source: { parameter: 'include' } });
}

/** An include tree, and how many records it may reach from each record it hangs from (see `parseInclude`). */
export interface ParsedInclude {
    tree: IncludeTree;
    /**
     * The most records the included relationships may hold per record of the primary data: summed over the tree's
     * relationships, the product of the caps on the way to each (`toManyCap` for a to-many one, 1 for a to-one one;
     * the first relationship's cap is `firstCap` when given).
     */
    reach: number;
}

/**
 * Parses `include=a,b.c` against the relationships of `model`; unknown paths, empty paths in a list (`a,`) and paths
 * deeper than `maxDepth` are 400. An empty value is an empty tree: JSON:API 1.1 reads it as "no related resources",
 * in a compound document all the same (an empty `included`). `toManyCap`: the records read per parent through an
 * included to-many relationship (`pageSize + 1`); `firstCap` overrides it for the relationships at the top.
 */
export function parseInclude(model: RestModel, text: string, maxDepth: number, toManyCap: number, firstCap = toManyCap): ParsedInclude {
    const root: MutableTree = new Map();
    let reach = 0;
    if (text.trim().length === 0) return { tree: root, reach };
    // the records each node's relationship may hold per primary record
    const reachOf = new Map<MutableTree, number>([[root, 1]]);
    for (const raw of text.split(',')) {
        const path = raw.trim();
        if (path.length === 0) {
            throw invalid('empty relationship path in "include"');
        }
        const names = path.split('.');
        if (names.length > maxDepth) {
            throw invalid(`include path "${path}" is deeper than the limit of ${maxDepth} relationships`);
        }
        let current = model;
        let node = root;
        for (const name of names) {
            const rel = current.relationships.get(name);
            if (!rel) {
                throw invalid(`"${name}" in include path "${path}" is not a relationship of "${current.type}"`);
            }
            let child = node.get(name);
            if (!child) {
                child = new Map();
                const records = reachOf.get(node)! * (rel.isArray ? (node === root ? firstCap : toManyCap) : 1);
                reachOf.set(child, records);
                reach += records;
                node.set(name, child);
            }
            node = child;
            current = rel.target;
        }
    }
    return { tree: root, reach };
}

/**
 * A 400 when a read of `primary` records (a page, or one resource) with includes reaching `reach` records from each
 * may hold more than `max` records at worst. Prisma builds every record once per path that reaches it, a record
 * reached again through a cycle too: `/post?include=author.posts.author.posts&page[limit]=1000` (56 bytes) is 10
 * million records, which made the server hold 2.8 GB while answering with 600 KB. Unbounded reads (`pageSize:
 * Infinity`) are not checked.
 */
export function checkIncludedRecords(primary: number, reach: number, max: number): void {
    const records = primary * (1 + reach);
    if (records > max && Number.isFinite(records)) {
        throw invalid(
            `this read may hold up to ${records} records through its page and include paths (each to-many relationship up to ` +
                `the page size plus one per record); the limit is ${max} (see the "maxIncludedRecords" option): include fewer ` +
                'or shallower paths, or ask for a smaller page[limit]',
        );
    }
}
