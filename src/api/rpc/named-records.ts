import { BadRequestError, failedInDatabase } from '../common/errors';
import { hasOwn, isObject, isPlainObject } from '../common/guards';
import { coveredConstraints, idSelect, type ModelDef, type ScalarField } from '../common/model-registry';
import { keepModelReadRule } from '../common/read-override';
import { delegateOf } from './write-walk';

/**
 * Which records the unique filters of nested writes name, among those the user can see: the guards that check
 * such records (`hidden-nested.ts`, the relation `set` rewrite) ask it for every filter of a request at once.
 * Filters are grouped by target model and by the unique constraint that names the record (`{ id }`, `{ email }`,
 * `{ a_b: { a, b } }`), and each group is looked up with one read of the user's client (`in` on a single field,
 * an `OR` of compound keys), in chunks of `CHUNK` keys: a `connect` of 10,000 posts costs 10 reads, not 10,000.
 * The records read are matched back to the filters by the values of that constraint, compared exactly. A value the
 * user cannot read (a field-level read rule) comes back without it and matches nothing: as for the single read it
 * replaces, where ZenStack guards such a condition, that record is not seen. Where the database compares otherwise
 * (a case-insensitive collation, `@db.Citext`, MySQL's trailing spaces), the read returns a record whose value no
 * filter gave exactly; the filters of that group left unmatched are then looked up alone, as the database compares.
 *
 * A filter that names its record in a way matched here cannot be (a unique field of another kind, a value of the
 * wrong type, no unique constraint at all) is looked up alone, as before; at most `MAX_SINGLE_LOOKUPS` of them per
 * request, more is a 400.
 */

type Data = Record<string, unknown>;

export const MAX_SINGLE_LOOKUPS = 100;
const CHUNK = 1000;

/** The kinds whose values are matched back here (compared as the database compares them). */
const MATCHED_KINDS = new Set(['String', 'Enum', 'Int', 'BigInt', 'Boolean', 'DateTime']);

/** A comparable form of a unique field's value, or undefined when it is not one the field takes as it is. */
function valueKey(field: ScalarField, value: unknown): string | undefined {
    switch (field.kind) {
        case 'String':
        case 'Enum':
            if (typeof value !== 'string') return undefined;
            return field.isUuid ? value.toLowerCase() : value;
        case 'Int':
        case 'BigInt':
            if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return String(value);
            return undefined;
        case 'Boolean':
            return typeof value === 'boolean' ? String(value) : undefined;
        case 'DateTime': {
            const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
            return Number.isNaN(time) ? undefined : String(time);
        }
        default:
            return undefined;
    }
}

/** A unique constraint by which a filter names its record, with the values it gives. */
interface Identifier {
    group: string;
    fields: ScalarField[];
    values: Data;
    key: string;
}

function identifierBy(target: ModelDef, constraint: { name: string; fields: string[] }, item: Data): Identifier | undefined {
    const single = constraint.fields.length === 1;
    const holder = single ? item : hasOwn(item, constraint.name) && !target.fields.has(constraint.name) ? item[constraint.name] : undefined;
    if (!isPlainObject(holder)) return undefined;
    const fields: ScalarField[] = [];
    const values: Data = {};
    const keys: string[] = [];
    for (const name of constraint.fields) {
        const field = target.scalars.get(name);
        if (!field || !MATCHED_KINDS.has(field.kind) || !hasOwn(holder, name)) return undefined;
        const key = valueKey(field, holder[name]);
        if (key === undefined) return undefined;
        fields.push(field);
        values[name] = holder[name];
        keys.push(key);
    }
    return { group: constraint.fields.join('+'), fields, values, key: JSON.stringify(keys) };
}

function isIdConstraint(target: ModelDef, fields: readonly string[]): boolean {
    return fields.length === target.idFields.length && target.idFields.every((f) => fields.includes(f.name));
}

/**
 * The constraint a filter names its record by (the id first), when its values can be matched here. With `exact`,
 * only a filter made of that constraint alone: any other condition in it would have to be checked too.
 */
function identifierOf(target: ModelDef, item: Data, exact: boolean): Identifier | undefined {
    const covered = coveredConstraints(target, item);
    const named = covered.find((c) => isIdConstraint(target, c.fields)) ?? covered[0];
    if (!named) return undefined;
    const id = identifierBy(target, { name: named.key, fields: named.fields }, item);
    // the constraint is one key of the filter: its field, or its compound key
    return id && exact && Object.keys(item).length !== 1 ? undefined : id;
}

