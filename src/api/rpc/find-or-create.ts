import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';
import { walkWrites } from './write-walk';

/**
 * Whether an operation looks a record up by a unique key and creates it when it is missing: an `upsert`, or a
 * nested `upsert` or `connectOrCreate` anywhere in its data. Two such writes of one new key at once (over two
 * pool connections, or two server processes) both find nothing and both create; the later create fails on the
 * unique key (P2002) although a link or an update was all it needed. Prisma's documentation says to retry
 * them: the handler runs such a call once more (`rerunning` in `common/rerun.ts`), or the `$transaction/sequential` holding it.
 */
export function findsOrCreates(registry: ModelRegistry, model: ModelDef, op: string, args: Args): boolean {
    if (op === 'upsert') return true;
    let found = false;
    walkWrites(registry, model, op, args, ({ ops }) => {
        if (ops.upsert !== undefined || ops.connectOrCreate !== undefined) found = true;
    });
    return found;
}
