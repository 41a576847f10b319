import { planOf } from '../document/model-plan';
import { RestError } from '../errors';
import type { RestSchema } from '../schema';
import type { Fieldsets } from './types';

/**
 * Parses `fields[type]=a,b` (JSON:API sparse fieldsets); unknown types and fields are 400. `id` (and the name of
 * an id field that is not an attribute) is no field in JSON:API, but 2.x clients list it: it is accepted and
 * changes nothing, since every resource object carries its id.
 */
export function parseFields(schema: RestSchema, params: ReadonlyArray<[string, string]>): Fieldsets | undefined {
    if (params.length === 0) return undefined;
    const out = new Map<string, Set<string>>();
    for (const [given, value] of params) {
        const parameter = `fields[${given}]`;
        const model = schema.byTypeName.get(given);
        if (!model) {
            throw new RestError('invalid-fields', `unknown resource type "${given}" in ${parameter}`, { source: { parameter } });
        }
        const { type } = model;
        const plan = planOf(model);
        let set = out.get(type);
        if (!set) {
            set = new Set();
            out.set(type, set);
        }
        for (const raw of value.split(',')) {
            const name = raw.trim();
            if (name.length === 0) continue;
            if (!plan.attributeByName.has(name) && !plan.relationshipByName.has(name)) {
                if (name === 'id' || model.idFields.some((f) => f.name === name)) continue;
                throw new RestError('invalid-fields', `"${name}" is not an attribute or relationship of "${type}"`, { source: { parameter } });
            }
            set.add(name);
        }
    }
    return out;
}
