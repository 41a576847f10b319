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
}

const READ = { methods: ['GET'], source: 'query', status: 200, requiresArgs: false } as const;
const CREATE = { methods: ['POST'], source: 'body', status: 201, requiresArgs: true } as const;
const UPDATE = { methods: ['PATCH', 'PUT'], source: 'body', status: 200, requiresArgs: true } as const;
const DELETE = { methods: ['DELETE'], source: 'query', status: 200, requiresArgs: false } as const;

const TABLE: readonly OperationSpec[] = [
    { name: 'findMany', ...READ },
    { name: 'findUnique', ...READ },
    { name: 'findFirst', ...READ },
    { name: 'count', ...READ },
    { name: 'aggregate', ...READ },
    { name: 'groupBy', ...READ },
    { name: 'check', ...READ, optional: true },
    { name: 'create', ...CREATE },
    { name: 'createMany', ...CREATE },
    { name: 'createManyAndReturn', ...CREATE, optional: true },
    { name: 'upsert', ...CREATE, status: 200 },
    { name: 'update', ...UPDATE },
    { name: 'updateMany', ...UPDATE },
    { name: 'updateManyAndReturn', ...UPDATE, optional: true },
    { name: 'delete', ...DELETE },
    { name: 'deleteMany', ...DELETE },
];

/** Operations by name (a Map: `constructor`, `__proto__` … are simply absent). */
export const OPERATIONS: ReadonlyMap<string, OperationSpec> = new Map(TABLE.map((op) => [op.name, op]));

export function findOperation(name: string): OperationSpec | undefined {
    return OPERATIONS.get(name);
}

export function allowsMethod(op: OperationSpec, method: string): boolean {
    return op.methods.includes(method.toUpperCase());
}