/**
 * The ids of the records one group's keys name that the user can see, by key; `inexact` when a record read has
 * values no key gave exactly (the database compares them otherwise).
 */
async function readGroup(client: unknown, target: ModelDef, ids: Identifier[]): Promise<{ found: Map<string, Data>; inexact: boolean }> {
    const fields = ids[0].fields;
    const select: Record<string, true> = { ...idSelect(target) };
    for (const f of fields) select[f.name] = true;
    const found = new Map<string, Data>();
    let inexact = false;
    const distinct = [...new Map(ids.map((i) => [i.key, i])).values()];
    for (let start = 0; start < distinct.length; start += CHUNK) {
        const chunk = distinct.slice(start, start + CHUNK);
        const asked = new Set(chunk.map((i) => i.key));
        const where = fields.length === 1 ? { [fields[0].name]: { in: chunk.map((i) => i.values[fields[0].name]) } } : { OR: chunk.map((i) => i.values) };
        let rows: unknown;
        try {
            rows = await delegateOf(client, target).findMany({ where: keepModelReadRule(target, where), select });
        } catch (err) {
            if (failedInDatabase(err)) throw err;
            continue; // a read the client refuses: none of these records is seen (the write then answers for them)
        }
        for (const row of Array.isArray(rows) ? rows.filter(isObject) : []) {
            const keys = fields.map((f) => valueKey(f, row[f.name]));
            if (keys.some((k) => k === undefined)) continue; // a value the user may not read
            const ids: Data = {};
            for (const f of target.idFields) ids[f.name] = row[f.name];
            const key = JSON.stringify(keys);
            if (!asked.has(key)) inexact = true;
            found.set(key, ids);
        }
    }
    return { found, inexact };
}

function refuseTooManyAlone(count: number): void {
    if (count > MAX_SINGLE_LOOKUPS) {
        throw new BadRequestError(
            `invalid arguments: at most ${MAX_SINGLE_LOOKUPS} records of nested writes may be named otherwise than by a unique field ` +
                `of type String, Int, BigInt, Boolean, DateTime or an enum, given alone and as the database stores it (the id is best); split the request`,
        );
    }
}

export interface NamedFilter {
    target: ModelDef;
    item: unknown;
}

/** How a filter that cannot be matched here is looked up alone: the record's ids, or null when not seen. */
export type SingleLookup = (client: unknown, target: ModelDef, item: Data) => Promise<Data | null | undefined>;

/**
 * For each filter, the ids of the record it names when the user can see it, `null` when not, and `undefined` for
 * a filter that is no object or that `single` could not look up (it threw). `exact`: a filter with conditions
 * beside its unique key is looked up alone (with `single`), since the record must meet them too.
 */
export async function findNamedRecords(client: unknown, filters: readonly NamedFilter[], single: SingleLookup, exact: boolean): Promise<Array<Data | null | undefined>> {
    const out: Array<Data | null | undefined> = filters.map(() => undefined);
    const groups = new Map<ModelDef, Map<string, Array<{ index: number; id: Identifier }>>>();
    const alone: number[] = [];
    filters.forEach(({ target, item }, index) => {
        if (!isObject(item)) return;
        const id = identifierOf(target, item, exact);
        if (!id) {
            alone.push(index);
            return;
        }
        const byConstraint = groups.get(target) ?? new Map<string, Array<{ index: number; id: Identifier }>>();
        groups.set(target, byConstraint);
        const list = byConstraint.get(id.group) ?? [];
        byConstraint.set(id.group, list);
        list.push({ index, id });
    });
    refuseTooManyAlone(alone.length);
    for (const [target, byConstraint] of groups) {
        for (const list of byConstraint.values()) {
            const { found, inexact } = await readGroup(client, target, list.map((l) => l.id));
            for (const { index, id } of list) {
                const record = found.get(id.key);
                if (record === undefined && inexact) alone.push(index);
                else out[index] = record ?? null;
            }
        }
    }
    refuseTooManyAlone(alone.length);
    for (const index of alone) {
        const { target, item } = filters[index];
        try {
            out[index] = (await single(client, target, item as Data)) ?? null;
        } catch (err) {
            if (failedInDatabase(err)) throw err;
            out[index] = undefined;
        }
    }
    return out;
}
