import { replacePath } from '../common/codec';
import { getJsonNullObjects } from '../common/prisma-nulls';
import type { Args, JsonNullSlot } from './input';

/** Swaps the named markers left by `decodeArgs` for the client runtime's null objects. */
export function applyJsonNulls(args: Args, slots: readonly JsonNullSlot[], prisma: unknown): Args {
    if (slots.length === 0) {
        return args;
    }
    const objects = getJsonNullObjects(prisma);
    let result: unknown = args;
    for (const { path: at, name } of slots) {
        result = replacePath(result, at, objects[name]);
    }
    return result as Args;
}
