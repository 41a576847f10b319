import { jsonNullNameOf, type JsonNullName } from './codec';
import type { ModelDef, ScalarField } from './model-registry';

/**
 * ZenStack 2.22 checks the value of a typed JSON field (`address Address? @json`) in a create against its
 * type, Prisma's null objects included ("Required at address.city"), so a null object there goes the way
 * ZenStack takes a null: database NULL by leaving the field out (unless a default would then apply), JSON
 * null as a plain `null` (which ZenStack stores as JSON null; both read back as null).
 */
export function typedJsonNullInCreate(field: ScalarField, name: JsonNullName): 'leave-out' | 'plain-null' {
    return name === 'DbNull' && !field.hasDefault ? 'leave-out' : 'plain-null';
}

/** Applies `typedJsonNullInCreate` to the data of one record being created, owned by the caller (changed in place). */
export function typedJsonNullsForCreate(model: ModelDef, data: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(data)) {
        const field = model.scalars.get(name);
        if (!field?.typeDef || typeof value !== 'object' || value === null) continue;
        const marker = jsonNullNameOf(value);
        if (!marker) continue;
        if (typedJsonNullInCreate(field, marker) === 'leave-out') delete data[name];
        else data[name] = null;
    }
}
