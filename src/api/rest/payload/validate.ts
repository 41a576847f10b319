import type { ZodSchemas } from '@zenstackhq/runtime';
import type { Response } from '../../../types';
import { jsonNullNameOf } from '../../common/codec';
import { DATA_VALIDATION_VIOLATION } from '../../common/errors';
import { zodErrorJson } from '../../common/zod-issues';
import { validationErrorObject, validationErrorResponse } from '../errors';
import type { RestModel } from '../schema';
import { hasOwn, pointerTo } from './pointer';
import type { ResourceWrite, WriteMode } from './resource';

/**
 * Validation of attributes with ZenStack's generated zod schemas (`<Model>CreateSchema` /
 * `<Model>UpdateSchema`), before anything is written. Only used when the request context carries
 * `zodSchemas`. A failure is a 422 with one error object per issue, each with a pointer.
 */

interface ZodIssueLike {
    code: string;
    path: Array<string | number>;
    message: string;
    keys?: string[];
}

interface ZodLike {
    safeParse(value: unknown): { success: boolean; error?: { issues: ZodIssueLike[] } };
    omit?: (mask: Record<string, true>) => ZodLike;
}

const SUFFIX: Record<WriteMode, string> = { create: 'CreateSchema', update: 'UpdateSchema' };

/**
 * schema → (omitted foreign keys → schema without them). The foreign keys are those of the relationships a
 * body sends, so a model with k of them has 2^k combinations, which a client chooses: only the most recently
 * built `OMITTED_KEPT` are kept per schema (a write sends the same few in practice; another is rebuilt).
 */
const omitted = new WeakMap<object, Map<string, ZodLike>>();
const OMITTED_KEPT = 64;

function withoutKeys(schema: ZodLike, keys: ReadonlySet<string>): { schema: ZodLike; filtered: boolean } {
    if (keys.size === 0) return { schema, filtered: false };
    if (typeof schema.omit !== 'function') {
        // a refined schema (ZodEffects) has no omit: validate all and drop the issues of those keys
        return { schema, filtered: true };
    }
    const cacheKey = [...keys].sort().join('\u0000');
    let byKeys = omitted.get(schema);
    if (!byKeys) {
        byKeys = new Map();
        omitted.set(schema, byKeys);
    }
    let result = byKeys.get(cacheKey);
    if (!result) {
        const mask: Record<string, true> = {};
        for (const k of keys) mask[k] = true;
        result = schema.omit(mask);
        if (byKeys.size >= OMITTED_KEPT) byKeys.delete(byKeys.keys().next().value as string);
        byKeys.set(cacheKey, result);
    }
    return { schema: result, filtered: false };
}

function pointerOf(write: ResourceWrite, path: Array<string | number>): string {
    if (path.length === 0) return '/data/attributes';
    const [first, ...rest] = path;
    const base = write.pointers[String(first)] ?? pointerTo('/data/attributes', first);
    return pointerTo(base, ...rest);
}

/**
 * The values as the client sent them: a `null` for a Json field was turned into Prisma's null marker
 * (`DbNull`/`JsonNull`) for the write, and the schema of a typed JSON field (`Address?`) expects `null`.
 */
function asSent(values: Record<string, unknown>): Record<string, unknown> {
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(values)) {
        if (value !== null && typeof value === 'object' && !Array.isArray(value) && jsonNullNameOf(value)) {
            (out ??= { ...values })[key] = null;
        }
    }
    return out ?? values;
}

/**
 * The foreign keys the create schema need not see: those set through relationships, and for an upsert (whose body is
 * also its update) every one the body leaves out, which only its create branch would need (the ORM refuses that create).
 */
function keysNotChecked(model: RestModel, write: ResourceWrite, upsert: boolean): ReadonlySet<string> {
    if (!upsert) return write.relationFks;
    const keys = new Set(write.relationFks);
    for (const field of model.def.scalars.values()) {
        if (field.isForeignKey && !hasOwn(write.values, field.name)) keys.add(field.name);
    }
    return keys;
}

/**
 * Validates a create/update (`upsert`: a create body that may update instead); returns the 422 response when it fails,
 * `undefined` when it passes (or no schema exists).
 */
export function validateWrite(zodSchemas: ZodSchemas | undefined, model: RestModel, mode: WriteMode, write: ResourceWrite, upsert = false): Response | undefined {
    const base = zodSchemas?.models?.[`${model.def.name}${SUFFIX[mode]}`] as unknown as ZodLike | undefined;
    if (!base || typeof base.safeParse !== 'function') return undefined;
    const skipped = keysNotChecked(model, write, upsert);
    const { schema, filtered } = withoutKeys(base, skipped);
    const result = schema.safeParse(asSent(write.values));
    if (result.success) return undefined;

    // with a refined schema, issues of the foreign keys left out above are not the client's
    const ours = (issue: ZodIssueLike) => !(filtered && issue.path.length > 0 && skipped.has(String(issue.path[0])));
    const errors: Record<string, unknown>[] = [];
    for (const issue of result.error?.issues ?? []) {
        if (!ours(issue)) continue;
        const paths = issue.code === 'unrecognized_keys' && issue.keys ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
        for (const path of paths) {
            errors.push(validationErrorObject(issue.message, pointerOf(write, path), { reason: DATA_VALIDATION_VIOLATION }));
        }
    }
    return errors.length === 0 ? undefined : validationErrorResponse(errors, zodErrorJson(result.error, (issue) => ours(issue as ZodIssueLike)));
}
