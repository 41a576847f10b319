/**
 * Serialization paths that recur in every answer (`0.createdAt` … `999.createdAt` of a page of rows,
 * `data.3.attributes.createdAt` of a JSON:API page), each built once for the life of the process.
 *
 * A path is a property name of `meta.serialization.values`, and V8 keeps property names in its string
 * table: a freshly built path is a new string and a new entry there, one per tagged value and answer. A
 * path taken from here is built once and found in the table. Measured on pages of 1,000 rows, this and
 * the encoders' other allocation cuts are what brought RPC findMany of 1,000 rows to the floor's CPU time.
 * Paths with an index past `MAX_INDEX`, and every path once `MAX_KEPT` are kept, are built per call:
 * the table holds at most 50,000 paths, however many field names and answers go through it (measured full:
 * 2 MiB of RPC paths like `999.createdAt12`, 3.2 MiB of JSON:API paths like
 * `included.999.attributes.someFieldName12`; more with longer field names). Nothing in it comes from the
 * request: a prefix (`''`, `data.`, `included.`), a row index and a field name of a result row.
 */

const MAX_INDEX = 1000;
const MAX_KEPT = 50_000;

/** `<prefix><index><suffix>` strings by prefix, then suffix, then index. */
export class IndexedPaths {
    private readonly byPrefix = new Map<string, Map<string, string[]>>();
    private kept = 0;

    /** How many paths the table holds. */
    get size(): number {
        return this.kept;
    }

    /** `prefix + index + suffix`, from the table when `index` is a small non-negative integer. */
    get(prefix: string, index: number, suffix: string): string {
        if (!(index >= 0 && index < MAX_INDEX && Number.isInteger(index))) return prefix + index + suffix;
        const paths = this.byPrefix.get(prefix)?.get(suffix);
        const known = paths?.[index];
        if (known !== undefined) return known;
        // filled up to `index`, the lower indexes included (a page of rows asks for all of them)
        const adding = index + 1 - (paths?.length ?? 0);
        if (this.kept + adding > MAX_KEPT) return prefix + index + suffix;
        const list = paths ?? this.listOf(prefix, suffix);
        while (list.length <= index) list.push(prefix + list.length + suffix);
        this.kept += adding;
        return list[index];
    }

    private listOf(prefix: string, suffix: string): string[] {
        let bySuffix = this.byPrefix.get(prefix);
        if (!bySuffix) {
            bySuffix = new Map();
            this.byPrefix.set(prefix, bySuffix);
        }
        const list: string[] = [];
        bySuffix.set(suffix, list);
        return list;
    }
}

/** The table shared by both handlers. */
export const indexedPaths = new IndexedPaths();
