import { decodeDate } from '../common/codec';
import { isPlainObject } from '../common/guards';
import type { ModelDef, ModelRegistry, ScalarField } from '../common/model-registry';
import type { Args } from './input';
import { rewrittenCopy } from './relation-set';
import { writeRecords } from './write-records';

/**
 * ZenStack 2.22 decides a create rule that names only the record's own fields from the create's data alone, and
 * compares the values as sent: a DateTime given as an ISO string (which Prisma takes) compared with `now()` as NaN,
 * so `@@deny('create', startsAt < now())` never fired for an untagged string (2.x created the record). The handler
 * sends such strings in write data as `Date`s (every record written: create, createMany, update and upsert data,
 * nested writes at any depth, `{ set }`, scalar lists and their `{ push }`). Only strings Prisma itself takes are
 * turned (RFC 3339 date-times: `2024-06-01T12:00:00Z`, `2024-06-01 12:00:00.5+02:00`); Prisma reads them to the same
 * millisecond, so nothing else changes. Others stay strings, which Prisma refuses as before. Filters are left alone.
 */

/** The date-times Prisma's engine parses (RFC 3339: seconds and an offset required, `T`, `t` or a space between). */
const PRISMA_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** The `Date` to send for a string Prisma reads as one, or undefined (a day that does not exist is Prisma's to refuse). */
function asDate(value: unknown): Date | undefined {
    if (typeof value !== 'string' || !PRISMA_DATE_TIME.test(value)) return undefined;
    try {
        return decodeDate(value);
    } catch {
        return undefined;
    }
}

type Data = Record<string, unknown>;

/** Turns (when `apply`) the strings in `holder[key]`, a DateTime field's value or a list of them; whether any is one. */
function convertIn(holder: Data | unknown[], key: string | number, apply: boolean): boolean {
    const value = (holder as Data)[key as string];
    if (Array.isArray(value)) {
        let found = false;
        value.forEach((_item, i) => {
            found = convertIn(value, i, apply) || found;
        });
        return found;
    }
    const date = asDate(value);
    if (date && apply) (holder as Data)[key as string] = date;
    return date !== undefined;
}

/** A DateTime field's value in write data: the value itself, `{ set }`, or for a scalar list also `{ push }`. */
function convertField(field: ScalarField, data: Data, apply: boolean): boolean {
    const value = data[field.name];
    if (!isPlainObject(value)) return convertIn(data, field.name, apply);
    let found = false;
    for (const op of field.isArray ? ['set', 'push'] : ['set']) {
        if (value[op] !== undefined) found = convertIn(value, op, apply) || found;
    }
    return found;
}

function convert(registry: ModelRegistry, model: ModelDef, op: string, args: Args, apply: boolean): boolean {
    let found = false;
    for (const { model: m, data } of writeRecords(registry, model, op, args)) {
        for (const field of m.scalars.values()) {
            if (field.kind === 'DateTime' && data[field.name] !== undefined) found = convertField(field, data, apply) || found;
        }
    }
    return found;
}

/** The arguments with the DateTime strings of their write data as `Date`s (in a copy), or the arguments themselves when they hold none. */
export function writeDatesAsDates(registry: ModelRegistry, model: ModelDef, op: string, args: Args): Args {
    return rewrittenCopy(args, (a, apply) => convert(registry, model, op, a, apply));
}
