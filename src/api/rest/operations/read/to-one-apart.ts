import type { CrudContract } from '@zenstackhq/runtime';
import { keysHidden, planOf, type RelationshipPlan } from '../../document/model-plan';
import { whereKey } from '../../payload/identifiers';
import type { RestConfig } from '../../options';
import { includedProjection } from '../../query/select';
import type { Fieldsets, IncludeTree } from '../../query/types';
import type { RestModel } from '../../schema';
import { delegate } from './shared';

/**
 * Included required to-one relationships, read apart from the records that include them.
 *
 * ZenStack cannot leave a required to-one out of a record it returns, so when a read includes one whose
 * target the user may not read, it turns the target's read rule into a filter on the including records:
 * `GET /comment?include=post` would drop the comments on posts the user cannot see from the primary data and
 * from `meta.total`, although `GET /comment` answers them. So such a relationship (`loadedApart` in the model
 * plan) is not nested in the read: the records come with its foreign keys, and its targets are read
 * afterwards by id, one query per relationship and depth, under the same policy. A target the user cannot
 * read is left out of `included`; the linkage still follows the foreign key, as without the include.
 */

type DbRecord = Record<string, unknown>;

/** The values of the target fields a record's foreign keys reference through `r` (`linkKeys`), or undefined when unset. */
function linkedIds(r: RelationshipPlan, record: DbRecord): unknown[] | undefined {
    const values = r.linkKeys!.local.map((f) => record[f]);
    return values.some((v) => v === null || v === undefined) ? undefined : values;
}

/** The projection of `r`'s targets for `sub` and `fields`, with the fields the foreign keys reference. */
function targetProjection(r: RelationshipPlan, sub: IncludeTree, fields: Fieldsets | undefined, config: RestConfig): Record<string, unknown> {
    const projection = includedProjection(r.rel.target, sub, fields, config) as Record<string, unknown>;
    const select = projection.select as Record<string, unknown> | undefined;
    if (!select) return projection;
    return { ...projection, select: { ...select, ...Object.fromEntries(r.linkKeys!.referenced.map((f) => [f, true])) } };
}

/** A filter on the rows whose `names` hold one of the value lists `values` (in the order of `names`). */
function whereAmong(names: readonly string[], values: readonly unknown[][]): DbRecord {
    if (names.length === 1) return { [names[0]]: { in: values.map((v) => v[0]) } };
    return { OR: values.map((v) => Object.fromEntries(names.map((n, i) => [n, v[i]]))) };
}

/**
 * The records of `model` among `records` whose relation `r` the user may read, when a field-level rule decides it:
 * ZenStack tells it by a nested read alone, which leaves a record's relation out when the rule denies it, and the
 * record itself out when the user may not read the target (then the rule cannot be told: not among them either).
 */
async function relationReadable(db: CrudContract, model: RestModel, r: RelationshipPlan, records: readonly DbRecord[]): Promise<Set<string>> {
    const ids = model.idFields.map((f) => f.name);
    const where = whereAmong(ids, records.map((rec) => ids.map((f) => rec[f])));
    const select = { ...Object.fromEntries(ids.map((f) => [f, true])), [r.name]: { select: Object.fromEntries(r.linkKeys!.referenced.map((f) => [f, true])) } };
    const rows = (await delegate(db, model).findMany({ where, select })) as DbRecord[];
    return new Set(rows.filter((row) => row[r.name] !== undefined).map((row) => whereKey({ id: ids.map((f) => row[f]) })));
}

/** Reads the targets of `r` for `records` (of `model`) by id and sets each record's relation field to its target or null. */
async function readApart(
    db: CrudContract,
    model: RestModel,
    r: RelationshipPlan,
    records: readonly DbRecord[],
    sub: IncludeTree,
    fields: Fieldsets | undefined,
    config: RestConfig,
): Promise<void> {
    const target = r.rel.target;
    const wanted = new Map<string, unknown[]>();
    for (const record of records) {
        const ids = linkedIds(r, record);
        if (ids) wanted.set(whereKey({ id: ids }), ids);
    }
    const found = new Map<string, DbRecord>();
    if (wanted.size > 0) {
        const names = r.linkKeys!.referenced;
        const where = whereAmong(names, [...wanted.values()]);
        const rows = (await delegate(db, target).findMany({ where, ...targetProjection(r, sub, fields, config) })) as DbRecord[];
        for (const row of rows) found.set(whereKey({ id: names.map((n) => row[n]) }), row);
        await loadApart(db, target, rows, sub, fields, config, false);
    }
    const readable = r.rel.field.readProtected ? await relationReadable(db, model, r, records) : undefined;
    for (const record of records) {
        const ids = linkedIds(r, record);
        const row = ids && found.get(whereKey({ id: ids }));
        // linkage follows the foreign keys when they are the target's id; else only a readable target gives it. Keys
        // the user may not read tell nothing: no linkage, rather than a null claiming there is no link; nor does a
        // relation whose field-level rule hides it
        if (readable && !readable.has(whereKey({ id: model.idFields.map((f) => record[f.name]) }))) delete record[r.name];
        else if (row) record[r.name] = row;
        else if (r.fkFields && !keysHidden(r, record)) record[r.name] = null;
        else delete record[r.name];
    }
}

const NOTHING_INCLUDED: IncludeTree = new Map();

/**
 * Completes `records` of `model`, read with a projection for `include`, with the relationships read apart,
 * at any depth of the include tree; for `primary` data also the linkage of those not included whose foreign
 * keys are not the target's resource id (under `externalIdMapping`).
 */
export async function loadApart(
    db: CrudContract,
    model: RestModel,
    records: readonly DbRecord[],
    include: IncludeTree | undefined,
    fields: Fieldsets | undefined,
    config: RestConfig,
    primary = true,
): Promise<void> {
    if (records.length === 0) return;
    const plan = planOf(model);
    if (primary) {
        const set = fields?.get(model.type);
        for (const r of plan.linkedApart) {
            if (!include?.has(r.name) && (!set || set.has(r.name))) await readApart(db, model, r, records, NOTHING_INCLUDED, fields, config);
        }
    }
    if (!include || include.size === 0) return;
    for (const [name, sub] of include) {
        const r = plan.relationshipByName.get(name);
        if (!r) continue;
        if (r.loadedApart) {
            await readApart(db, model, r, records, sub, fields, config);
            continue;
        }
        if (sub.size === 0) continue;
        const nested: DbRecord[] = [];
        for (const record of records) {
            const value = record[name];
            if (Array.isArray(value)) nested.push(...(value as DbRecord[]));
            else if (value && typeof value === 'object') nested.push(value as DbRecord);
        }
        await loadApart(db, r.rel.target, nested, sub, fields, config, false);
    }
}

/** A filter on the target a record links to through a relationship read apart (the fields its keys reference), or undefined when unset. */
export function whereOfLinked(r: RelationshipPlan, record: DbRecord): DbRecord | undefined {
    const ids = linkedIds(r, record);
    return ids && Object.fromEntries(r.linkKeys!.referenced.map((f, i) => [f, ids[i]]));
}
