import { isObject } from '../common/guards';
import { idSelect, type ModelDef, type ModelRegistry, type RelationField } from '../common/model-registry';
import type { Args } from './input';
import { asFilter, follow, selectAlong } from './relation-set';
import { delegateOf, matchingNothing, toOneData, walkUpdates, type Step } from './write-walk';

/**
 * ZenStack looks up the partner of a nested to-one `update`, `delete`, `disconnect` or `upsert` without its
 * read rule: on a record whose partner the user cannot read, the write answered 403 (denied) or changed the
 * hidden partner, where a record without a partner answers 404 (a `disconnect`: 200; an `upsert`: its create
 * runs), so `{ profile: { delete: true } }` on another user told whether that user has a hidden profile. As
 * for nested to-many writes (`hidden-nested.ts`), a partner the user cannot read is treated as none: in the
 * write's transaction, before the write, the partner is read through the user's client along the write's
 * path, and when none is seen the nested write gets a filter that matches nothing, so it goes on exactly as
 * for a missing partner (an upsert's create then runs, and `one-to-one.ts` detaches the hidden partner only
 * under its update rule). Through a required relation ZenStack drops the holder itself from that read, so the
 * holder is then read alone: when it is there, its partner is the hidden one.
 */

type Data = Record<string, unknown>;

interface Site {
    path: Step[];
    /** The model holding the relation. */
    holder: ModelDef;
    relation: RelationField;
    target: ModelDef;
    ops: Data;
}

const ACTIONS = ['update', 'upsert', 'delete', 'disconnect'];

function sites(registry: ModelRegistry, model: ModelDef, op: string, args: Args): Site[] {
    const found: Site[] = [];
    // under a create there is no partner yet (nor anything else to update: a `create` is not walked)
    walkUpdates(registry, model, op, args, ({ model: holder, relation, target, ops, place }) => {
        if (!place.path || relation.isArray || target.idFields.length === 0) return;
        // a partner of a model everyone may read is never hidden
        if (target.readableByAll) return;
        if (ACTIONS.some((a) => ops[a] !== undefined && ops[a] !== false)) found.push({ path: place.path, holder, relation, target, ops });
    });
    return found;
}

/** Whether the arguments hold nested to-one writes of an existing partner (the call then runs in a transaction). */
export function hasToOneTargets(registry: ModelRegistry, model: ModelDef, op: string, args: Args): boolean {
    return sites(registry, model, op, args).length > 0;
}

/** Nested writes that give the record a partner. */
const MAKES_PARTNER = ['create', 'connect', 'connectOrCreate', 'upsert'];

/**
 * Gives a nested to-one write (`ops`, in the caller's copy of the arguments) a filter that matches nothing. Prisma
 * runs a relation's nested writes in the order of their keys, so one after a write that makes a partner
 * (`{ create, update }`) is left as it is: it runs on the partner just made, which is no longer the one the user
 * could not see (or the lack of one).
 */
function matchNothing(target: ModelDef, ops: Data): void {
    const nothing = matchingNothing(target);
    const narrowed = (where: unknown): Data => ({ AND: isObject(where) ? [where, nothing] : [nothing] });
    const keys = Object.keys(ops);
    const onHidden = (action: string) => !keys.slice(0, keys.indexOf(action)).some((k) => MAKES_PARTNER.includes(k) && ops[k] !== undefined);
    if (ops.update !== undefined && onHidden('update')) {
        const data = toOneData(target, ops.update);
        const where = data !== ops.update && isObject(ops.update) ? ops.update.where : undefined;
        ops.update = { where: narrowed(where), data };
    }
    if (isObject(ops.upsert) && onHidden('upsert')) ops.upsert = { ...ops.upsert, where: narrowed(ops.upsert.where) };
    for (const action of ['delete', 'disconnect']) {
        if (ops[action] !== undefined && ops[action] !== false && onHidden(action)) ops[action] = narrowed(ops[action] === true ? undefined : ops[action]);
    }
}

/**
 * Whether the record holding a required relation is there for the user. ZenStack drops a record whose required
 * to-one relation it is asked to read and cannot (the note of a hidden blog, not only the blog): so the read of
 * the partner saw no holder, and the holder is read again without it.
 */
async function holderVisible(client: unknown, registry: ModelRegistry, model: ModelDef, where: unknown, site: Site): Promise<boolean> {
    const last = site.path[site.path.length - 1];
    const select = last
        ? selectAlong(registry, site.path.slice(0, -1), last.relation, site.holder, last.where && asFilter(site.holder, last.where))
        : idSelect(model);
    const record = await delegateOf(client, model).findUnique({ where, select });
    return follow(record, site.path) !== undefined;
}

/**
 * Gives each nested to-one write of `args` (a copy the caller owns) whose partner the user cannot read a
 * filter that matches nothing. `client` is the user's client (the write's transaction).
 */
export async function hideToOneTargets(client: unknown, registry: ModelRegistry, model: ModelDef, op: string, args: Args): Promise<void> {
    if (!isObject(args.where)) return;
    for (const site of sites(registry, model, op, args)) {
        const record = await delegateOf(client, model).findUnique({ where: args.where, select: selectAlong(registry, site.path, site.relation, site.target) });
        const holder = follow(record, site.path);
        if (holder ? isObject(holder[site.relation.name]) : site.relation.isOptional) continue;
        // the record holding the relation is not there for the user: the write answers for it as it would
        if (!holder && !(await holderVisible(client, registry, model, args.where, site))) continue;
        matchNothing(site.target, site.ops);
    }
}
