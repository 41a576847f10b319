/**
 * Serialization paths that recur in every answer (`0.createdAt` … `999.createdAt` of a page of rows,
 * `data.3.attributes.createdAt` of a JSON:API page), each built once for the life of the process.
 *
 * A path is a property name of `meta.serialization.values`, and V8 keeps property names in its string
 * table: a freshly built path is a new string and a new entry there, one per tagged value and answer. A
 * path taken from here is built once and found in the table. Measured on pages of 1,000 rows, this and
 * the encoders' other allocation cuts are what brought RPC findMany of 1,000 rows to the floor's CPU time.
 * Indexes past `MAX_INDEX` and prefixes or suffixes past `MAX_NAMES` per table are built per call, which
 * bounds the memory held here (about 40 KB per path pattern in use).
 */

const MAX_INDEX = 1000;
const MAX_NAMES = 256;

/** `<prefix><index><suffix>` strings by prefix, then suffix, then index. */
export class IndexedPaths {
    private readonly byPrefix = new Map<string, Map<string, string[]>>();

    /** `prefix + index + suffix`, from the table when `index` is a small non-negative integer. */
    get(prefix: string, index: number, suffix: string): string {
        if (!(index >= 0 && index < MAX_INDEX && Number.isInteger(index))) return prefix + index + suffix;
        let bySuffix = this.byPrefix.get(prefix);
        if (!bySuffix) {
            if (this.byPrefix.size >= MAX_NAMES) return prefix + index + suffix;
            bySuffix = new Map();
            this.byPrefix.set(prefix, bySuffix);
        }
        let paths = bySuffix.get(suffix);
        if (!paths) {
            if (bySuffix.size >= MAX_NAMES) return prefix + index + suffix;
            paths = [];
            bySuffix.set(suffix, paths);
        }
        let path = paths[index];
        if (path === undefined) {
            while (paths.length < index) paths.push(prefix + paths.length + suffix);
            path = prefix + index + suffix;
            paths[index] = path;
        }
        return path;
    }
}

/** The table shared by both handlers. */
export const indexedPaths = new IndexedPaths();
