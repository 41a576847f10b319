import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { rewrittenCopy } from './relation-set';
import { isToOneLongForm, walkUpdates } from './write-walk';

/**
 * ZenStack 2.22 tells a nested to-one `update`'s data from Prisma's `{ where?, data }` form by `args.data ?? args`.
 * On a model with a field named `data`, the short form `post: { update: { data: 'x', title: 'evil' } }` is read as
 * the data `'x'`, which names no field, so ZenStack checks no update rule, while Prisma writes `data` and `title`
 * (2.x let a commenter retitle another user's post so). The handler sends such an update, at any depth, in the long
 * form `{ data: { data: 'x', title: 'evil' } }`, which Prisma takes alike and ZenStack checks. A to-one `upsert`'s
 * `update` is not concerned (ZenStack takes it as the data), nor is a short form without `data` (read as itself).
 */

/** Whether ZenStack would misread this to-one `update`: the data itself, holding a `data` field with a value. */
function misread(target: ModelDef, value: unknown): value is Record<string, unknown> {
    return target.fields.has('data') && isObject(value) && value.data !== undefined && value.data !== null && !isToOneLongForm(target, value);
}

function rewrite(registry: ModelRegistry, model: ModelDef, op: string, args: Args, apply: boolean): boolean {
    let found = false;
    walkUpdates(registry, model, op, args, ({ relation, target, ops }) => {
        if (relation.isArray || !misread(target, ops.update)) return;
        found = true;
        // the walk then goes into the long form's data, where deeper ones are rewritten the same way
        if (apply) ops.update = { data: ops.update };
    });
    return found;
}

/** The arguments with every misread short-form to-one `update` in the long form (in a copy), or the arguments themselves when none is. */
export function longFormToOneUpdates(registry: ModelRegistry, model: ModelDef, op: string, args: Args): Args {
    return rewrittenCopy(args, (a, apply) => rewrite(registry, model, op, a, apply));
}
