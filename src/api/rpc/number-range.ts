import { BadRequestError, isUnreadableNumberError } from '../common/errors';
import { isObject, isPlainObject, many } from '../common/guards';
import { uniqueConstraint, type ModelDef, type ModelRegistry, type ScalarKind } from '../common/model-registry';
import { isNotReadable } from '../common/transactions';
import type { Args } from './input';
import { toOneData } from './write-walk';

/**
 * SQLite computes an update's `increment`, `decrement`, `multiply` or `divide` past its column's type, where
 * PostgreSQL refuses it (P2020): an `Int` beyond 2^53 was stored, and every later read of the row failed (a 500
 * for every list of the table), or beyond 2^63 it became a float; a `BigInt` past 64 bits became a float read
 * back as 2^63. (A `Float` that overflows becomes ±Infinity there, which reads back as such.) On SQLite such a
 * write runs in a transaction, refused and rolled back when it would take a value out of range:
 * - a field of the rows the call's own `where` names (`update`, `updateMany`, `upsert`): before the write, the
 *   rows among them its operation would take out of range are counted (`{ increment: k }` of an `Int`: those
 *   above 2^53 - 1 - k), an indexed lookup for a unique `where`;
 * - a field a nested write computes: the values out of range are counted over the table before and after.
 * Both counts are made under the user's read rule.
 */

const ARITHMETIC = ['increment', 'decrement', 'multiply', 'divide'];

/** The range a computed value must stay in, per field type: `Int` as far as the client reads it back exactly. */
const RANGES: Partial<Record<ScalarKind, [bigint, bigint]>> = {
    Int: [-BigInt(Number.MAX_SAFE_INTEGER), BigInt(Number.MAX_SAFE_INTEGER)],
    BigInt: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** A field of a model that a write computes from its current value. */
export interface ComputedField {
    model: ModelDef;
    field: string;
    kind: ScalarKind;
    /** The rows of the call's own `where` that the write would take out of range; absent: counted over the table. */
    danger?: Record<string, unknown>;
}

type Found = Map<string, ComputedField>;

/** A bound as the field's filters take it: a number for an `Int`, a bigint for a `BigInt`. */
const asFieldValue = (kind: ScalarKind, b: bigint): number | bigint => (kind === 'Int' ? Number(b) : b);

const floorDiv = (a: bigint, b: bigint): bigint => {
    const q = a / b;
    return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
};
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);

/** An integral operand as a bigint, or undefined (the ORM refuses other operands of an integer field). */
function integral(value: unknown): bigint | undefined {
    if (typeof value === 'bigint') return value;
    return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
}

/**
 * The values `{ op: k }` takes out of `[low, high]`: those above `above` and those below `below`. SQLite divides
 * integers towards zero, so only a negative divisor can leave the range, as a product with -1 does.
 */
function leaving(op: string, k: bigint, range: [bigint, bigint]): { above?: bigint; below?: bigint } {
    const [low, high] = range;
    if (op === 'decrement') return leaving('increment', -k, range);
    if (op === 'increment') return k >= 0n ? { above: high - k } : { below: low - k };
    if (op === 'divide') return k < 0n ? leaving('multiply', -1n, range) : {};
    if (k === 0n) return {};
    return k > 0n ? { above: floorDiv(high, k), below: ceilDiv(low, k) } : { above: floorDiv(low, k), below: ceilDiv(high, k) };
}

/** The filter of the values an update (`{ increment: k }` …) takes out of range: `null` for none, undefined when not known. */
function dangerOf(field: string, kind: ScalarKind, update: Record<string, unknown>): Record<string, unknown> | null | undefined {
    const ops = ARITHMETIC.filter((op) => update[op] !== undefined);
    const k = ops.length === 1 ? integral(update[ops[0]]) : undefined;
    const range = RANGES[kind];
    if (k === undefined || !range) return undefined;
    const [low, high] = range;
    const { above, below } = leaving(ops[0], k, range);
    const parts: Record<string, unknown>[] = [];
    if (above !== undefined && above < high) parts.push({ [field]: above < low ? { not: null } : { gt: asFieldValue(kind, above) } });
    if (below !== undefined && below > low) parts.push({ [field]: below > high ? { not: null } : { lt: asFieldValue(kind, below) } });
    return parts.length === 0 ? null : parts.length === 1 ? parts[0] : { OR: parts };
}

