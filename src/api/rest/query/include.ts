import { RestError } from '../errors';
import type { RestModel, RestRelationship } from '../schema';
import type { IncludeTree } from './types';

type MutableTree = Map<string, MutableTree>;

function invalid(detail: string): RestError {
    return new RestError('invalid-include', detail, { source: { parameter: 'include' } });
}

/** An include tree, and how many records it may reach from each record it hangs from (see `parseInclude`). */
export interface ParsedInclude {
    tree: IncludeTree;
    /**
     * The most records per record of the primary data that the included relationships may hold more than once: summed
     * over the tree's relationships reached through a shared one (see `shares`), the product of the caps on the way to
     * each (`toManyCap` for a to-many one, 1 for a to-one one; the first relationship's cap is `firstCap` when given).
     */
    reach: number;
}

/**
 * Whether different parents may reach the same record through `rel`: a to-one relationship of a one-to-many relation
 * (the posts of a page share their author) or a many-to-many one. From then on a path may hold a record once per
 * parent: `author.posts` holds each post of an author once for each of the author's posts on the page. Through the
 * others (the to-many side of a one-to-many relation, either side of a one-to-one one) every record has one parent,
 * so what they hold is the data itself, at most once per path.
 */
function shares(rel: RestRelationship): boolean {
    return rel.isArray ? rel.field.manyToMany : !rel.field.oneToOne;
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
    // the records each node's relationship may hold per primary record, and whether a record may be there more than once
    const reachOf = new Map<MutableTree, number>([[root, 1]]);
    const shared = new Set<MutableTree>();
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
                if (shared.has(node) || shares(rel)) {
                    shared.add(child);
                    reach += records;
                }
                node.set(name, child);
            }
            node = child;
            current = rel.target;
        }
    }
    return { tree: root, reach };
}

/**
 * A 400 when a read of `primary` records (a page, or one resource) whose includes may hold `reach` records more than
 * once for each may hold more than `max` such records at worst. Prisma builds a record once per parent that reaches
 * it: `/post?include=author.posts.author.posts&page[limit]=1000` (56 bytes) is 10 million records, which made the
 * server hold 2.8 GB while answering with 600 KB. Unbounded reads (`pageSize: Infinity`) are not checked.
 */
export function checkIncludedRecords(primary: number, reach: number, max: number): void {
    const records = primary * reach;
    if (records > max && Number.isFinite(records)) {
        throw invalid(
            `this read may hold up to ${records} records through include paths that can reach a record more than once (from a ` +
                'to-one or many-to-many relationship on, each to-many relationship up to the page size plus one per record); ' +
                `the limit is ${max} (see the "maxIncludedRecords" option): include fewer or shallower paths, or ask for a smaller page[limit]`,
        );
    }
}
