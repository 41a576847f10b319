import type { ScalarField, ScalarKind } from '../../common/model-registry';

/**
 * The filter-operator table for scalar fields. Each entry says which fields it applies to, how
 * its value is read, which databases have it, and how it becomes a Prisma `where` fragment.
 */

export type Where = Record<string, unknown>;

/** How the text of a parameter is read: comma-separated values, the text as one value, exactly two values, or a boolean flag. */
export type Arity = 'values' | 'text' | 'pair' | 'flag';

export interface OperatorInput {
    field: ScalarField;
    /** Typed values (for `values`, `text`, `pair`). */
    values: unknown[];
    /** The flag (for `flag`). */
    flag: boolean;
    /** The database provider (`sqlite`, `postgresql`, …). */
    provider: string;
}

export interface OperatorDef {
    arity: Arity;
    /** Applies to single-valued fields of these kinds (`undefined`: any filterable kind). */
    kinds?: ReadonlySet<ScalarKind>;
    /** Applies to scalar lists (`String[]`) instead of single values. */
    list?: boolean;
    /** Databases that have it; others get 400 `unsupported-feature`. */
    providers?: ReadonlySet<string>;
    /** What it is for, in error messages. */
    describe: string;
    build(input: OperatorInput): Where;
}

const ORDERED = new Set<ScalarKind>(['Int', 'Float', 'BigInt', 'Decimal', 'DateTime', 'String']);
const STRING = new Set<ScalarKind>(['String']);

/** Whether an operator works on the text of a value (LIKE, full-text search): a native uuid column has none. */
export function readsText(def: OperatorDef): boolean {
    return def.kinds === STRING;
}
/** Providers with scalar lists (`has`, `hasEvery`, `hasSome`, `isEmpty`). */
export const LIST_PROVIDERS: ReadonlySet<string> = new Set(['postgresql', 'cockroachdb', 'mongodb']);
/** Providers with Prisma's full-text `search`. */
export const SEARCH_PROVIDERS: ReadonlySet<string> = new Set(['postgresql', 'mysql']);
/** Providers with `mode: 'insensitive'`; elsewhere `contains` is already case-insensitive (SQLite LIKE for ASCII, MySQL collations). */
const INSENSITIVE_MODE: ReadonlySet<string> = new Set(['postgresql', 'cockroachdb', 'mongodb']);

/**
 * Prisma runs `contains`/`startsWith`/`endsWith` as LIKE without escaping the value (prisma/prisma#19506),
 * so `%` and `_` were wildcards: `$contains=100%` matched "100" followed by anything, `$contains=%` every
 * row. Where LIKE's escape character is the backslash (PostgreSQL, CockroachDB, MySQL) they are escaped and
 * match themselves; SQLite's LIKE has no escape character unless the query names one, which Prisma does not.
 */
const BACKSLASH_LIKE: ReadonlySet<string> = new Set(['postgresql', 'cockroachdb', 'mysql']);

function literal(value: unknown, provider: string): unknown {
    return typeof value === 'string' && BACKSLASH_LIKE.has(provider) ? value.replace(/[\\%_]/g, '\\$&') : value;
}

/** A LIKE-based operator (`contains`, `startsWith`, `endsWith`) matching each value literally where the database allows. */
function like(op: string, insensitive = false): (input: OperatorInput) => Where {
    return ({ field, values, provider }) =>
        anyOf(
            field.name,
            values.map((v) => (insensitive && INSENSITIVE_MODE.has(provider) ? { [op]: literal(v, provider), mode: 'insensitive' } : { [op]: literal(v, provider) })),
        );
}

/** `{ f: c1 }` for one condition, `{ OR: [{ f: c1 }, { f: c2 }] }` for several (any-of). */
function anyOf(name: string, conditions: unknown[]): Where {
    return conditions.length === 1 ? { [name]: conditions[0] } : { OR: conditions.map((c) => ({ [name]: c })) };
}

/** Equal to one of the values (Prisma's Boolean filter has no `in`: any-of equals there). */
function inWhere(field: ScalarField, values: unknown[]): Where {
    if (field.kind === 'Boolean' || values.length === 1) {
        return anyOf(field.name, values.map((v) => ({ equals: v })));
    }
    return { [field.name]: { in: values } };
}

