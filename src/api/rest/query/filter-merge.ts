import { hoistConjunctions } from '../../common/filter-guard';
import { hasOwn, isObject } from '../../common/guards';
import type { RestModel } from '../schema';
import type { Where } from './operators';

/**
 * Filter parameters that name the same place, combined into one condition there, where ZenStack applies the read
 * rules (`common/filter-guard.ts`), instead of side by side under an `AND`, where it applies none and which is
 * refused for fields and models with read rules:
 * - through the same to-one relationship (`filter[author][name]=Bob&filter[author][role]=ADMIN` →
 *   `author: { is: { name, role } }`): a record has at most one author, so the two hold of it exactly when their
 *   conjunction does; merged again at every level of the paths;
 * - on the same field with different operators (`filter[email$startsWith]=a&filter[email$contains]=@` →
 *   `email: { startsWith, contains }`): a field's operators all hold together. Not when either carries a `mode`
 *   (it would apply to the other's operators too), nor for a plain value or a repeated operator, nor on a scalar
 *   list (`String[]`), whose filter takes one operator.
 * Through a to-many relationship the two stay apart: "some post titled x" and "some post with views" may be
 * different posts.
 */
export function mergeFilters(model: RestModel, parts: readonly Where[]): Where[] {
    // the parts on each name that may merge, in order; the rest as they are
    const groups = new Map<string, { merge: Merger; parts: Where[] }>();
    const order: Array<Where | string> = [];
    for (const part of parts) {
        const name = soleKey(part);
        const merge = name === undefined ? undefined : mergerFor(model, name, part[name]);
        if (name === undefined || !merge) {
            order.push(part);
            continue;
        }
        const group = groups.get(name);
        if (group) {
            group.parts.push(part);
        } else {
            groups.set(name, { merge, parts: [part] });
            order.push(name);
        }
    }
    const out: Where[] = [];
    for (const item of order) {
        if (typeof item !== 'string') {
            out.push(item);
            continue;
        }
        const group = groups.get(item)!;
        const merged = group.parts.length > 1 ? group.merge(group.parts) : undefined;
        // a group that cannot merge (a repeated operator) stays as it was, each part apart
        if (merged === undefined) out.push(...group.parts);
        else out.push({ [item]: merged });
    }
    return out;
}

/** The key of a condition with exactly one. */
function soleKey(part: Where): string | undefined {
    const keys = Object.keys(part);
    return keys.length === 1 ? keys[0] : undefined;
}

/** The merged condition of a group of parts on one name, or undefined when they cannot be merged. */
type Merger = (group: readonly Where[]) => unknown;

/** How parts on `name` merge, judged from one of them (`value`, its condition); undefined when such a part never merges. */
function mergerFor(model: RestModel, name: string, value: unknown): Merger | undefined {
    const rel = model.relationships.get(name);
    if (rel) {
        if (rel.isArray || !isObject(value) || Object.keys(value).length !== 1 || !isObject(value.is)) return undefined;
        return (group) => {
            const inner = group.map((part) => (part[name] as { is: unknown }).is);
            if (!inner.every((w) => isObject(w))) return undefined;
            const merged = mergeFilters(rel.target, inner as Where[]);
            return { is: merged.length === 1 ? merged[0] : hoistConjunctions({ AND: merged }) };
        };
    }
    const field = model.def.scalars.get(name);
    // a scalar list's filter takes exactly one operator (`tags: { has, hasSome }` is refused by Prisma)
    if (!field || field.kind === 'Json' || field.isArray || !operatorObject(value)) return undefined;
    return (group) => {
        const merged: Record<string, unknown> = {};
        for (const part of group) {
            const ops = part[name];
            if (!operatorObject(ops)) return undefined;
            for (const [op, operand] of Object.entries(ops)) {
                if (hasOwn(merged, op)) return undefined;
                merged[op] = operand;
            }
        }
        return merged;
    };
}

/** A field condition of operators (`{ gte: 1 }`), not a plain value, without a `mode` that would reach the others. */
function operatorObject(value: unknown): value is Record<string, unknown> {
    return isObject(value) && Object.getPrototypeOf(value) === Object.prototype && !hasOwn(value, 'mode') && Object.keys(value).length > 0;
}
