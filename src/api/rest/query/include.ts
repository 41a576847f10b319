import { RestError } from '../errors';
import type { RestModel } from '../schema';
import type { IncludeTree } from './types';

type MutableTree = Map<string, MutableTree>;

function invalid(detail: string): RestError {
    return new RestError('invalid-include', detail, { source: { parameter: 'include' } });
}

/**
 * Parses `include=a,b.c` against the relationships of `model`; unknown paths, empty paths in a list (`a,`) and paths
 * deeper than `maxDepth` are 400. An empty value is an empty tree: JSON:API 1.1 reads it as "no related resources",
 * in a compound document all the same (an empty `included`).
 */
export function parseInclude(model: RestModel, text: string, maxDepth: number): IncludeTree {
    const root: MutableTree = new Map();
    if (text.trim().length === 0) return root;
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
                node.set(name, child);
            }
            node = child;
            current = rel.target;
        }
    }
    return root;
}