/** Equal to none of the values; on optional fields null counts as "not equal" too. */
function notInWhere(field: ScalarField, values: unknown[]): Where {
    const name = field.name;
    let where: Where;
    if (values.length === 1) where = { [name]: { not: values[0] } };
    else if (field.kind === 'Boolean') where = { AND: values.map((v) => ({ [name]: { not: v } })) };
    else where = { [name]: { notIn: values } };
    return field.isOptional ? { OR: [where, { [name]: null }] } : where;
}

function each(op: string): (input: OperatorInput) => Where {
    return ({ field, values }) => anyOf(field.name, values.map((v) => ({ [op]: v })));
}

export const OPERATORS: Readonly<Record<string, OperatorDef>> = Object.freeze({
    lt: { arity: 'values', kinds: ORDERED, describe: 'less than', build: each('lt') },
    lte: { arity: 'values', kinds: ORDERED, describe: 'less than or equal', build: each('lte') },
    gt: { arity: 'values', kinds: ORDERED, describe: 'greater than', build: each('gt') },
    gte: { arity: 'values', kinds: ORDERED, describe: 'greater than or equal', build: each('gte') },
    between: {
        arity: 'pair',
        kinds: ORDERED,
        describe: 'between two values, inclusive',
        build: ({ field, values }) => ({ [field.name]: { gte: values[0], lte: values[1] } }),
    },
    contains: { arity: 'values', kinds: STRING, describe: 'string contains', build: like('contains') },
    icontains: { arity: 'values', kinds: STRING, describe: 'case-insensitive string contains', build: like('contains', true) },
    startsWith: { arity: 'values', kinds: STRING, describe: 'string starts with', build: like('startsWith') },
    endsWith: { arity: 'values', kinds: STRING, describe: 'string ends with', build: like('endsWith') },
    search: {
        arity: 'text',
        kinds: STRING,
        providers: SEARCH_PROVIDERS,
        describe: 'full-text search',
        build: ({ field, values }) => ({ [field.name]: { search: values[0] } }),
    },
    in: { arity: 'values', describe: 'equal to one of', build: ({ field, values }) => inWhere(field, values) },
    notIn: { arity: 'values', describe: 'equal to none of', build: ({ field, values }) => notInWhere(field, values) },
    ne: { arity: 'values', describe: 'not equal', build: ({ field, values }) => notInWhere(field, values) },
    isNull: {
        arity: 'flag',
        describe: 'is null',
        // `equals: null`, not the shorthand `null`: ZenStack 2.x skips a field's read rule for a condition
        // whose value is falsy, so `{ phone: null }` told whether others' hidden phones are null
        build: ({ field, flag }) => ({ [field.name]: flag ? { equals: null } : { not: null } }),
    },
    has: { arity: 'values', list: true, providers: LIST_PROVIDERS, describe: 'list has the value', build: each('has') },
    hasEvery: {
        arity: 'values',
        list: true,
        providers: LIST_PROVIDERS,
        describe: 'list has every value',
        build: ({ field, values }) => ({ [field.name]: { hasEvery: values } }),
    },
    hasSome: {
        arity: 'values',
        list: true,
        providers: LIST_PROVIDERS,
        describe: 'list has some of the values',
        build: ({ field, values }) => ({ [field.name]: { hasSome: values } }),
    },
    isEmpty: {
        arity: 'flag',
        list: true,
        providers: LIST_PROVIDERS,
        describe: 'list is empty',
        build: ({ field, flag }) => ({ [field.name]: { isEmpty: flag } }),
    },
});

/** Plain equality (no operator): `equals`, `in` for several values; on a scalar list, `has` / `hasSome`. */
export function equality({ field, values }: OperatorInput): Where {
    if (field.isArray) {
        return { [field.name]: values.length === 1 ? { has: values[0] } : { hasSome: values } };
    }
    return inWhere(field, values);
}

/** Whether `name` is an operator of the table (own keys only). */
export function findOperator(name: string): OperatorDef | undefined {
    return Object.prototype.hasOwnProperty.call(OPERATORS, name) ? OPERATORS[name] : undefined;
}

export const OPERATOR_NAMES: readonly string[] = Object.keys(OPERATORS).map((k) => `$${k}`);
