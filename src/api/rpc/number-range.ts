import { BadRequestError, isUnreadableNumberError } from '../common/errors';
import { isObject, isPlainObject, many } from '../common/guards';
import type { ModelDef, ModelRegistry, ScalarKind } from '../common/model-registry';
import { providerOf } from '../common/isolation';
import { isNotReadable } from '../common/transactions';
import type { Args } from './input';
import { toOneData } from './write-walk';

/**
 * SQLite computes an update's `increment`, `decrement`, `multiply` or `divide` past its column's type, where
 * PostgreSQL refuses it (P2020): an `Int` beyond 2^53 was stored, and every later read of the row failed (a 500
 * for every list of the table), or beyond 2^63 it became a float; a `BigInt` past 64 bits became a float read
 * back as 2^63. (A `Float` that overflows becomes ±Infinity there, which reads back as such.) On SQLite such a write runs in a transaction that counts the values out
 * of range of each field it computes before and after the write (under the user's read rule), and is refused,
 * rolled back, when there are more after.
 */

const ARITHMETIC = ['increment', 'decrement', 'multiply', 'divide'];

/** The range a computed value must stay in, per field type: `Int` as far as the client reads it back exactly. */
const RANGES: Partial<Record<ScalarKind, [unknown, unknown]>> = {
    Int: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    BigInt: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** A field of a model that a write computes from its current value. */
export interface ComputedField {
    model: ModelDef;
    field: string;
    kind: ScalarKind;
}

type Found = Map<string, ComputedField>;

function inData(registry: ModelRegistry, model: ModelDef, data: unknown, found: Found): void {
    if (!isObject(data)) return;
    for (const [key, value] of Object.entries(data)) {
        const scalar = model.scalars.get(key);
        if (scalar && RANGES[scalar.kind] && isPlainObject(value) && ARITHMETIC.some((op) => value[op] !== undefined)) {
            found.set(`${model.name}.${key}`, { model, field: key, kind: scalar.kind });
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
    const found: Found = new Map();
    if (op === 'upsert') inData(registry, model, args.update, found);
    else if (op.startsWith('update')) inData(registry, model, args.data, found);
    return [...found.values()];
}

/** Whether a call's computed fields must be checked on this client (SQLite only: other databases refuse such values). */
export function checksRange(client: unknown, fields: ComputedField[]): boolean {
    return fields.length > 0 && providerOf(client) === 'sqlite';
}

type Counter = { count(args: unknown): Promise<number> };

async function outOfRange(tx: unknown, fields: ComputedField[]): Promise<number[]> {
    const counts: number[] = [];
    for (const { model, field, kind } of fields) {
        const [low, high] = RANGES[kind]!;
        const delegate = (tx as Record<string, Counter>)[model.key];
        counts.push(await delegate.count({ where: { OR: [{ [field]: { gt: high } }, { [field]: { lt: low } }] } }));
    }
    return counts;
}

function refusal(f: ComputedField): BadRequestError {
    return new BadRequestError(`the update takes "${f.model.name}.${f.field}" beyond the range of its type (${f.kind}); nothing was written`);
}

/**
 * Runs `write` on `tx` (a transaction) and refuses it when it took a computed field out of its type's range.
 * A write whose result cannot be read back has happened: it is checked too, then answered as it was.
 */
export async function keepingInRange<T>(tx: unknown, fields: ComputedField[], write: () => Promise<T>): Promise<T> {
    const before = await outOfRange(tx, fields);
    let result: T;
    try {
        result = await write();
    } catch (err) {
        // the client failed to read back the row it wrote (an `Int` beyond 2^53): which field, its message says
        // (another column it could not read was so before the write: not this request's doing)
        const computed = isUnreadableNumberError(err) ? fields.find((f) => (err as Error).message.includes(`'${f.field}'`)) : undefined;
        if (computed) throw refusal(computed);
        if (!isNotReadable(err)) throw err;
        await compare(tx, fields, before);
        throw err;
    }
    await compare(tx, fields, before);
    return result;
}

async function compare(tx: unknown, fields: ComputedField[], before: number[]): Promise<void> {
    const after = await outOfRange(tx, fields);
    const i = after.findIndex((n, k) => n > before[k]);
    if (i >= 0) throw refusal(fields[i]);
}
