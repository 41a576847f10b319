import { CodecError, getPathParts, isDecimal, isForbiddenPath, PathWriter, splitPath } from './codec';
import { isPlainObject } from './guards';

/**
 * superjson's `referentialEqualities`: `{ "<path>": ["<path>", …] }`, the places that hold the same value
 * (object, array, Date …) as the first one. A client made with `new SuperJSON({ dedupe: true })` sends that value
 * once and `null` in the other places; superjson (and so `@zenstackhq/server` 2.x, RPC and REST) puts it back
 * there. Without dedupe every place carries its own copy, and restoring changes nothing.
 */

/**
 * How many values the restored places may hold together. A few hundred bytes of paths naming one large value
 * would otherwise multiply it into a tree far larger than any body limit lets in (and ZenStack and Prisma copy
 * and walk every place again); a real client repeats a Date or a small filter.
 */
export const MAX_RESTORED_VALUES = 100_000;

/**
 * How much text (characters of strings and keys, bytes, digits of decimals) the restored places may hold together:
 * as much as a body of the adapters' default limit (1 MiB) carries without dedupe. The count of values alone let
 * one long string multiply: a 500 KB string named by 8,000 places (a 275 KB body) made 4 GB of arguments for the
 * ORM to write out, and the request ended in a 500 after seconds of CPU (a 143 KB body was stored as 200 MB).
 */
export const MAX_RESTORED_TEXT = 1024 * 1024;

interface Budget {
    left: number;
    text: number;
    /** Hears of each list copied, with the key that holds it. */
    listed?: (key: string, items: number) => void;
}

/** The text a value restored in one more place adds (what the ORM writes out for it). */
function textOf(value: unknown): number {
    if (typeof value === 'string') return value.length;
    if (value instanceof Uint8Array) return value.byteLength;
    if (isDecimal(value)) return value.valueOf().length + Math.abs(value.e);
    return 0;
}

function spend(budget: Budget, text: number): void {
    budget.text -= text;
    if (budget.text < 0) {
        throw new CodecError(`"referentialEqualities" would restore more than ${MAX_RESTORED_TEXT} characters of text`);
    }
}

/**
 * A copy of arrays and object literals (typed values, such as Dates, are shared): every place gets its own tree.
 * `levels` is how deep the copy may nest below its place: a value copied into a place inside a copy of itself
 * would otherwise double the depth with every entry (and this recursion, and the ORM's, overflow the stack).
 */
function copyTree(value: unknown, budget: Budget, levels: number, key: string): unknown {
    if (--budget.left < 0) {
        throw new CodecError(`"referentialEqualities" would restore more than ${MAX_RESTORED_VALUES} values`);
    }
    const nested = Array.isArray(value) || isPlainObject(value);
    if (nested && levels <= 0) {
        throw new CodecError('"referentialEqualities" would nest the arguments deeper than they may be');
    }
    if (Array.isArray(value)) {
        budget.listed?.(key, value.length);
        return value.map((item, i) => copyTree(item, budget, levels - 1, String(i)));
    }
    if (isPlainObject(value)) {
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(value)) {
            spend(budget, k.length);
            out[k] = copyTree(value[k], budget, levels - 1, k);
        }
        return out;
    }
    spend(budget, textOf(value));
    return value;
}

function checkPath(path: string): void {
    if (isForbiddenPath(path)) {
        throw new CodecError(`forbidden path "${path}" in referentialEqualities`, path);
    }
}

/**
 * Restores the places `refs` lists from their first place, after the typed values are decoded. Every path must
 * name a value of `root` (the repeated places hold `null`, or a copy), and no restored place may nest deeper
 * than `maxDepth` levels below `root` (the depth the caller allows its input); `copied` hears of each place
 * restored, `listed` of each list in the copies, with the key holding it (the place's own last key for a list
 * placed whole). Failures are CodecErrors (400s).
 */
export function applyReferentialEqualities<T>(
    root: T,
    refs: unknown,
    maxDepth: number,
    copied?: (source: string, target: string) => void,
    listed?: (key: string, items: number) => void,
): T {
    if (refs === undefined || refs === null) return root;
    if (!isPlainObject(refs)) {
        throw new CodecError('invalid serialization metadata: "referentialEqualities" must be an object of paths');
    }
    // every place is written through one writer: a large array holding many places is copied once, not once per place
    const writer = new PathWriter(root);
    const budget: Budget = { left: MAX_RESTORED_VALUES, text: MAX_RESTORED_TEXT, listed };
    for (const [source, targets] of Object.entries(refs)) {
        if (!Array.isArray(targets) || !targets.every((t) => typeof t === 'string')) {
            throw new CodecError(`invalid serialization metadata: referentialEqualities of "${source}" must be a list of paths`, source);
        }
        checkPath(source);
        // split once: a long source (a key of 100 KB) split again for each of its places cost their product
        const sourceParts = splitPath(source);
        if (getPathParts(writer.root, sourceParts) === undefined) {
            throw new CodecError(`serialization path "${source}" does not match a value`, source);
        }
        for (const target of targets as string[]) {
            checkPath(target);
            // read for each place: the value as the places restored so far left it (one may lie under the source)
            const value = getPathParts(writer.root, sourceParts);
            if (value === undefined) {
                throw new CodecError(`serialization path "${source}" does not match a value`, source);
            }
            const parts = splitPath(target);
            if (getPathParts(writer.root, parts) === undefined) {
                throw new CodecError(`serialization path "${target}" does not match a value`, target);
            }
            writer.set(target, copyTree(value, budget, maxDepth - parts.length, parts[parts.length - 1] ?? ''), parts);
            copied?.(source, target);
        }
    }
    return writer.root as T;
}
