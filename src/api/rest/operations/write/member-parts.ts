import { isObject } from '../../payload/pointer';
import type { RestModel } from '../../schema';

/**
 * Long member lists in parts, on SQLite. Prisma finds the records a nested `connect` or `disconnect` names with one
 * statement whose filter is an `OR` of one term per member; SQLite takes an expression at most 1,000 deep (and Prisma
 * 999 query parameters per statement, unless the adapter declares more: `withTransactionCleanup` does), so 1,000
 * members (as many as a request may name) were a 400 (`P2029`, or SQLite's "Expression tree is too large") however
 * the rules stood: the members of a many-to-many relationship, and the others still linked one by one
 * (members-at-once.ts lists them). Where a list is longer than a part, the update is made as several updates of the
 * record in its transaction, the first ones holding only parts of the member lists and the last one the rest of the
 * data, so that the answer is the last one's read-back. Elsewhere (PostgreSQL takes 32,766 parameters) nothing is
 * split: each part is checked by the same rules, but a post-update rule of the record is then checked after each
 * part rather than once.
 */

type Data = Record<string, unknown>;

/** Query parameters (and `OR` terms) one part may use: under Prisma's default 999 and SQLite's depth of 1,000, with room for the rules' own. */
const PARAMETERS = 800;

/** Members per part for `target`: every id field of a member is a parameter. */
export function partSize(target: RestModel): number {
    return Math.max(1, Math.floor(PARAMETERS / Math.max(1, target.idFields.length)));
}

/** Whether `provider` bounds a statement's parameters tightly enough for member lists to be sent in parts. */
export function splitsMemberLists(provider: string): boolean {
    return provider === 'sqlite';
}

/** `list` in consecutive parts of at most `size` items. */
export function inParts<T>(list: readonly T[], size: number): T[][] {
    const out: T[][] = [];
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out;
}

const VERBS = ['disconnect', 'connect'] as const;

/**
 * `data` of an update of a `model` record as updates to make one after the other: relation-only data for the parts
 * of its to-many `connect`/`disconnect` lists beyond one part, then `data` with the rest. Just `[data]` when no list is
 * longer than a part.
 */
export function updatesInParts(model: RestModel, data: Data): Data[] {
    const first: Data[] = [];
    let last: Data | undefined;
    for (const [name, op] of Object.entries(data)) {
        const rel = model.relationships.get(name);
        if (!rel?.isArray || !isObject(op)) continue;
        const size = partSize(rel.target);
        for (const verb of VERBS) {
            const list = op[verb];
            if (!Array.isArray(list) || list.length <= size) continue;
            const parts = inParts(list, size);
            const rest = parts.pop()!;
            for (const part of parts) first.push({ [name]: { [verb]: part } });
            last ??= { ...data };
            last[name] = { ...(last[name] as Data), [verb]: rest };
        }
    }
    return last ? [...first, last] : [data];
}
