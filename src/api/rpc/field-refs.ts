import { isPlainObject } from '../common/guards';
import type { ModelDef } from '../common/model-registry';
import { fail } from './arg-walk';

/**
 * Prisma reads an operand shaped `{ _ref: "<field>", _container: "<Model>" }` as a reference to another field of
 * the same row (`prisma.post.fields.views` sent as JSON): `name: { lt: { _ref: "pin", _container: "Account" } }`
 * compares the two columns. ZenStack applies no read rule to the referenced field, so a comparison with one the
 * user may not read (a field-level read rule, `@omit`, `@password`) answers differently for each hidden value:
 * guessing into a readable field and asking again reads the hidden one. Such a reference is refused wherever a
 * condition may hold one (filters at any depth, cursors, write filters, `having`); a reference to a field the
 * user reads is left to Prisma, which checks that `_container` names the model being filtered.
 */
export function checkFieldRefs(model: ModelDef, operand: unknown, at: string): void {
    // nothing to refer to on a model without protected fields; a plain value holds no reference
    if (!model.hasReadProtected || typeof operand !== 'object' || operand === null) return;
    const stack: unknown[] = [operand];
    while (stack.length > 0) {
        const v = stack.pop();
        if (Array.isArray(v)) {
            for (const item of v) if (typeof item === 'object' && item !== null) stack.push(item);
        } else if (isPlainObject(v)) {
            const ref = v._ref;
            if (typeof ref === 'string' && model.scalars.get(ref)?.readProtected) {
                fail(at, `free of references to "${ref}" of ${model.name}: reading it is restricted by the access policy`);
            }
            for (const item of Object.values(v)) if (typeof item === 'object' && item !== null) stack.push(item);
        }
    }
}
