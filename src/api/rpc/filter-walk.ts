import { BadRequestError } from '../common/errors';
import { isObject } from '../common/guards';
import type { ModelDef, ModelRegistry, RelationField, ScalarField } from '../common/model-registry';

/** The walk over RPC arguments that the protected-field guards share: where it is, and the filter check. */

export const LOGICAL = new Set(['AND', 'OR', 'NOT']);
const RELATION_FILTERS = new Set(['is', 'isNot', 'some', 'every', 'none']);

export type Walk = { registry: ModelRegistry; model: ModelDef };

/**
 * How strict a filter check is. `read`: ZenStack guards filters on fields with field-level read rules
 * when it reads (a row matches only if the user may read the field), so only `@omit` fields, which it
 * does not guard, are refused. `write`: the filter of a single-record or nested write, which ZenStack does
 * not guard: every read-protected field is refused.
 */
export type FilterMode = 'read' | 'write';

export function reject(model: ModelDef, field: string, use: string): never {
    throw new BadRequestError(`field "${field}" of ${model.name} cannot be used for ${use}: reading it is restricted by the access policy`);
}

export function target(w: Walk, rel: RelationField): Walk | undefined {
    const model = w.registry.models.get(rel.targetKey);
    return model ? { registry: w.registry, model } : undefined;
}

export function each(v: unknown, fn: (item: unknown) => void): void {
    if (Array.isArray(v)) v.forEach(fn);
    else fn(v);
}

/** Refuses the fields `mode` does not allow in a filter, at any depth of AND/OR/NOT and relation filters. */
export function checkWhere(w: Walk, where: unknown, mode: FilterMode = 'read', skip?: ReadonlySet<string>): void {
    if (!isObject(where)) return;
    for (const [key, value] of Object.entries(where)) {
        if (skip?.has(key)) continue;
        if (LOGICAL.has(key)) {
            each(value, (item) => checkWhere(w, item, mode));
            continue;
        }
        const field = w.model.fields.get(key);
        if (!field) continue;
        if ('targetKey' in field) {
            if (mode === 'write' && field.readProtected) reject(w.model, key, 'filtering a write');
            const next = target(w, field);
            if (!next || !isObject(value)) continue;
            const filterKeys = Object.keys(value).filter((k) => RELATION_FILTERS.has(k));
            if (filterKeys.length > 0) filterKeys.forEach((k) => checkWhere(next, value[k], mode));
            else checkWhere(next, value, mode);
        } else if ((field as ScalarField).omitted) {
            reject(w.model, key, 'filtering');
        } else if (mode === 'write' && field.readProtected) {
            reject(w.model, key, 'filtering a write');
        }
    }
}
