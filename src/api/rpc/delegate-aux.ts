import { BadRequestError } from '../common/errors';
import { isPlainObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';

/**
 * ZenStack 2.22 gives the Prisma schema of a `@@delegate` hierarchy relations of its own between the base and each
 * model extending it (`delegate_aux_video` on `Asset`, `delegate_aux_asset` on `Video`). They are not fields of the
 * ZenStack models, and its policy layer puts no read rule on them: a filter, an order, a `_count` or an include
 * through one read the other model's fields and rows without their rules (`asset/count` with `where:
 * { delegate_aux_video: { ownNote: 'N1' } }` confirmed a guess of a field only the owner may read, and
 * `include: { delegate_aux_video: true }` answered the fields of a video whose own rule hides it). So does 2.22.3.
 * No client has a use for them: a key naming one is a 400 wherever the arguments name fields.
 */

const AUX_PREFIX = 'delegate_aux_';

const withDelegates = new WeakMap<ModelRegistry, boolean>();

function hasDelegates(registry: ModelRegistry): boolean {
    let found = withDelegates.get(registry);
    if (found === undefined) {
        found = [...registry.models.values()].some((m) => m.delegated);
        withDelegates.set(registry, found);
    }
    return found;
}

/**
 * Walks `args` of a call on `model` (iteratively: their depth is the client's) and refuses a key naming such a
 * relation. Keys are field names of the model in hand, or argument and operator names, whose values hold more of
 * the same; values of scalar fields (Json values among them, which may hold any key) are not walked.
 */
export function refuseDelegateAuxRelations(registry: ModelRegistry, model: ModelDef, args: Record<string, unknown>): void {
    if (!hasDelegates(registry)) return;
    const stack: Array<[unknown, ModelDef, string]> = [[args, model, '']];
    while (stack.length > 0) {
        const [value, at, path] = stack.pop()!;
        if (Array.isArray(value)) {
            for (let i = 0; i < value.length; i++) if (typeof value[i] === 'object' && value[i] !== null) stack.push([value[i], at, `${path}.${i}`]);
            continue;
        }
        if (!isPlainObject(value)) continue;
        for (const [key, item] of Object.entries(value)) {
            const here = path ? `${path}.${key}` : key;
            if (key.startsWith(AUX_PREFIX) && !at.fields.has(key)) {
                throw new BadRequestError(`invalid arguments: "${here}" is not a field of ${at.name} (ZenStack's internal relation of a @@delegate hierarchy)`);
            }
            if (typeof item !== 'object' || item === null) continue;
            const field = at.fields.get(key);
            if (!field) stack.push([item, at, here]);
            else if ('targetKey' in field) {
                const target = registry.models.get(field.targetKey);
                if (target) stack.push([item, target, here]);
            }
        }
    }
}
