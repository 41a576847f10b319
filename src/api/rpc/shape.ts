import { BadRequestError } from '../common/errors';
import type { ModelDef, ModelRegistry } from '../common/model-registry';
import type { Args } from './input';

/**
 * The structure Prisma requires of `select` and `include` (objects whose entries are booleans or
 * objects), checked before the client runs: ZenStack's policy layer dereferences these entries
 * before Prisma validates them and crashes (a 500) on, e.g., `include: { author: null }`.
 */

function isObject(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkShape(registry: ModelRegistry, model: ModelDef | undefined, value: unknown, path: string): void {
    if (!isObject(value)) {
        throw new BadRequestError(`"${path}" must be an object`);
    }
    for (const [key, entry] of Object.entries(value)) {
        const at = `${path}.${key}`;
        if (typeof entry === 'boolean') continue;
        if (!isObject(entry)) {
            throw new BadRequestError(`"${at}" must be true, false or an object`);
        }
        const relation = model?.relations.get(key);
        const target = relation ? registry.models.get(relation.targetKey) : undefined;
        // nested reads of a relation, or `_count: { select: { rel: … } }`
        const next = key === '_count' ? undefined : target;
        for (const nested of ['select', 'include'] as const) {
            if (entry[nested] !== undefined) checkShape(registry, next ?? (key === '_count' ? model : undefined), entry[nested], `${at}.${nested}`);
        }
    }
}

/** Throws a BadRequestError when `select`/`include` (at any depth) are not shaped as Prisma requires. */
export function checkSelectShape(registry: ModelRegistry, model: ModelDef, args: Args): void {
    for (const key of ['select', 'include'] as const) {
        if (args[key] !== undefined && args[key] !== null) checkShape(registry, model, args[key], key);
    }
}
