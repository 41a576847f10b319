import { classifyError } from './errors';
import { descendantsOf, idSelect, uniqueWhere, type ModelDef, type ModelRegistry } from './model-registry';

/**
 * Writes through a `@@delegate` base model, and the rules of the models extending it.
 *
 * ZenStack 2.22 checks an update or delete made through the base model (`asset.update`, `asset.deleteMany`,
 * a nested `assets: { delete }`) against the base model's rules only, then writes the concrete rows
 * unchecked: with `model Image extends Asset { @@deny('delete', true) }`, `image.delete` is denied and
 * `asset.delete` of the same image goes through. So when a model extending the base has rules of its own for
 * the operation, the handlers make the write through the concrete model instead, where ZenStack checks both
 * (a concrete model carries its base's rules too).
 */

export type WriteKind = 'update' | 'delete';

const cache = new WeakMap<ModelRegistry, Map<string, boolean>>();

/**
 * Whether a model extending `base` (at any depth) has rules for `kind` beyond those it takes from `base`:
 * then a write of that kind through `base` is made through the concrete models. Computed once per model.
 */
export function concreteRulesUnder(registry: ModelRegistry, base: ModelDef, kind: WriteKind): boolean {
    let known = cache.get(registry);
    if (!known) cache.set(registry, (known = new Map()));
    const key = `${base.key}:${kind}`;
    let result = known.get(key);
    if (result === undefined) {
        // (field-level update rules of a concrete model's own fields do not count: the base model cannot write those)
        result = descendantsOf(registry, base).some((sub) => sub.writeRules[kind] > base.writeRules[kind]);
        known.set(key, result);
    }
    return result;
}

const leaves = new WeakMap<ModelRegistry, Map<string, ModelDef[]>>();

/**
 * The models under `base` that hold rows of their own: those nothing extends (a `@@delegate` model is never created
 * directly). Computed once per model.
 */
export function leavesUnder(registry: ModelRegistry, base: ModelDef): ModelDef[] {
    let known = leaves.get(registry);
    if (!known) leaves.set(registry, (known = new Map()));
    let found = known.get(base.key);
    if (!found) {
        const below = descendantsOf(registry, base);
        found = below.filter((m) => !below.some((other) => other.baseTypes.includes(m.name)));
        known.set(base.key, found);
    }
    return found;
}

type Finder = { findUnique(args: Record<string, unknown>): Promise<unknown> };

/** The unique filter a concrete model takes for the record: its id (a base model's other unique keys are not the concrete model's). */
export type IdWhere = Record<string, unknown>;

/**
 * Runs `attempt` with the concrete model of the record `where` names under `base`. The record's kind (and id)
 * is read from the discriminators under the read policy: `attempt` then gets `known` and the record's id filter.
 * A record the user cannot read (or that is not there) is tried on each concrete model in turn: the model
 * that holds it answers, as ZenStack would answer its write (checked, then perhaps not readable back), and on
 * none the last "not found" is thrown.
 */
export async function onConcreteModel<T>(
    client: unknown,
    registry: ModelRegistry,
    base: ModelDef,
    where: Record<string, unknown>,
    attempt: (model: ModelDef, known: boolean, idWhere: IdWhere | undefined) => Promise<T>,
    isNotFound: (err: unknown) => boolean = (err) => classifyError(err).kind === 'not-found',
): Promise<T> {
    let model = base;
    let idWhere: IdWhere | undefined;
    while (model.discriminator) {
        const finder = (client as Record<string, Finder>)[model.key];
        const row = (await finder.findUnique({ where: idWhere ?? where, select: { ...idSelect(model), [model.discriminator]: true } })) as Record<
            string,
            unknown
        > | null;
        const next = row ? registry.byName.get(String(row[model.discriminator])) : undefined;
        if (!row || !next || !next.baseTypes.includes(model.name)) break;
        idWhere = uniqueWhere(next, row);
        model = next;
    }
    if (model !== base && !model.discriminator) return attempt(model, true, idWhere);
    const leaves = leavesUnder(registry, model);
    if (leaves.length === 0) return attempt(model, false, idWhere);
    let missing: unknown;
    for (const leaf of leaves) {
        try {
            return await attempt(leaf, false, idWhere);
        } catch (err) {
            if (!isNotFound(err)) throw err;
            missing = err;
        }
    }
    throw missing;
}

const NO_DISCRIMINATORS: ReadonlySet<string> = new Set();

/**
 * The discriminator fields a write of `model` must not set: its own (a `@@delegate` model's) and those of the models
 * it extends. ZenStack sets them from the model created, and refuses one in a concrete model's data; in a base
 * model's update it wrote it, so that an image's base row said `Video` (its concrete fields then read as no model's).
 */
export function discriminatorsOf(registry: ModelRegistry, model: ModelDef): ReadonlySet<string> {
    if (!model.delegated) return NO_DISCRIMINATORS;
    let known = discriminatorCache.get(model);
    if (!known) discriminatorCache.set(model, (known = findDiscriminators(registry, model)));
    return known;
}

/** By model: a model's definition lives as long as its registry's modelMeta. */
const discriminatorCache = new WeakMap<ModelDef, ReadonlySet<string>>();

function findDiscriminators(registry: ModelRegistry, model: ModelDef): ReadonlySet<string> {
    const names = new Set<string>();
    const pending = [model];
    const seen = new Set<string>();
    while (pending.length > 0) {
        const m = pending.pop() as ModelDef;
        if (seen.has(m.name)) continue;
        seen.add(m.name);
        if (m.discriminator) names.add(m.discriminator);
        for (const base of m.baseTypes) {
            const def = registry.byName.get(base);
            if (def) pending.push(def);
        }
    }
    return names;
}
