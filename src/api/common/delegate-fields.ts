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

interface DelegateView {
    /** By model key: the protected concrete fields to remove from records of that (base) model. */
    hidden: ReadonlyMap<string, readonly string[]>;
    /** Model keys from which such a model can be reached through relations (itself included). */
    reaching: ReadonlySet<string>;
}

const views = new WeakMap<ModelRegistry, DelegateView>();

function buildView(registry: ModelRegistry): DelegateView {
    const hidden = new Map<string, string[]>();
    for (const model of registry.models.values()) {
        const names = new Set<string>();
        for (const sub of descendantsOf(registry, model)) {
            for (const field of sub.scalars.values()) {
                if (field.readProtected && !model.fields.has(field.name)) names.add(field.name);
            }
        }
        if (names.size > 0) hidden.set(model.key, [...names]);
    }
    // every model with a relation path to a model in `hidden`
    const reaching = new Set(hidden.keys());
    for (let grew = reaching.size > 0; grew; ) {
        grew = false;
        for (const model of registry.models.values()) {
            if (reaching.has(model.key)) continue;
            for (const rel of model.relations.values()) {
                if (reaching.has(rel.targetKey)) {
                    reaching.add(model.key);
                    grew = true;
                    break;
                }
            }
        }
    }
    return { hidden, reaching };
}

function viewOf(registry: ModelRegistry): DelegateView {
    let view = views.get(registry);
    if (!view) {
        view = buildView(registry);
        views.set(registry, view);
    }
    return view;
}

/** Removes the protected concrete fields from the records of base models in `value`, a result of `model` (in place). */
export function removeHiddenFields(registry: ModelRegistry, model: ModelDef, value: unknown): void {
    const view = viewOf(registry);
    if (!view.reaching.has(model.key)) return;
    const visit = (m: ModelDef, v: unknown): void => {
        if (Array.isArray(v)) {
            for (const item of v) visit(m, item);
            return;
        }
        if (v === null || typeof v !== 'object') return;
        const record = v as Record<string, unknown>;
        for (const name of view.hidden.get(m.key) ?? []) delete record[name];
        for (const rel of m.relations.values()) {
            const related = record[rel.name];
            if (related === undefined || !view.reaching.has(rel.targetKey)) continue;
            const target = registry.models.get(rel.targetKey);
            if (target) visit(target, related);
        }
    };
    visit(model, value);
}
