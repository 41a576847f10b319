/**
 * The RPC operation table: every operation the handler accepts, the HTTP methods that may call
 * it, where its arguments come from and the status of a success. Nothing outside this table is
 * ever called on the client.
 */

/** `query`: the `q` (and `meta`) query parameters; `body`: the JSON request body. */
export type ArgsSource = 'query' | 'body';

export interface OperationSpec {
    /** The client method (`findMany`, …). */
    readonly name: string;
    /** Upper-case HTTP methods allowed for it. */
    readonly methods: readonly string[];
    readonly source: ArgsSource;
    /** Status of a successful response. */
    readonly status: number;
    /** Whether arguments are required (a body must be sent). */
    readonly requiresArgs: boolean;
    /** Beyond the spec's table: only offered when the enhanced client has the method. */
    readonly optional?: boolean;
    /**
     * The top-level argument names the client accepts for it. Anything else is a 400 before the client
     * runs: Prisma would reject it too, but ZenStack's policy layer can crash on some of them first.
     */
    readonly argKeys: ReadonlySet<string>;
}

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);
const FIND_MANY = keys('where', 'orderBy', 'cursor', 'take', 'skip', 'distinct', 'select', 'include', 'omit', 'relationLoadStrategy');
const SHAPE = ['select', 'include', 'omit'];
/**
 * `create`, `update` and `upsert` take Prisma's `relationLoadStrategy` too (its `relationJoins` preview feature;
 * ZenStack 2.x reads the result back without it). Prisma 6 refuses it on `delete`.
 */
const RETURNED = [...SHAPE, 'relationLoadStrategy'];

const READ = { methods: ['GET'], source: 'query', status: 200, requiresArgs: false } as const;
const CREATE = { methods: ['POST'], source: 'body', status: 201, requiresArgs: true } as const;
const UPDATE = { methods: ['PATCH', 'PUT'], source: 'body', status: 200, requiresArgs: true } as const;
const DELETE = { methods: ['DELETE'], source: 'query', status: 200, requiresArgs: false } as const;

const AGGREGATES = ['_count', '_avg', '_sum', '_min', '_max'];

const TABLE: readonly OperationSpec[] = [
    { name: 'findMany', ...READ, argKeys: FIND_MANY },
    { name: 'findUnique', ...READ, argKeys: keys('where', 'relationLoadStrategy', ...SHAPE) },
    { name: 'findFirst', ...READ, argKeys: FIND_MANY },
    { name: 'count', ...READ, argKeys: keys('where', 'orderBy', 'cursor', 'take', 'skip', 'distinct', 'select') },
    { name: 'aggregate', ...READ, argKeys: keys('where', 'orderBy', 'cursor', 'take', 'skip', ...AGGREGATES) },
    { name: 'groupBy', ...READ, argKeys: keys('where', 'by', 'orderBy', 'having', 'take', 'skip', ...AGGREGATES) },
    { name: 'check', ...READ, optional: true, argKeys: keys('operation', 'where') },
    { name: 'create', ...CREATE, argKeys: keys('data', ...RETURNED) },
    { name: 'createMany', ...CREATE, argKeys: keys('data', 'skipDuplicates') },
    { name: 'createManyAndReturn', ...CREATE, optional: true, argKeys: keys('data', 'skipDuplicates', ...SHAPE) },
    { name: 'upsert', ...CREATE, status: 200, argKeys: keys('where', 'create', 'update', ...RETURNED) },
    { name: 'update', ...UPDATE, argKeys: keys('where', 'data', ...RETURNED) },
    { name: 'updateMany', ...UPDATE, argKeys: keys('where', 'data', 'limit') },
    { name: 'updateManyAndReturn', ...UPDATE, optional: true, argKeys: keys('where', 'data', 'limit', ...SHAPE) },
    { name: 'delete', ...DELETE, argKeys: keys('where', ...SHAPE) },
    { name: 'deleteMany', ...DELETE, argKeys: keys('where', 'limit') },
];

/** Operations by name (a Map: `constructor`, `__proto__` … are simply absent). */
export const OPERATIONS: ReadonlyMap<string, OperationSpec> = new Map(TABLE.map((op) => [op.name, op]));

export function findOperation(name: string): OperationSpec | undefined {
    return OPERATIONS.get(name);
}

export function allowsMethod(op: OperationSpec, method: string): boolean {
    return op.methods.includes(method.toUpperCase());
}
