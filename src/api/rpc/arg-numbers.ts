import Decimal from 'decimal.js';
import { DECIMAL_RANGE_MESSAGE, isBigInt64, isDecimal, isDecimalInRange } from '../common/codec';
import { INT32_MAX } from '../common/guards';
import { fail } from './arg-walk';
import { isPlainObject } from '../common/guards';

/**
 * Numbers Prisma would silently change. Its client takes a fraction for an `Int` and truncates it
 * (`where: { id: 5.7 }` finds, updates or deletes record 5; `data: { int: 7.9 }` stores 7), and its
 * query compiler wraps `skip`/`take` to 32 bits (`skip: 2 ** 32 + 1` skips one row, `take: 2 ** 32`
 * takes none), with or without zod schemas. Both are refused here with a 400 naming the place, as
 * is an `Int` beyond 2^53, which SQLite would store but the client could not read back.
 */

/** A list or plain object being walked by `eachLeaf`: its items (an object's values, by `keys`) and the next to visit. */
interface Frame {
    at: string;
    items: readonly unknown[];
    keys: readonly string[] | undefined;
    next: number;
}

function frameOf(v: unknown, at: string): Frame | undefined {
    if (Array.isArray(v)) return { at, items: v, keys: undefined, next: 0 };
    if (!isPlainObject(v)) return undefined;
    const keys = Object.keys(v);
    return { at, items: keys.map((k) => v[k]), keys, next: 0 };
}

/**
 * Calls `check` with every value in `value` that is neither a list nor a plain object, first to last, and refuses the
 * first one it finds wanting (`check` says what it should be instead). Iterative (the depth is the client's), and a
 * path is only spelled out for a list or object entered or a value refused: an `in` list of 500,000 numbers costs
 * nothing per number (a pair and a path string each made it 90 MB of garbage).
 */
function eachLeaf(value: unknown, path: string, check: (leaf: unknown) => string | undefined): void {
    const root = frameOf(value, path);
    if (!root) {
        const expected = check(value);
        if (expected !== undefined) fail(path, expected);
        return;
    }
    const stack: Frame[] = [root];
    while (stack.length > 0) {
        const top = stack[stack.length - 1];
        if (top.next >= top.items.length) {
            stack.pop();
            continue;
        }
        const i = top.next++;
        const item = top.items[i];
        const inner = Array.isArray(item) || isPlainObject(item) ? frameOf(item, `${top.at}.${top.keys ? top.keys[i] : i}`) : undefined;
        if (inner) {
            stack.push(inner);
            continue;
        }
        const expected = check(item);
        if (expected !== undefined) fail(`${top.at}.${top.keys ? top.keys[i] : i}`, expected);
    }
}

/**
 * Every number in the value of an `Int` field (an equality, a filter such as `{ in: [...] }` or
 * `{ not: { gt } }`, an update such as `{ increment }`, a scalar list) must be an integer.
 */
export function checkIntegers(value: unknown, path: string): void {
    eachLeaf(value, path, (v) => {
        // a Decimal (superjson's custom type) is truncated as a fraction is: `where: { id: Decimal(2.7) }` deleted record 2
        if (isDecimal(v)) return v.isInteger() && v.abs().lte(Number.MAX_SAFE_INTEGER) ? undefined : 'an integer within ±(2^53 - 1) (the field is an Int)';
        if (typeof v !== 'number') return undefined;
        if (!Number.isInteger(v)) return 'an integer (the field is an Int)';
        // SQLite stores a larger one, and the client then fails to read the row back: a 500 after the write
        if (!Number.isSafeInteger(v)) return 'an integer within ±(2^53 - 1) (the field is an Int)';
        return undefined;
    });
}

/**
 * Every bigint in the value of a `BigInt` field must fit its 64 bits (the data layer's error names nothing),
 * and a plain number must be a safe integer: a larger one lost digits when the JSON was parsed (2^53 + 1
 * reads as 2^53), and as a key it would name, update or delete the neighbouring record.
 */
export function checkBigInts(value: unknown, path: string): void {
    eachLeaf(value, path, (v) => {
        if (typeof v === 'bigint' && !isBigInt64(v)) return 'a 64-bit integer (the field is a BigInt)';
        if (isDecimal(v) && !(v.isInteger() && isBigInt64(BigInt(v.toFixed())))) return 'a 64-bit integer (the field is a BigInt)';
        if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) {
            return 'a string or a superjson bigint beyond ±(2^53 - 1): a JSON number that large has lost digits (the field is a BigInt)';
        }
        return undefined;
    });
}

