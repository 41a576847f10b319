import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { many, walkWrites } from './write-walk';

/**
 * ZenStack 2.22 checks a nested `updateMany` (`user.update({ data: { posts: { updateMany: { where, data } } } })`)
 * under the related model's update rule alone, without the field-level update rules of the fields it sets, when that
 * model rule is not a constant: with `published Boolean @allow('update', auth().role == 'EDITOR')`, a nested
 * `updateMany` let any author publish (2.x too), where a top-level `updateMany` and a nested `update` refuse it. The
 * handler refuses a nested `updateMany` that sets a field with a field-level update rule (400, naming the field and
 * saying to make it a top-level `updateMany`), at any depth; one that sets other fields goes through as before.
 */
export function refuseRuledNestedUpdateMany(registry: ModelRegistry, model: ModelDef, op: string, args: Args): void {
    walkWrites(registry, model, op, args, ({ relation, target, ops }) => {
        for (const item of many(ops.updateMany)) {
            if (!isObject(item) || !isObject(item.data)) continue;
            for (const [key, value] of Object.entries(item.data)) {
                if (value === undefined || !target.scalars.get(key)?.updateRuled) continue;
                throw new BadRequestError(
                    `a nested updateMany through "${relation.name}" sets "${key}", whose field-level update rule ZenStack does not ` +
                        `check there: make it a top-level ${target.key} updateMany (its filter can name the parent)`,
                );
            }
        }
    });
}
