import type { ZodSchemas } from '@zenstackhq/runtime';
import { BadRequestError } from '../common/errors';
import { readThenWriteOptions } from '../common/isolation';
import type { ModelRegistry } from '../common/model-registry';
import type { LoggerConfig, Response } from '../../types';
import { isNotReadable } from '../common/transactions';
import { rerunning } from '../common/rerun';
import { prepareCall, runCall, type PreparedCall } from './call';
import { renderError } from './errors';
import { isPlainObject } from '../common/guards';
import { bodyValue, readBodyArgs } from './input';
import type { ArgLimits } from './limits';
import { checkWriteRecords } from './write-size';
import { checkFilterValues } from './arg-size';
import { MAX_DECIMAL_EXPANSION, type DecimalBudget } from './arg-numbers';
import { findOperation } from './operations';
import { renderResult } from './output';

/**
 * `POST /$transaction/sequential` with a body `[{ model, op, args }, …]`: every entry is checked
 * and decoded first (any problem → 400 before anything runs), then all run in order in one
 * interactive transaction of the request's enhanced client. A failure rolls everything back and
 * answers that operation's error, with its index in `error.failedOperation`. An operation whose write
 * happened but whose result cannot be read back is not a failure: the rest run and commit, and the
 * answer is its 403 RESULT_NOT_READABLE with its index in `error.unreadableOperation`.
 */

const ENTRY_KEYS: ReadonlySet<string> = new Set(['model', 'op', 'args']);

function parseBody(requestBody: unknown): unknown[] {
    const body = bodyValue(requestBody);
    if (body === undefined || body === null) {
        throw new BadRequestError('missing request body: expected [{ "model", "op", "args" }, …]');
    }
    if (!Array.isArray(body)) {
        throw new BadRequestError('invalid request body: a transaction is an array of { "model", "op", "args" }');
    }
    return body;
}

function prepareEntry(
    entry: unknown,
    index: number,
    prisma: unknown,
    registry: ModelRegistry,
    zodSchemas: ZodSchemas | undefined,
    limits: ArgLimits | undefined,
    decimals: DecimalBudget,
): PreparedCall {
    const where = `operation #${index}`;
    if (!isPlainObject(entry)) {
        throw new BadRequestError(`${where}: must be an object { "model", "op", "args" }`);
    }
    for (const key of Object.keys(entry)) {
        if (!ENTRY_KEYS.has(key)) {
            throw new BadRequestError(`${where}: unexpected member "${key}"`);
        }
    }
    const model = typeof entry.model === 'string' ? registry.find(entry.model) : undefined;
    if (!model) {
        throw new BadRequestError(`${where}: unknown model ${JSON.stringify(entry.model ?? null)}`);
    }
    const op = typeof entry.op === 'string' ? findOperation(entry.op) : undefined;
    if (!op) {
        throw new BadRequestError(`${where}: unknown operation ${JSON.stringify(entry.op ?? null)}`);
    }
    const raw = readBodyArgs(entry.args, op.requiresArgs, `arguments of ${where}`);
    try {
        return prepareCall(prisma, registry, model, op, raw, zodSchemas, limits, decimals);
    } catch (err) {
        if (err instanceof Error) {
            err.message = `${where}: ${err.message}`;
        }
        throw err;
    }
}

export interface TransactionOptions {
    maxOperations: number;
    limits?: ArgLimits;
}

type TransactionFn = (fn: (tx: unknown) => Promise<unknown[]>, options?: { isolationLevel: string }) => Promise<unknown[]>;

export async function runSequentialTransaction(
    prisma: unknown,
    requestBody: unknown,
    registry: ModelRegistry,
    zodSchemas: ZodSchemas | undefined,
    logger: LoggerConfig | null | undefined,
    options: TransactionOptions,
): Promise<Response> {
    const entries = parseBody(requestBody);
    if (entries.length === 0) {
        throw new BadRequestError('invalid request body: the transaction has no operations');
    }
    if (entries.length > options.maxOperations) {
        throw new BadRequestError(`too many operations in one transaction (at most ${options.maxOperations})`);
    }
    // the filter values are counted as the entries are prepared: no more than the bound is validated past it
    const maxValues = options.limits?.maxFilterValues;
    let filterValues = 0;
    // the Decimal values of all the operations together may take MAX_DECIMAL_EXPANSION more characters written out
    const decimals: DecimalBudget = { left: MAX_DECIMAL_EXPANSION };
    const calls = entries.map((entry, i) => {
        const call = prepareEntry(entry, i, prisma, registry, zodSchemas, options.limits, decimals);
        filterValues += call.filterValues;
        if (maxValues !== undefined) checkFilterValues(filterValues, maxValues, 'one transaction');
        return call;
    });
    const maxRecords = options.limits?.maxWriteRecords;
    if (maxRecords !== undefined) checkWriteRecords(calls.reduce((sum, c) => sum + c.writeRecords, 0), maxRecords, 'one transaction');

    const $transaction = (prisma as { $transaction?: unknown } | null)?.$transaction;
    if (typeof $transaction !== 'function') {
        throw new Error('the client does not support interactive transactions');
    }
    // the operation running, in the run of the transaction that is answered: a failure names its operation through it
    let current = -1;
    // the first operation whose write happened but whose result cannot be read back (not a failure)
    const found: { unreadable?: { index: number; err: unknown } } = {};
    /** One run of every operation in `tx`; a failure names its operation through `current`. */
    const runAll = async (tx: unknown): Promise<unknown[]> => {
        const out: unknown[] = [];
        for (let i = 0; i < calls.length; i++) {
            current = i;
            try {
                out.push(await runCall(tx, calls[i], true));
            } catch (err) {
                if (!isNotReadable(err)) throw err;
                found.unreadable ??= { index: i, err };
                out.push(undefined);
            }
        }
        current = -1; // a failure from here on is the commit's, not an operation's
        return out;
    };
    const isolation = calls.some((c) => c.readThenWrite) ? readThenWriteOptions(prisma) : undefined;
    /** One run of the whole transaction; nothing of an earlier run's failure is kept (it may fail before any operation runs). */
    const attempt = () => {
        current = -1;
        found.unreadable = undefined;
        return ($transaction as TransactionFn).call(prisma, runAll, isolation);
    };
    try {
        // the whole transaction runs again after losing a race (rerun.ts): a serialization failure or deadlock, an upsert
        // (or connectOrCreate) of a new key another request created meanwhile, a linked record deleted since it was checked
        const results = await rerunning(attempt, { isolation, findsOrCreates: calls.some((c) => c.findsOrCreates), links: true });
        const { unreadable } = found;
        if (unreadable) {
            // committed, as a single write would be: answered like one (403 RESULT_NOT_READABLE)
            const response = renderError(unreadable.err, logger);
            response.body.error.unreadableOperation = unreadable.index;
            return response;
        }
        return renderResult(results, 200);
    } catch (err) {
        const response = renderError(err, logger, registry);
        if (current >= 0) {
            response.body.error.failedOperation = current;
        }
        return response;
    }
}
