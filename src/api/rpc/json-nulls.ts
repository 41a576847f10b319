import { PathWriter } from '../common/codec';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import { getJsonNullObjects } from '../common/prisma-nulls';
import { typedJsonNullInCreate } from '../common/typed-json-nulls';
import type { Args, JsonNullSlot } from './input';
import { writeRecords } from './write-records';

/** Swaps the named markers left by `decodeArgs` for the client runtime's null objects. */
export function applyJsonNulls(args: Args, slots: readonly JsonNullSlot[], prisma: unknown): Args {
    if (slots.length === 0) {
        return args;
    }
    const objects = getJsonNullObjects(prisma);
    const writer = new PathWriter(args);
    for (const { path: at, name } of slots) writer.set(at, objects[name]);
    return writer.root as Args;
}

export interface TypedJsonNulls {
    /** The arguments, with the markers of typed JSON fields in created records resolved (see below). */
    args: Args;
    /** The markers left to swap for null objects after validation. */
    slots: JsonNullSlot[];
    /** The arguments as ZenStack's zod schemas take them: typed JSON fields hold an object or nothing (`.optional()`), never a null. */
    forValidation: Args;
}

/**
 * Json null markers on typed JSON fields (`address Address? @json`). In created records they go as ZenStack
 * takes a null there (common/typed-json-nulls.ts); updates take the null objects. ZenStack's zod schemas of these fields take an object or nothing, so the arguments
 * are validated without the field where a tag says null. `args` comes from `decodeArgs`, which copied every
 * object on a marker's path.
 */
export function resolveTypedJsonNulls(registry: ModelRegistry, model: ModelDef, op: string, args: Args, slots: JsonNullSlot[]): TypedJsonNulls {
    if (slots.length === 0 || !isObject(args)) return { args, slots, forValidation: args };
    const byPath = new Map(slots.map((s) => [s.path, s]));
    const resolved = new Set<JsonNullSlot>();
    const unvalidated: string[] = [];
    for (const { model: m, data, path, created } of writeRecords(registry, model, op, args)) {
        for (const field of m.scalars.values()) {
            const slot = field.typeDef ? byPath.get(`${path}.${field.name}`) : undefined;
            if (!slot || data[field.name] !== slot.name) continue;
            if (!created) {
                unvalidated.push(slot.path);
                continue;
            }
            if (typedJsonNullInCreate(field, slot.name) === 'leave-out') delete data[field.name];
            else {
                data[field.name] = null;
                unvalidated.push(slot.path);
            }
            resolved.add(slot);
        }
    }
    const forValidation = new PathWriter(args);
    for (const path of unvalidated) forValidation.set(path, undefined);
    return { args, slots: resolved.size > 0 ? slots.filter((s) => !resolved.has(s)) : slots, forValidation: forValidation.root as Args };
}
