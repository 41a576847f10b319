import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { many, walkWrites } from './write-walk';

/**
 * ZenStack 2.22 hashes a `@password` field in every write but `updateMany` and `updateManyAndReturn`, top-level or
 * nested (`team.update({ data: { members: { updateMany: { where, data: { password } } } } })`): its write visitor hands
 * the password step the whole `{ where, data }`, where it finds no field, so the value was stored as sent, in plain
 * text (2.22.3 the same). Such a write is refused (400, naming the field): set a password with `update`.
 */
export function refuseUnhashedPasswords(registry: ModelRegistry, model: ModelDef, op: string, args: Args): void {
    // most schemas have no `@password` field: nothing to walk
    if (!registry.hasHashedFields) return;
    if (op === 'updateMany' || op === 'updateManyAndReturn') check(model, args.data, `${op} of ${model.name}`);
    walkWrites(registry, model, op, args, ({ relation, target, ops }) => {
        for (const item of many(ops.updateMany)) if (isObject(item)) check(target, item.data, `a nested updateMany through "${relation.name}"`);
    });
}

function check(model: ModelDef, data: unknown, where: string): void {
    if (!isObject(data)) return;
    for (const [key, value] of Object.entries(data)) {
        if (value !== undefined && model.scalars.get(key)?.hashed) {
            throw new BadRequestError(`${where} sets "${key}", a @password field that ZenStack stores unhashed there: set it with update`);
        }
    }
}
