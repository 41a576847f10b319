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

/** Calls `visit` with every value in `value` that is neither a list nor a plain object, first to last. */
function eachLeaf(value: unknown, path: string, visit: (leaf: unknown, at: string) => void): void {
    const stack: Array<[unknown, string]> = [[value, path]];
    while (stack.length > 0) {
        const [v, at] = stack.pop()!;
        if (Array.isArray(v)) {
            // pushed last to first, so that the first offending value is the one reported
            for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}.${i}`]);
        } else if (isPlainObject(v)) {
            const entries = Object.entries(v);
            for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], `${at}.${entries[i][0]}`]);
        } else {
            visit(v, at);
        }
    }
}

/**
 * Every number in the value of an `Int` field (an equality, a filter such as `{ in: [...] }` or
 * `{ not: { gt } }`, an update such as `{ increment }`, a scalar list) must be an integer.
 */
export function checkIntegers(value: unknown, path: string): void {
    eachLeaf(value, path, (v, at) => {
        if (typeof v !== 'number') return;
        if (!Number.isInteger(v)) fail(at, 'an integer (the field is an Int)');
        // SQLite stores a larger one, and the client then fails to read the row back: a 500 after the write
        if (!Number.isSafeInteger(v)) fail(at, 'an integer within ±(2^53 - 1) (the field is an Int)');
    });
}

/**
 * Every bigint in the value of a `BigInt` field must fit its 64 bits (the data layer's error names nothing),
 * and a plain number must be a safe integer: a larger one lost digits when the JSON was parsed (2^53 + 1
 * reads as 2^53), and as a key it would name, update or delete the neighbouring record.
 */
export function checkBigInts(value: unknown, path: string): void {
    eachLeaf(value, path, (v, at) => {
        if (typeof v === 'bigint' && !isBigInt64(v)) fail(at, 'a 64-bit integer (the field is a BigInt)');
        if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) {
            fail(at, 'a string or a superjson bigint beyond ±(2^53 - 1): a JSON number that large has lost digits (the field is a BigInt)');
        }
    });
}

/** Every number in the value of a `Float` field must be finite: the client sent NaN and ±Infinity as nothing ("Argument `x` is missing"). */
export function checkFinite(value: unknown, path: string): void {
    eachLeaf(value, path, (v, at) => {
        if (typeof v === 'number' && !Number.isFinite(v)) fail(at, 'a finite number (NaN and Infinity cannot be stored or compared)');
    });
}

/**
 * Every value of a `Decimal` field (a Decimal, a numeric string, a number) must have an exponent the data layer
 * can take: the client writes it out digit by digit, and `"1e900000000"` made it build a string of 900 million
 * characters (the process died of heap exhaustion). A text that is no number is left to the client to report.
 */
export function checkDecimals(value: unknown, path: string): void {
    eachLeaf(value, path, (v, at) => {
        let decimal: Decimal | undefined;
        if (isDecimal(v)) decimal = v;
        else if (typeof v === 'string' || typeof v === 'number') {
            try {
                decimal = new Decimal(typeof v === 'string' ? v.trim() : v);
            } catch {
                return;
            }
        }
        if (decimal && !isDecimalInRange(decimal) && !decimal.isNaN()) fail(at, `${DECIMAL_RANGE_MESSAGE} (the field is a Decimal)`);
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