/** Every number in the value of a `Float` field must be finite: the client sent NaN and ±Infinity as nothing ("Argument `x` is missing"). */
export function checkFinite(value: unknown, path: string): void {
    eachLeaf(value, path, (v) => (typeof v === 'number' && !Number.isFinite(v) ? 'a finite number (NaN and Infinity cannot be stored or compared)' : undefined));
}

/**
 * How many more characters than were sent the Decimal values of one call may take when written out in full: as
 * many as the adapters' default body limit holds (no value a client writes out itself comes near it).
 */
export const MAX_DECIMAL_EXPANSION = 1024 * 1024;

/** What is left of one call's `MAX_DECIMAL_EXPANSION`, spent by `checkDecimals`. */
export interface DecimalBudget {
    left: number;
}

/** The length of `decimal.toFixed()` (how Prisma writes a Decimal out), without building it. */
function writtenLength(decimal: Decimal): number {
    if (decimal.isZero()) return 1;
    const sign = decimal.isNeg() ? 1 : 0;
    const { e } = decimal;
    const digits = decimal.sd();
    if (e < 0) return sign + 2 + (-e - 1) + digits; // 0.000ddd
    const fraction = Math.max(0, digits - (e + 1));
    return sign + e + 1 + (fraction > 0 ? fraction + 1 : 0);
}

/**
 * Every value of a `Decimal` field (a Decimal, a numeric string, a number) must have an exponent the data layer
 * can take: the client writes it out digit by digit, and `"1e900000000"` made it build a string of 900 million
 * characters (the process died of heap exhaustion). A text that is no number is left to the client to report.
 * Within the range, what the values of one call take written out beyond what was sent is spent from `budget`:
 * 116,000 times `"1e1000"` (1 MiB) made Prisma hold 116 million digits in the query plan, and keep them after the
 * answer (the plans of its last 100 queries stay in its debug log).
 */
export function checkDecimals(value: unknown, path: string, budget?: DecimalBudget): void {
    eachLeaf(value, path, (v) => {
        let decimal: Decimal | undefined;
        let sent = 0;
        if (isDecimal(v)) {
            decimal = v;
            sent = v.toString().length;
        } else if (typeof v === 'string' || typeof v === 'number') {
            try {
                decimal = new Decimal(typeof v === 'string' ? v.trim() : v);
            } catch {
                return undefined;
            }
            sent = String(v).length;
        }
        if (!decimal || decimal.isNaN()) return undefined;
        if (!isDecimalInRange(decimal)) return `${DECIMAL_RANGE_MESSAGE} (the field is a Decimal)`;
        if (budget) {
            budget.left -= Math.max(0, writtenLength(decimal) - sent);
            if (budget.left < 0) {
                return `a Decimal the call can take: written out in full, its Decimal values would take more than ${MAX_DECIMAL_EXPANSION} characters beyond those sent (the field is a Decimal)`;
            }
        }
        return undefined;
    });
}

/** Whether an operand is zero in any form a number field's update takes (a number, a bigint, a Decimal, a numeric string). */
function isZero(v: unknown): boolean {
    if (typeof v === 'number') return v === 0;
    if (typeof v === 'bigint') return v === 0n;
    if (isDecimal(v)) return v.isZero();
    if (typeof v !== 'string') return false;
    try {
        return new Decimal(v.trim()).isZero();
    } catch {
        return false; // not a number: the client reports it
    }
}

/**
 * `{ divide: 0 }` in the update of a number field: SQLite's division by zero is NULL, so an optional field
 * was silently emptied (and a required one refused as a null constraint violation); PostgreSQL refuses it
 * with a bare SQLSTATE 22012. A 400 naming the place on both.
 */
export function checkDivisor(value: unknown, path: string): void {
    if (isPlainObject(value) && isZero(value.divide)) fail(`${path}.divide`, 'a number other than 0 (division by zero)');
}

/** `skip` and `take` of a read (top level, or of a nested to-many read at `path`): integers Prisma does not wrap. */
export function checkPaging(args: Record<string, unknown>, path?: string): void {
    const at = (key: string) => (path ? `${path}.${key}` : key);
    const { skip, take } = args;
    if (typeof skip === 'number' && !(Number.isInteger(skip) && skip >= 0 && skip <= INT32_MAX)) {
        fail(at('skip'), `an integer from 0 to ${INT32_MAX}`);
    }
    if (typeof take === 'number' && !(Number.isInteger(take) && Math.abs(take) <= INT32_MAX)) {
        fail(at('take'), `an integer from -${INT32_MAX} to ${INT32_MAX}`);
    }
}
