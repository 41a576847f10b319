import { getPath, replacePath } from '../common/codec';
import { BadRequestError } from '../common/errors';
import { isPlainObject, type Args, type JsonNullSlot } from './input';

/**
 * superjson's `referentialEqualities`: `{ "<path>": ["<path>", …] }`, the places that hold the same value
 * (object, array, Date …) as the first one. A client made with `new SuperJSON({ dedupe: true })` sends that value
 * once and `null` in the other places; superjson (and so `@zenstackhq/server` 2.x) puts it back there. Without
 * dedupe every place carries its own copy, and restoring changes nothing.
 */

/** A copy of plain objects and arrays (typed values, such as Dates, are shared): every place gets its own tree. */
function copyTree(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(copyTree);
    if (isPlainObject(value)) {
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) out[key] = copyTree(value[key]);
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
            result = replacePath(result, target, copyTree(value)) as Args;
            for (const slot of slots) jsonNulls.push({ path: target + slot.path.slice(source.length), name: slot.name });
        }
    }
    return result;
}
