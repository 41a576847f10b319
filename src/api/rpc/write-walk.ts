import { isObject, isPlainObject, many } from '../common/guards';
import type { ModelDef, ModelRegistry, RelationField } from '../common/model-registry';
import type { Args } from './input';

// the relation guards take `many` from here, beside the walk
export { many };

/** The walk through the write data of RPC arguments that the relation guards share (relation `set`, one-to-one links). */

type Data = Record<string, unknown>;

/** How to reach a nested record from the top-level one: the relation, and the nested item's unique filter on a to-many step. */
export interface Step {
    relation: RelationField;
    where?: Data;
}

/**
 * Where a write's data sits: `path` is how an update reaches the record (undefined under a create: a new
 * record); `conditional` marks data that is written only if a record is there (an upsert's `update`) or
 * is not (an upsert's `create`, a `connectOrCreate`'s `create`).
 */
export interface Place {
    path: Step[] | undefined;
    conditional: boolean;
}

/** One relation written in some write data (`data[relation.name]` is `ops`), where the walk met it. */
export interface RelationWrite {
    model: ModelDef;
    data: Data;
    relation: RelationField;
    target: ModelDef;
    ops: Data;
    place: Place;
}

/** The condition that matches no record of `target` (its first id field in an empty list). */
export function matchingNothing(target: ModelDef): Record<string, unknown> {
    return { [target.idFields[0].name]: { in: [] } };
}

/** Whether `condition` is the one `matchingNothing(target)` makes. */
export function isMatchingNothing(target: ModelDef, condition: unknown): boolean {
    if (!isObject(condition) || Object.keys(condition).length !== 1) return false;
    const onId = condition[target.idFields[0].name];
    return isObject(onId) && Object.keys(onId).length === 1 && Array.isArray(onId.in) && onId.in.length === 0;
}

/**
 * Whether a to-one nested `update` is Prisma's `{ where?, data }` form rather than the data itself. On a model with a
 * field named `data` both may read alike: Prisma takes the long form only when its `data` holds fields of the model,
 * so `{ data: 'x' }`, `{ data: { set: 'x' } }` or `{ data: <Json value> }` are the data itself (to-one-long-form.ts).
 */
export function isToOneLongForm(target: ModelDef, value: unknown): value is { where?: unknown; data: Data } {
    if (!isObject(value) || !isPlainObject(value.data) || !Object.keys(value).every((k) => k === 'where' || k === 'data')) return false;
    return !target.fields.has('data') || Object.keys(value.data).every((k) => target.fields.has(k));
}

/** A to-one nested `update` is either the data itself or `{ where?, data }` (a to-one `upsert.update` is always the data). */
export function toOneData(target: ModelDef, value: unknown): unknown {
    return isToOneLongForm(target, value) ? value.data : value;
}

type Visit = (write: RelationWrite) => void;

/** `creates`: whether to go into the data of records being created (where `path` is undefined throughout). */
function walk(registry: ModelRegistry, model: ModelDef, data: unknown, place: Place, visit: Visit, creates: boolean): void {
    if (!isObject(data)) return;
    const { path, conditional } = place;
    const created: Place = { path: undefined, conditional };
    const onCondition = (next: Step[] | undefined): Place => ({ path: next, conditional: true });
    for (const [key, ops] of Object.entries(data)) {
        const relation = model.relations.get(key);
        const target = relation && registry.models.get(relation.targetKey);
        if (!relation || !target || !isObject(ops)) continue;
        visit({ model, data, relation, target, ops, place });
        const into = (value: unknown, at: Place) => walk(registry, target, value, at, visit, creates);
        if (creates) {
            for (const item of many(ops.create)) into(item, created);
            for (const item of many(ops.connectOrCreate)) if (isObject(item)) into(item.create, onCondition(undefined));
        }
        if (relation.isArray) {
            for (const item of many(ops.update)) {
                if (isObject(item) && isObject(item.where)) into(item.data, { path: path && [...path, { relation, where: item.where }], conditional });
            }
            for (const item of many(ops.upsert)) {
                if (!isObject(item)) continue;
                if (creates) into(item.create, onCondition(undefined));
                if (isObject(item.where)) into(item.update, onCondition(path && [...path, { relation, where: item.where }]));
            }
        } else {
            if (ops.update !== undefined) into(toOneData(target, ops.update), { path: path && [...path, { relation }], conditional });
            if (isObject(ops.upsert)) {
                if (creates) into(ops.upsert.create, onCondition(undefined));
                into(ops.upsert.update, onCondition(path && [...path, { relation }]));
            }
        }
    }
}

/**
 * Calls `visit` for every relation written by an operation's arguments (`create`, `update`, `upsert`,
 * and their nested writes at any depth), outer ones before the ones nested in them.
 */
export function walkWrites(registry: ModelRegistry, model: ModelDef, op: string, args: Args, visit: Visit): void {
    if (op === 'create') walk(registry, model, args.data, { path: undefined, conditional: false }, visit, true);
    else if (op === 'update') walk(registry, model, args.data, { path: [], conditional: false }, visit, true);
    else if (op === 'upsert') {
        walk(registry, model, args.create, { path: undefined, conditional: true }, visit, true);
        walk(registry, model, args.update, { path: [], conditional: true }, visit, true);
    }
}

/**
 * `walkWrites` for the relations written in records that exist already (those with a `place.path`): nothing
 * for a `create`, and nothing inside the data of a record being created, which holds no update of any kind.
 */
export function walkUpdates(registry: ModelRegistry, model: ModelDef, op: string, args: Args, visit: Visit): void {
    if (op === 'update') walk(registry, model, args.data, { path: [], conditional: false }, visit, false);
    else if (op === 'upsert') walk(registry, model, args.update, { path: [], conditional: true }, visit, false);
}

type Delegate = {
    findUnique(args: Data): Promise<unknown>;
    findFirst(args: Data): Promise<unknown>;
    findMany(args: Data): Promise<unknown>;
    create(args: Data): Promise<unknown>;
    update(args: Data): Promise<unknown>;
    updateMany(args: Data): Promise<unknown>;
};

/** The client's delegate of a model (its key comes from the schema metadata, never from the request). */
export function delegateOf(client: unknown, model: ModelDef): Delegate {
    return (client as Record<string, Delegate>)[model.key];
}
