import { getPath, replacePath } from '../common/codec';
import { BadRequestError } from '../common/errors';
import { isPlainObject, type Args, type JsonNullSlot } from './input';

/**
 * superjson's `referentialEqualities`: `{ "<path>": ["<path>", …] }`, the places that hold the same value
 * (object, array, Date …) as the first one. A client made with `new SuperJSON({ dedupe: true })` sends that value
 * once and `null` in the other places; superjson (and so `@zenstackhq/server` 2.x) puts it back there. Without
 * dedupe every place carries its own copy, and restoring changes nothing.
 */

/**
 * How many values the restored places may hold together. A few hundred bytes of paths naming one large value
 * would otherwise multiply it into a tree far larger than any body limit lets in (and ZenStack and Prisma copy
 * and walk every place again); a real client repeats a Date or a small filter.
 */
export const MAX_RESTORED_VALUES = 100_000;

interface Budget {
    left: number;
}

/** A copy of plain objects and arrays (typed values, such as Dates, are shared): every place gets its own tree. */
function copyTree(value: unknown, budget: Budget): unknown {
    if (--budget.left < 0) {
        throw new BadRequestError(`"referentialEqualities" would restore more than ${MAX_RESTORED_VALUES} values`);
    }
    if (Array.isArray(value)) return value.map((item) => copyTree(item, budget));
    if (isPlainObject(value)) {
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) out[key] = copyTree(value[key], budget);
        return out;
    }
    return value;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function checkPath(path: string): void {
    if (path.split('.').some((k) => FORBIDDEN_KEYS.has(k))) {
        throw new BadRequestError(`forbidden path "${path}" in referentialEqualities`);
    }
}

/**
 * Restores the places `refs` lists from their first place, after the typed values are decoded. Every path must
 * name a value of the arguments (the repeated places hold `null`, or a copy). Json null markers found at or under
 * a restored value are listed for its new places too.
 */
export function applyReferentialEqualities(args: Args, jsonNulls: JsonNullSlot[], refs: unknown): Args {
    if (refs === undefined || refs === null) return args;
    if (!isPlainObject(refs)) {
        throw new BadRequestError('invalid serialization metadata: "referentialEqualities" must be an object of paths');
    }
    let result: Args = args;
    const budget: Budget = { left: MAX_RESTORED_VALUES };
    for (const [source, targets] of Object.entries(refs)) {
        if (!Array.isArray(targets) || !targets.every((t) => typeof t === 'string')) {
            throw new BadRequestError(`invalid serialization metadata: referentialEqualities of "${source}" must be a list of paths`);
        }
        checkPath(source);
        const value = getPath(result, source);
        if (value === undefined) {
            throw new BadRequestError(`serialization path "${source}" does not match a value in the arguments`);
        }
        const slots = jsonNulls.filter((slot) => slot.path === source || slot.path.startsWith(`${source}.`));
        for (const target of targets as string[]) {
            checkPath(target);
            if (getPath(result, target) === undefined) {
                throw new BadRequestError(`serialization path "${target}" does not match a value in the arguments`);
            }
            result = replacePath(result, target, copyTree(value, budget)) as Args;
            for (const slot of slots) jsonNulls.push({ path: target + slot.path.slice(source.length), name: slot.name });
        }
    }
    return result;
}
