import { descendantsOf, type ModelDef, type ModelRegistry } from './model-registry';

/**
 * Fields of concrete models that are never answered through their `@@delegate` base model.
 *
 * Reading a base model (`Asset`) without a `select`, ZenStack 2.x merges each record's concrete
 * fields (`Video.secret`) into it. In its `findMany`, and in any nested read of a relation to the
 * base model (even under `findUnique`), it does so without their field-level read rules: measured on
 * 2.22, a `Video` field with `@allow('read', auth() == owner)` or `@deny('read', true)` came back to
 * every user who could read the `Asset`, anonymous ones too, and with two levels of delegation
 * (`Asset` → `Media` → `Video`) its `findUnique` did the same (zenstackhq/zenstack#1710 describes it
 * for earlier versions). So a concrete field with a field-level read rule, `@omit` or `@password`
 * is removed from every record read as the base model, whatever the operation; it stays readable
 * through the concrete model, where ZenStack applies its rules.
 */

/**
 * What to do with a record of one model that can hold such fields at some depth: the fields to remove
 * from it, and the relations to follow (those whose target can hold them too).
 */
interface Step {
    hidden: readonly string[];
    next: Array<{ relation: string; step: Step }>;
}

/** By model key, for the models whose results can hold such fields; computed once per schema. */
const views = new WeakMap<ModelRegistry, ReadonlyMap<string, Step>>();

function buildSteps(registry: ModelRegistry): Map<string, Step> {
    const steps = new Map<string, Step>();
    for (const model of registry.models.values()) {
        const names = new Set<string>();
        for (const sub of descendantsOf(registry, model)) {
            for (const field of sub.scalars.values()) {
                if (field.readProtected && !model.fields.has(field.name)) names.add(field.name);
            }
        }
        if (names.size > 0) steps.set(model.key, { hidden: [...names], next: [] });
    }
    // every model with a relation path to one of those: back along the relations, from each model reached once (a
    // pass over every model until none was added took one pass per step of the longest path, quadratic on a chain)
    if (steps.size > 0) {
        const pointingAt = new Map<string, ModelDef[]>();
        for (const model of registry.models.values()) {
            for (const rel of model.relations.values()) {
                const list = pointingAt.get(rel.targetKey);
                if (list) list.push(model);
                else pointingAt.set(rel.targetKey, [model]);
            }
        }
        const reached = [...steps.keys()];
        for (let i = 0; i < reached.length; i++) {
            for (const model of pointingAt.get(reached[i]) ?? []) {
                if (steps.has(model.key)) continue;
                steps.set(model.key, { hidden: [], next: [] });
                reached.push(model.key);
            }
        }
    }
    for (const [key, step] of steps) {
        for (const rel of (registry.models.get(key) as ModelDef).relations.values()) {
            const target = steps.get(rel.targetKey);
            if (target) step.next.push({ relation: rel.name, step: target });
        }
    }
    return steps;
}

function stepsOf(registry: ModelRegistry): ReadonlyMap<string, Step> {
    let steps = views.get(registry);
    if (!steps) {
        steps = buildSteps(registry);
        views.set(registry, steps);
    }
    return steps;
}

function visit(step: Step, value: unknown): void {
    if (Array.isArray(value)) {
        for (const item of value) visit(step, item);
        return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const name of step.hidden) delete record[name];
    for (const { relation, step: next } of step.next) {
        if (record[relation] !== undefined) visit(next, record[relation]);
    }
}

/** Removes the protected concrete fields from the records of base models in `value`, a result of `model` (in place). */
export function removeHiddenFields(registry: ModelRegistry, model: ModelDef, value: unknown): void {
    const step = stepsOf(registry).get(model.key);
    if (step) visit(step, value);
}