/** A `where` as a filter of the rows it names: a compound unique key (`a_b: { a, b }`) spelled as its fields. */
function asFilter(model: ModelDef, where: unknown): Record<string, unknown> | undefined {
    if (where === undefined) return {};
    if (!isPlainObject(where)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(where)) {
        if ((uniqueConstraint(model, key)?.fields.length ?? 0) > 1 && isPlainObject(value)) Object.assign(out, value);
        else out[key] = value;
    }
    return out;
}

/** Collects the computed fields of `data`; `rows` is the filter of the rows it is written to, when the call's own `where` tells. */
function inData(registry: ModelRegistry, model: ModelDef, data: unknown, found: Found, rows?: Record<string, unknown>): void {
    if (!isObject(data)) return;
    for (const [key, value] of Object.entries(data)) {
        const scalar = model.scalars.get(key);
        if (scalar && RANGES[scalar.kind] && isPlainObject(value) && ARITHMETIC.some((op) => value[op] !== undefined)) {
            const danger = rows ? dangerOf(key, scalar.kind, value) : undefined;
            if (danger === null) continue;
            const computed: ComputedField = { model, field: key, kind: scalar.kind };
            if (danger) computed.danger = { AND: [rows, danger] };
            found.set(`${model.name}.${key}${danger ? '' : ' (table)'}`, computed);
            continue;
        }
        const relation = model.relations.get(key);
        const target = relation && registry.models.get(relation.targetKey);
        if (!target || !isObject(value)) continue;
        const into = (d: unknown) => inData(registry, target, d, found);
        for (const item of many(value.update)) into(relation.isArray ? (isObject(item) ? item.data : undefined) : toOneData(target, item));
        for (const item of many(value.updateMany)) if (isObject(item)) into(item.data);
        for (const item of many(value.upsert)) if (isObject(item)) into(item.update);
    }
}

/** The fields an operation's writes compute from their current values (`{ increment }` …), nested writes included. */
export function computedFields(registry: ModelRegistry, model: ModelDef, op: string, args: Args): ComputedField[] {
    if (op !== 'upsert' && !op.startsWith('update')) return [];
    const found: Found = new Map();
    inData(registry, model, op === 'upsert' ? args.update : args.data, found, asFilter(model, args.where));
    return [...found.values()];
}

type Counter = { count(args: unknown): Promise<number> };

const countOf = (tx: unknown, model: ModelDef, where: Record<string, unknown>) => (tx as Record<string, Counter>)[model.key].count({ where });

async function outOfRange(tx: unknown, fields: ComputedField[]): Promise<number[]> {
    const counts: number[] = [];
    for (const { model, field, kind } of fields) {
        const [low, high] = RANGES[kind]!;
        counts.push(await countOf(tx, model, { OR: [{ [field]: { gt: asFieldValue(kind, high) } }, { [field]: { lt: asFieldValue(kind, low) } }] }));
    }
    return counts;
}

function refusal(f: ComputedField): BadRequestError {
    return new BadRequestError(`the update takes "${f.model.name}.${f.field}" beyond the range of its type (${f.kind}); nothing was written`);
}

/**
 * Runs `write` on `tx` (a transaction) and refuses it when it would take, or took, a computed field out of its
 * type's range. A write whose result cannot be read back has happened: it is checked too, then answered as it was.
 */
export async function keepingInRange<T>(tx: unknown, fields: ComputedField[], write: () => Promise<T>): Promise<T> {
    for (const f of fields) if (f.danger && (await countOf(tx, f.model, f.danger)) > 0) throw refusal(f);
    const table = fields.filter((f) => !f.danger);
    const before = await outOfRange(tx, table);
    let result: T;
    try {
        result = await write();
    } catch (err) {
        // the client failed to read back the row it wrote (an `Int` beyond 2^53): which field, its message says
        // (another column it could not read was so before the write: not this request's doing)
        const computed = isUnreadableNumberError(err) ? fields.find((f) => (err as Error).message.includes(`'${f.field}'`)) : undefined;
        if (computed) throw refusal(computed);
        if (!isNotReadable(err)) throw err;
        await compare(tx, table, before);
        throw err;
    }
    await compare(tx, table, before);
    return result;
}

async function compare(tx: unknown, fields: ComputedField[], before: number[]): Promise<void> {
    const after = await outOfRange(tx, fields);
    const i = after.findIndex((n, k) => n > before[k]);
    if (i >= 0) throw refusal(fields[i]);
}
