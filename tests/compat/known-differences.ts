import { EXTENSION_OPERATORS, MODELS, type RestRead, type RpcRead } from './differential-arbitraries';
import type { RestWrite, RpcWrite } from './write-arbitraries';
import type { Body } from './sides';

/**
 * The differences between our read answers and `@zenstackhq/server` 2.22.3's that the differential test
 * (`differential.test.ts`) accepts, each named, with where it is documented. A difference of status or of
 * data that none of them explains fails the test.
 */

export type Answer = { status: number; body: Body };

export interface Difference<R> {
    name: string;
    /** Where a user of 2.x reads about it. */
    documented: string;
    /** The two statuses may differ. */
    status?: (r: R, ours: Answer, upstream: Answer) => boolean;
    /** Both succeed, but the data is not comparable: not compared. */
    data?: (r: R) => boolean;
    /** Holds on this database only (elsewhere both sides answer alike, and are compared). */
    provider?: 'sqlite' | 'postgresql';
}

/** The differences that hold on `provider`'s database. */
export function differencesOn<D extends { provider?: string }>(differences: D[], provider: string | undefined): D[] {
    return differences.filter((d) => d.provider === undefined || d.provider === provider);
}

const RELATIONS = new Set(Object.values(MODELS).flatMap((m) => Object.keys(m.relations)));
const detail = (a: Answer): string => a.body?.errors?.[0]?.detail ?? a.body?.errors?.[0]?.title ?? '';
const filterEntries = (r: RestRead) => Object.entries(r.query).filter(([k]) => k.startsWith('filter['));

/** A to-one relationship at the end of a related or relationship path (`/post/1/author`, `/post/1/relationships/author`). */
function toOneEndpoint(path: string): boolean {
    const parts = path.split('/').filter(Boolean);
    if (parts.length < 3) return false;
    const rel = MODELS[parts[0]]?.relations[parts[parts.length - 1]];
    return rel !== undefined && !rel.many;
}

export const REST_DIFFERENCES: Difference<RestRead>[] = [
    {
        name: 'filter operators 2.22.3 does not have ($in, $ne, $notIn, $isNull, $between)',
        documented: 'README.md (JSON:API handler), docs/migrating.md §5',
        status: (r, _ours, upstream) => upstream.status === 400 && filterEntries(r).some(([k]) => EXTENSION_OPERATORS.some((op) => k.includes(`${op}]`))),
    },
    {
        name: 'an empty filter value is a value (2.22.3 drops the filter)',
        documented: 'docs/migrating.md §5, docs/rest-read.md#filtering-filter',
        status: (r) => filterEntries(r).some(([, v]) => v === ''),
        data: (r) => filterEntries(r).some(([, v]) => v === ''),
    },
    {
        name: 'the handlers refuse what the access policy would not guard (sorts through unreadable records, relation filters under AND/OR/NOT)',
        documented: 'README.md#what-the-handlers-add-to-the-access-policy, docs/migrating.md §3',
        status: (_r, ours) => ours.status === 400 && /may not read|read rules of/.test(detail(ours)),
    },
    {
        name: 'filters and sorts a field cannot take are a 400 (2.22.3 passes them on, and answers an empty page where the policy leaves nothing to read)',
        documented: 'docs/rest-read.md#filtering-filter and #sorting-sort, docs/migrating.md §5',
        status: (_r, ours) =>
            ours.status === 400 &&
            (/does not apply to|cannot be sorted|needs postgresql|needs the Prisma preview feature|compared by equality only/.test(detail(ours)) ||
                // a filter value its field cannot hold (`filter[float]=abc`, `filter[role]=true`, `filter[bytes]=_`)
                (ours.body?.errors?.[0]?.code === 'invalid-value' && /^filter\[/.test(ours.body?.errors?.[0]?.source?.parameter ?? '') && /: expected /.test(detail(ours)))),
    },
    {
        name: 'an empty to-one relationship, or one whose target the user may not read, at its related and relationship endpoints: 200 (2.22.3: 404)',
        documented: 'docs/migrating.md §5',
        status: (r, ours, upstream) => toOneEndpoint(r.path) && ours.status === 200 && upstream.status === 404,
    },
    {
        name: '$icontains on SQLite (2.22.3 sends Prisma `mode: insensitive`, which SQLite refuses: 400)',
        documented: 'docs/rest-read.md#filtering-filter, docs/migrating.md §5',
        status: (r, _ours, upstream) => upstream.status === 400 && filterEntries(r).some(([k]) => k.includes('$icontains]')),
    },
    {
        name: 'a DateTime filter value without a time (2.22.3 hands `2024-01-01` to Prisma, which refuses it)',
        documented: 'docs/rest-read.md#filtering-filter, docs/migrating.md §5',
        status: (r, _ours, upstream) => upstream.status === 400 && filterEntries(r).some(([, v]) => /^\d{4}-\d{2}-\d{2}$/.test(v)),
    },
    {
        name: "2.22.3's serializer fails on include paths of related endpoints and on a fieldset naming an included relationship (400 \"Relationship … doesn't exist\")",
        documented: 'docs/migrating.md §5',
        status: (_r, _ours, upstream) => upstream.status === 400 && /^Relationship \w+\.\w+ doesn't exist$/.test(detail(upstream)),
    },
    {
        name: "a relationship filter beside other filters applies the related records' read rules, as alone (2.22.3 joins them under AND, where ZenStack applies none)",
        documented: 'README.md#what-the-handlers-add-to-the-access-policy, docs/migrating.md §3',
        data: (r) => filterEntries(r).length > 1 && filterEntries(r).some(([k]) => RELATIONS.has(/^filter\[(\w+)\]/.exec(k)?.[1] ?? '')),
    },
    {
        name: '$isEmpty on a to-many relationship (2.22.3 reads the value as a related id)',
        documented: 'docs/rest-read.md#filtering-filter, docs/migrating.md §5',
        status: (r) => filterEntries(r).some(([k]) => RELATIONS.has(/\[(\w+)\$isEmpty\]$/.exec(k)?.[1] ?? '')),
        data: (r) => filterEntries(r).some(([k]) => RELATIONS.has(/\[(\w+)\$isEmpty\]$/.exec(k)?.[1] ?? '')),
    },
    {
        name: 'BigInt and Decimal filter values a JavaScript number cannot hold (2.22.3 reads them with parseInt/parseFloat: 9007199254740993 matches 9007199254740992)',
        documented: 'docs/rest-read.md#filtering-filter, docs/migrating.md §5',
        data: (r) => filterEntries(r).some(([k, v]) => /\[(bigInt|decimal)(\$\w+)?\]$/.test(k) && v.split(',').some((part) => String(Number(part)) !== part)),
    },
    {
        name: 'several comma-separated values of an operator are any-of, as the spec says of every filter (2.22.3 takes `$lt=1,4` as `lt: 1` and `$contains=a,b` as the text "a,b")',
        documented: 'docs/rest-read.md#filtering-filter, docs/migrating.md §5',
        data: (r) => filterEntries(r).some(([k, v]) => /\$(lt|lte|gt|gte|contains|icontains|startsWith|endsWith)\]$/.test(k) && v.includes(',')),
    },
    {
        name: '`$contains`, `$icontains`, `$startsWith` and `$endsWith` match `%`, `_` and `\\` literally on PostgreSQL (2.22.3 hands them to Prisma, whose LIKE takes them as wildcards: `$contains=%` matched every row)',
        documented: 'docs/rest-read.md#filtering-filter, docs/migrating.md §5',
        data: (r) => filterEntries(r).some(([k, v]) => /\$(contains|icontains|startsWith|endsWith)\]$/.test(k) && /[%_\\]/.test(v)),
        // on SQLite both leave them wildcards
        provider: 'postgresql',
    },
];

/** A relation filter under `AND` somewhere in `where` of `model` (the handlers move it up, where the policy guards it). */
function relationUnderAnd(model: string, where: unknown, underAnd = false): boolean {
    if (Array.isArray(where)) return where.some((w) => relationUnderAnd(model, w, underAnd));
    if (where === null || typeof where !== 'object') return false;
    return Object.entries(where).some(([key, value]) => {
        if (key === 'AND' || key === 'OR' || key === 'NOT') return relationUnderAnd(model, value, underAnd || key === 'AND');
        const rel = MODELS[model].relations[key];
        if (!rel) return false;
        if (underAnd) return true;
        const inner = value && typeof value === 'object' ? Object.values(value) : [];
        return inner.some((v) => relationUnderAnd(rel.target, v)) || relationUnderAnd(rel.target, value);
    });
}

/** An empty relation filter (`post: {}`) under `NOT` or `OR`, anywhere in `where`. */
function emptyRelationUnderNotOr(model: string, where: unknown, under = false): boolean {
    if (Array.isArray(where)) return where.some((w) => emptyRelationUnderNotOr(model, w, under));
    if (where === null || typeof where !== 'object') return false;
    return Object.entries(where).some(([key, value]) => {
        if (key === 'AND' || key === 'OR' || key === 'NOT') return emptyRelationUnderNotOr(model, value, under || key !== 'AND');
        const rel = MODELS[model].relations[key];
        if (!rel || !value || typeof value !== 'object') return false;
        if (under && Object.keys(value).length === 0) return true;
        return Object.values(value).some((v) => emptyRelationUnderNotOr(rel.target, v, under)) || emptyRelationUnderNotOr(rel.target, value, under);
    });
}

/** `{}` (a Date, a Decimal or a Buffer has no keys either, but is a value: a condition). */
const isEmptyObject = (v: unknown) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype && Object.keys(v).length === 0;

/**
 * An empty condition in a filter of `model` (a member `{}` of `AND`/`OR`/`NOT`, `AND: []`, `NOT: []`, `AND: {}`,
 * `NOT: {}`, a field filter `{}`), or an `OR: []`, at any depth: no condition for ours, as Prisma documents (an `OR`
 * of nothing: no row, wherever it is); "true" for 2.22.3 where ZenStack puts the read rules into a relation filter.
 * Relation filters (`posts: { some: {} }`) are not empty ones.
 */
function emptyCondition(model: string, where: unknown): boolean {
    if (where === null || typeof where !== 'object' || Array.isArray(where)) return false;
    return Object.entries(where).some(([key, value]) => {
        if (key === 'AND' || key === 'OR' || key === 'NOT') {
            const members = Array.isArray(value) ? value : [value];
            return members.length === 0 || members.some((m) => isEmptyObject(m) || emptyCondition(model, m));
        }
        const rel = MODELS[model]?.relations[key];
        if (!rel) return isEmptyObject(value);
        if (value === null || typeof value !== 'object') return false;
        const ops = ['some', 'every', 'none', 'is', 'isNot'].filter((op) => op in value);
        return ops.length > 0 ? ops.some((op) => emptyCondition(rel.target, (value as Record<string, unknown>)[op])) : emptyCondition(rel.target, value);
    });
}

/** `emptyCondition` in any filter of a read's arguments: its `where`, and those of nested reads and relation counts. */
function emptyConditionIn(model: string, args: unknown): boolean {
    return someRead(model, args, (m, a) => emptyCondition(m, a.where) || relationCounts(a).some(([rel, where]) => MODELS[m]?.relations[rel] && emptyCondition(MODELS[m].relations[rel].target, where)));
}

/** The `where` of each relation count of a read (`_count: { select: { posts: { where } } }` in its `include`/`select`). */
function relationCounts(a: Record<string, unknown>): [string, unknown][] {
    return ['include', 'select'].flatMap((k) => {
        const count = (a[k] as { _count?: { select?: Record<string, unknown> } | null } | null | undefined)?._count;
        const select = count?.select ?? {};
        return Object.entries(select).map(([rel, v]): [string, unknown] => [rel, (v as { where?: unknown } | null)?.where]);
    });
}

/** Whether `test` holds for a read's arguments (of `model`) or for those of a read nested in its `include`/`select`, at any depth. */
function someRead(model: string, args: unknown, test: (model: string, a: Record<string, unknown>) => boolean): boolean {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return false;
    const a = args as Record<string, unknown>;
    if (test(model, a)) return true;
    return ['include', 'select'].some((k) => {
        const shape = a[k];
        if (shape === null || typeof shape !== 'object') return false;
        return Object.entries(shape).some(([name, value]) => {
            const rel = MODELS[model]?.relations[name];
            return rel !== undefined && someRead(rel.target, value, test);
        });
    });
}

/**
 * The records of the seeded database that exist but that a user may not read, by `${user}:${model}` (ids as JSON),
 * filled by the read differential before it runs (`noteHiddenRecords`).
 */
const HIDDEN_RECORDS = new Map<string, Set<string>>();

export function noteHiddenRecords(user: number | undefined, model: string, ids: unknown[]): void {
    HIDDEN_RECORDS.set(`${user}:${model}`, new Set(ids.map((id) => JSON.stringify(id))));
}

/** A cursor (of the call, or of a nested read) naming a record `user` may not read. */
function cursorOnHidden(model: string, args: unknown, user: number | undefined): boolean {
    return someRead(model, args, (m, a) => {
        const cursor = a.cursor as Record<string, unknown> | undefined;
        return cursor !== null && typeof cursor === 'object' && HIDDEN_RECORDS.get(`${user}:${m}`)?.has(JSON.stringify(cursor.id)) === true;
    });
}

export const RPC_DIFFERENCES: Difference<RpcRead>[] = [
    {
        name: 'a cursor naming a record the user may not read is read as one on no record (2.22.3 starts the page at the hidden row, which tells that it exists and, through the order, its values)',
        documented: 'README.md#what-the-handlers-add-to-the-access-policy',
        data: (r) => cursorOnHidden(r.model, r.args, r.user),
    },
    {
        name: 'the handlers refuse what the access policy would not guard (ordering by counts or through unreadable records, relation filters under OR/NOT)',
        documented: 'README.md#what-the-handlers-add-to-the-access-policy, docs/migrating.md §3',
        status: (_r, ours) => ours.status === 400 && /is not supported.*(may not read|read rules of)/.test(ours.body?.error?.message ?? ''),
    },
    {
        name: 'a relation filter under AND is moved to the top of its filter, where the policy guards it (2.22.3 applies no read rule there)',
        documented: 'README.md#what-the-handlers-add-to-the-access-policy',
        data: (r) => relationUnderAnd(r.model, r.args.where),
    },
    {
        name: 'an empty relation filter (`post: {}`) under NOT or OR means "has a related record", as at the top of a filter (Prisma drops the empty condition there; 2.22.3 answers count and findMany differently)',
        documented: 'docs/rpc.md (filters on the key a row holds, under AND/OR/NOT)',
        data: (r) => emptyRelationUnderNotOr(r.model, r.args.where),
    },
    {
        name: "empty conditions (`{}`, a field filter `{}`, `AND: []`, `NOT: []`) are no condition, as Prisma documents, in relation filters too (2.22.3 reads `{}` there as true, or hands Prisma an argument it refuses: 400)",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (empty conditions)',
        status: (r, ours, upstream) =>
            emptyConditionIn(r.model, r.args) &&
            ((ours.status === 200 && upstream.status === 400 && /Argument `OR`: Invalid value provided|Unknown argument `AND`/.test(upstream.body?.error?.message ?? '')) ||
                // an OR member `{}` made 2.22.3 drop the whole OR, an invalid condition beside it included
                (ours.status === 400 && upstream.status === 200 && /^(Unknown argument|Invalid value|Argument `\w+`)/.test(ours.body?.error?.message ?? ''))),
        data: (r) => emptyConditionIn(r.model, r.args),
    },
];

/**
 * The answer of 2.22.3 as ours writes it where both mean the same: Bytes as Base64 (done by `bytesAsSpec`) and
 * no `referentialEqualities` (each typed value written where it is; docs/migrating.md §4).
 */
export function withoutReferentialEqualities(body: Body): Body {
    if (body?.meta?.serialization?.referentialEqualities) delete body.meta.serialization.referentialEqualities;
    return body;
}

/**
 * Where 2.22.3 leaves out included resources that ours includes (docs/migrating.md §5): below a sparse
 * fieldset of a type on the path (it selects the fieldset's columns in place of the nested include), and
 * after an include path that a later, shorter one repeats (`include=post.author,post`: the later `post`
 * replaces the nested include).
 */
export function upstreamDropsIncludes(query: Record<string, string>): boolean {
    if (Object.keys(query).some((k) => k.startsWith('fields['))) return true;
    const paths = (query.include ?? '').split(',');
    return paths.some((p, i) => paths.slice(0, i).some((earlier) => earlier.startsWith(`${p}.`)));
}

// ---------------------------------------------------------------- writes (differential-writes.test.ts)

/**
 * A write difference may also excuse different rows afterwards (ours refused what 2.22.3 wrote, on purpose), or
 * hold only where ours wrote nothing (`writesNothing`: checked against the rows before the request) or made the
 * same write (`sameRows`).
 */
export interface WriteDifference<R> extends Difference<R> {
    rows?: (r: R, ours: Answer, upstream: Answer) => boolean;
    writesNothing?: boolean;
    /** The statuses differ but both made the same write: the rows after are compared all the same. */
    sameRows?: boolean;
    /** Wherever `status` holds, the rows may differ too (`rows` with the same condition). */
    rowsToo?: boolean;
}

type Rows = Record<string, Record<string, unknown>[]> | undefined;

/**
 * Rows compared as both sides hold them, but for what differs by design: a `@password` column holds a bcrypt
 * hash with a random salt (compared as "a hash"), and a DateTime stamped with the current time (`now()`) is
 * compared as "now".
 */
export function sameState(a: Rows, b: Rows): boolean {
    const norm = (rows: Rows) =>
        JSON.stringify(rows, (_k, v) => {
            if (typeof v === 'string' && /^\$2[aby]\$\d\d\$/.test(v)) return 'bcrypt';
            if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && Math.abs(Date.parse(v) - Date.now()) < 3_600_000) return 'now';
            if (typeof v === 'number' && Math.abs(v - Date.now()) < 3_600_000) return 'now';
            return v;
        });
    return norm(a) === norm(b);
}

/** `value` with what `sameState` compares loosely made equal (timestamps of now, bcrypt hashes), for comparing answers. */
export function withoutNow<T>(value: T): T {
    return JSON.parse(
        JSON.stringify(value, (_k, v) => (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && Math.abs(Date.parse(v) - Date.now()) < 3_600_000 ? 'now' : v)),
    );
}

/** Whether 2.22.3's denial names a record that `r` disconnects (`entity {"id":3} failed policy check`). */
function disconnectsDenied(r: RpcWrite, message: string): boolean {
    const denied = /entity (\{[^}]*\}) failed policy check/.exec(message)?.[1];
    if (!denied) return false;
    const args = JSON.stringify(r.args);
    const escaped = denied.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // `"disconnect":{"id":3}`, or a list holding it
    return args.includes(`"disconnect":${denied}`) || new RegExp(`"disconnect":\\[[^\\]]*${escaped}`).test(args);
}

export const RPC_WRITE_DIFFERENCES: WriteDifference<RpcWrite>[] = [
    {
        name: 'upsert answers 200 (2.22.3: 201)',
        documented: 'docs/migrating.md §4',
        status: (r, ours, upstream) => r.op === 'upsert' && ours.status === 200 && upstream.status === 201,
    },
    {
        name: 'a record the user cannot read, updated, deleted or named by a nested write, answers as a missing one: 404 (2.22.3: 403, the 422 of a nested write\'s validation, or 200 for an empty nested update of a hidden record, which writes nothing)',
        documented: 'docs/migrating.md §4, docs/rpc.md#differences-from-zenstackhqserver-2x',
        // the 422 only where the harness saw, before the write, that the record is there and hidden (`hiddenTarget`):
        // 2.22.3 answers a missing record 404, so its 422 told that the hidden one exists
        status: (r, ours, upstream) =>
            ours.status === 404 &&
            (upstream.status === 403 ||
                (upstream.status === 422 && upstream.body?.error?.rejectedByValidation === true && r.op !== 'upsert' && r.hiddenTarget === true) ||
                (upstream.status < 300 && EMPTY_NESTED_UPDATE.test(JSON.stringify(r.args)))),
        // a nested upsert of a hidden record runs its create, which the write's rules may refuse (nothing written) where
        // 2.22.3 ran its update and answered 403 RESULT_NOT_READABLE after writing
        rows: (r, ours, upstream) => ours.status === 403 && rpcNotReadable(upstream) && /"upsert":\{"where"/.test(JSON.stringify(r.args)),
    },
    {
        name: "a to-many disconnect naming a record the user cannot read answers as for a missing one, which Prisma's disconnect passes over: 2xx (2.22.3: the 403 of that record's update rule, naming it)",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (records the user cannot read, named by nested writes)',
        // found by the write differential, seed 113068 (2026-12-01): `user.update({ data: { posts: { disconnect: [{ id: 3 }] } } })`
        // as Alice, post 3 being Bob's draft; post 99 (missing) is a 200 on both sides
        status: (r, ours, upstream) => ours.status < 300 && upstream.status === 403 && disconnectsDenied(r, rpcMessage(upstream)),
        rowsToo: true,
    },
    {
        name: 'updateMany, updateManyAndReturn and a nested updateMany setting a @password field are a 400 (2.22.3 stores the value unhashed, or answers its policy refusal)',
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x',
        // found by the write differential in CI (2026-12-01, seed 20240501): `user.updateMany({ data: { password } })`
        status: (_r, ours) => ours.status === 400 && /a @password field that ZenStack stores unhashed there/.test(rpcMessage(ours)),
        rowsToo: true,
    },
    {
        name: 'links of a many-to-many relation from a model to itself are checked under both records\' update rules (2.22.3 checks none, and answers what the ORM says next)',
        documented: 'docs/migrating.md §3, docs/rpc.md#differences-from-zenstackhqserver-2x',
        status: (r, ours) => ours.status === 403 && SELF_MANY_TO_MANY.test(JSON.stringify(r)),
        rowsToo: true,
    },
    {
        name: 'a top-level upsert with guarded nested writes, on a record the user cannot read, runs its create as for a missing record (2.22.3 runs the update: 403, the 422 of its validation, or its success)',
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (a top-level upsert whose where names a record the user cannot read)',
        // only where the harness saw, before the write, that the record is there and hidden from the user (`hiddenTarget`)
        // (or 2.22.3's update fails on a nested write, 404, or passes, where ours runs a create that its rules, its
        // validation or the ORM refuse: a 4xx, which the harness checks wrote nothing)
        status: (r, ours, upstream) =>
            r.op === 'upsert' &&
            r.hiddenTarget === true &&
            ((upstream.status === 403 && ours.status !== 403) ||
                (upstream.status === 422 && upstream.body?.error?.rejectedByValidation === true && ours.status !== 422) ||
                (upstream.status === 404 && ours.status >= 400 && ours.status < 500 && ours.status !== 404) ||
                (upstream.status < 300 && ours.status >= 400 && ours.status < 500)),
        // its create may also be one the user cannot read back (403 RESULT_NOT_READABLE, the record kept)
        // (2.22.3's update may also have written and answered 403 RESULT_NOT_READABLE where ours, creating, was refused)
        rows: (r, ours, upstream) =>
            r.op === 'upsert' && r.hiddenTarget === true && upstream.status === 403 && (ours.status !== 403 || rpcNotReadable(ours) || rpcNotReadable(upstream)),
    },
    {
        name: 'a filter on an @omit field is a 400, in writes too (ZenStack filters on it unguarded; 2.22.3 passes it on)',
        documented: 'README.md#what-the-handlers-add-to-the-access-policy, docs/rpc.md (filters on @omit fields)',
        status: (_r, ours) => ours.status === 400 && OMIT_FILTER.test(rpcMessage(ours)),
        rowsToo: true,
    },
    {
        name: 'a one-to-one link to a record linked to another one is the unique violation of its key, before rules ZenStack checks after the insert (2.22.3, linking by connect, checks them first: 403, or detaches the other record unchecked: 200)',
        documented: 'docs/migrating.md §3 (refusals that hold for any user), docs/rpc.md (one-to-one)',
        status: (r, ours, upstream) => ours.status === 400 && ours.body?.error?.code === 'P2002' && (upstream.status === 403 || (upstream.status < 300 && links(r))),
        rows: (r, ours, upstream) => ours.status === 400 && ours.body?.error?.code === 'P2002' && upstream.status < 300 && links(r),
        writesNothing: true,
    },
    {
        name: "a relation `set` checks the update rule of each member it detaches (2.22.3's `set` checked none): 403 and nothing written",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (a relation set), docs/migrating.md §3',
        status: (r, ours, upstream) => ours.status === 403 && upstream.status < 300 && /"set":/.test(JSON.stringify(r.args)),
        rows: (r, ours, upstream) => ours.status === 403 && (upstream.status < 300 || rpcNotReadable(upstream)) && /"set":/.test(JSON.stringify(r.args)),
        writesNothing: true,
    },
    {
        name: "a relation `set` checks only the members whose link changes: one listed that is already a member is not checked (2.22.3 checked the update rule of every member listed: 403 where it denies one)",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (a relation set)',
        // (ours wrote: answered, or refused after writing where the user can no longer read the record)
        status: (r, ours, upstream) => (ours.status < 300 || rpcNotReadable(ours)) && upstream.status === 403 && deniedSetMember(r, rpcMessage(upstream)),
        rowsToo: true,
    },
    {
        name: "2.22.3 fails inside its own ORM call (a 400, or a 404 for a record its call did not find, quoting the ORM's invocation) where ours answers",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (unexpected errors, ORM validation messages)',
        status: (_r, ours, upstream) => ours.status < 500 && (upstream.status === 400 || upstream.status === 404) && /Invalid `[^`]*` invocation/.test(rpcMessage(upstream)),
        // ours wrote what 2.22.3 could not: its rows are not comparable
        rows: (_r, ours, upstream) => ours.status < 300 && (upstream.status === 400 || upstream.status === 404) && /Invalid `[^`]*` invocation/.test(rpcMessage(upstream)),
    },
    {
        name: 'a filter on a field with a field-level read rule in the where of a single-record or nested write is a 400 (2.22.3 applies no read rule there: a right guess writes, a wrong one does not)',
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (filters on fields with field-level read rules in the where of writes)',
        status: (_r, ours) => ours.status === 400 && /cannot be used for filtering a write: reading it is restricted by the access policy$/.test(rpcMessage(ours)),
        rowsToo: true,
    },
    {
        name: "a connectOrCreate whose where names a record the user cannot read creates, as for a missing one (2.22.3 finds it and checks its update rule: 403, or links it); a create that takes the hidden record's key is the unique violation",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (records the user cannot read, named by nested writes)',
        // (its create may also be refused by another rule of the write, where 2.22.3 answered the hidden record's 403 first)
        status: (r, ours, upstream) =>
            JSON.stringify(r.args).includes('"connectOrCreate"') &&
            ((ours.status < 300 && upstream.status === 403) || hiddenKeyTaken(ours, upstream) || laterRefusal(ours, upstream)),
        // an anonymous request naming a user (whom only signed-in users read, in the blog) in a connectOrCreate: ours
        // creates the new one, 2.22.3 links the existing one, both 2xx
        data: anonymousUserConnectOrCreate,
        rows: (r, ours, upstream) => ours.status < 300 && upstream.status < 300 && anonymousUserConnectOrCreate(r),
        rowsToo: true,
    },
    {
        name: "a relation given both a create and a connectOrCreate naming a record the user cannot read holds two creates, which ZenStack merges into arguments Prisma refuses: 400 (2.22.3: the hidden record's 403, or it links the hidden record)",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (records the user cannot read, named by nested writes)',
        status: (r, ours, upstream) =>
            ours.status === 400 &&
            (upstream.status === 403 || upstream.status < 300) &&
            /^(Argument `create`: Invalid value provided|Unknown argument `\w+`)/.test(rpcMessage(ours)) &&
            /"create":.*"connectOrCreate":|"connectOrCreate":.*"create":/.test(JSON.stringify(r.args)),
        writesNothing: true,
    },
    {
        name: "a one-to-one link by its key to a record the write creates and the user may not read back is a 400 asking for separate writes, before the rules of the write that links it (2.22.3: their 403)",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (one-to-one)',
        status: (_r, ours, upstream) => ours.status === 400 && upstream.status === 403 && /cannot be read back to link it by its foreign key; create it in a separate write$/.test(rpcMessage(ours)),
        writesNothing: true,
    },
    {
        name: 'a nested upsert whose where names a record linked to another parent finds nothing, as with Prisma alone: its create runs (2.22.3 answered 200, or 201 for an upsert, without writing, or failed inside its ORM call)',
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (records named by nested writes)',
        // (ours: that create, or its unique violation; 2.22.3: 200 (201 for an upsert) without writing, or a failure inside its ORM call)
        status: (r, ours, upstream) => upsertOfAnotherParent(r, ours, upstream),
        // where that create succeeds, ours wrote what 2.22.3 did not
        rows: (r, ours, upstream) => ours.status < 300 && upsertOfAnotherParent(r, ours, upstream),
    },
    {
        name: "a relation `set` naming a record that does not exist is refused as a `connect` of it: 404 P2018, nothing written (Prisma skips the missing members of a one-to-many `set`, and so did 2.22.3 where ZenStack checks no update rule on the member: 200, the other members detached)",
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (a relation set)',
        status: (r, ours, upstream) => ours.status === 404 && ours.body?.error?.code === 'P2018' && upstream.status < 300 && /"set":/.test(JSON.stringify(r.args)),
        rowsToo: true,
        writesNothing: true,
    },
    {
        name: 'a connect naming a record that a connectOrCreate or create beside it makes in the same write is looked up before the write: 404 (2.22.3, as Prisma, runs the create first and links it)',
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x (records named by nested writes)',
        status: (r, ours, upstream) =>
            ours.status === 404 && upstream.status < 300 && /No '\w+' record .*was found for a nested connect/.test(rpcMessage(ours)) && connectBesideCreate(r),
        rows: (r, ours, upstream) => ours.status === 404 && upstream.status < 300 && connectBesideCreate(r),
        writesNothing: true,
    },
    {
        name: 'writes ZenStack 2.x runs without their rules are a 400: inside the create of a connectOrCreate beyond the record it creates, relation writes in a nested upsert\'s update branch, fields with update rules in a nested updateMany, a one-to-one link beside other writes on the same relation (rpc.md: write them separately)',
        documented: 'docs/rpc.md#differences-from-zenstackhqserver-2x, docs/migrating.md §4',
        status: (_r, ours) => ours.status === 400 && rpcUncheckedWrite(ours),
        rowsToo: true,
    },
];

/** A nested update with empty data, to-one (`update: {}`) or to-many (`update: { where: <unique filter>, data: {} }`). */
const EMPTY_NESTED_UPDATE = /"update":\{(\}|"where":\{(?:[^{}]|\{[^{}]*\})*\},"data":\{\}\})/;
/** The self many-to-many relations of the differential schemas (`zoo-schema.ts`). */
const SELF_MANY_TO_MANY = /\b(friends|friendOf)\b/;
/** Whether a write holds a `connect` beside a `create` or `connectOrCreate`. */
const connectBesideCreate = (r: RpcWrite): boolean => /"connect":.*"(connectOrCreate|create)":|"(connectOrCreate|create)":.*"connect":/.test(JSON.stringify(r.args));
/** Whether a write links records (`connect`, `connectOrCreate`). */
const links = (r: RpcWrite): boolean => /"connect(OrCreate)?":/.test(JSON.stringify(r.args));
const rpcMessage = (a: Answer): string => a.body?.error?.message ?? '';

/** The record ZenStack names in a denied update check (`… failed 'update' check, entity {"id":1} failed policy check`). */
const UPDATE_CHECK_ENTITY = /failed 'update' check, entity (\{.*\}) failed policy check/;

/** Every member listed by a relation `set` anywhere in `value`, as JSON with sorted keys. */
function setMembers(value: unknown, out: Set<string> = new Set()): Set<string> {
    if (Array.isArray(value)) for (const v of value) setMembers(v, out);
    else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
            if (k === 'set') for (const m of Array.isArray(v) ? v : [v]) out.add(sortedJson(m));
            setMembers(v, out);
        }
    }
    return out;
}

const sortedJson = (v: unknown): string =>
    JSON.stringify(v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v);

/** 2.22.3 refused the write on the update rule of a record a relation `set` of it lists. */
function deniedSetMember(r: RpcWrite, message: string): boolean {
    const entity = UPDATE_CHECK_ENTITY.exec(message)?.[1];
    if (!entity) return false;
    try {
        return setMembers(r.args).has(sortedJson(JSON.parse(entity)));
    } catch {
        return false;
    }
}
const rpcNotReadable = (a: Answer): boolean => a.body?.error?.reason === 'RESULT_NOT_READABLE';
/** An anonymous write with a `connectOrCreate` of a blog post's or record's user (`author`, `owner`), whom anonymous users cannot read. */
function anonymousUserConnectOrCreate(r: RpcWrite): boolean {
    const args = JSON.stringify(r.args);
    return r.user === undefined && (/"author":\{.*"connectOrCreate":/.test(args) || (r.model === 'allTypes' && /"owner":\{.*"connectOrCreate":/.test(args)));
}

/** A nested upsert naming a record linked to another parent, answered by its create here and otherwise by 2.22.3. */
function upsertOfAnotherParent(r: RpcWrite, ours: Answer, upstream: Answer): boolean {
    const created = ours.status < 300 || (ours.status === 400 && ours.body?.error?.code === 'P2002');
    // (2.22.3 answers an upsert 201)
    const theirs = upstream.status === 200 || (upstream.status === 201 && r.op === 'upsert') || /Invalid `[^`]*` invocation/.test(rpcMessage(upstream));
    return created && theirs && /"upsert":\{"where"/.test(JSON.stringify(r.args));
}

/** Ours refused the write on another ground (a validation rule, the ORM) where 2.22.3 answered a hidden record's update rule first. */
const laterRefusal = (ours: Answer, upstream: Answer): boolean =>
    (ours.status === 400 || ours.status === 422) && upstream.status === 403 && /failed 'update' check, entity/.test(rpcMessage(upstream));
/** Ours created what a hidden record's key already holds (a 400 P2002) where 2.22.3 linked that record. */
const hiddenKeyTaken = (ours: Answer, upstream: Answer): boolean => ours.status === 400 && ours.body?.error?.code === 'P2002' && upstream.status < 300;
/** Our refusal of a filter on an `@omit` field (common/filter-guard.ts). */
const OMIT_FILTER = /^field "\w+" of \w+ cannot be used for filtering: reading it is restricted by the access policy$/;
const rpcUncheckedWrite = (a: Answer) => /is not checked there by the access policy: write it separately|which the access policy does not check there; write it separately|whose field-level update rule ZenStack does not check there|a write that links a one-to-one relation by its foreign key takes/.test(rpcMessage(a));
const restCode = (a: Answer): string => a.body?.errors?.[0]?.code ?? '';

/** The relationship endpoint of a one-to-one relationship from the side without the key, in the differential schemas. */
const ONE_TO_ONE_OTHER_SIDE = /^\/user\/[^/]+\/relationships\/(badge|profile)$/;
const RELATIONSHIP_PATH = /^\/\w+\/[^/]+\/relationships\/\w+$/;

/** 2.22.3 failed inside its own ORM call: a 400 quoting the ORM's invocation (`Invalid \`t=Object.create()\` invocation`). */
function upstreamCrashed(upstream: Answer): boolean {
    return upstream.status === 400 && /Invalid `[^`]*` invocation/.test(upstream.body?.errors?.[0]?.detail ?? '');
}

/** A request at a relationship endpoint, or a resource `PATCH` without attributes (its relationships only). */
function changesRelationshipsOnly(r: RestWrite): boolean {
    if (RELATIONSHIP_PATH.test(r.path)) return true;
    const data = (r.body as { data?: { attributes?: unknown } } | undefined)?.data;
    const attributes = data?.attributes;
    return r.method === 'PATCH' && (attributes === undefined || (typeof attributes === 'object' && attributes !== null && Object.keys(attributes).length === 0));
}

/** A `PATCH` that replaces a to-many relationship: at its relationship endpoint, or in the `relationships` of a resource. */
function replacesToMany(r: RestWrite): boolean {
    const data = (r.body as { data?: unknown } | undefined)?.data;
    if (Array.isArray(data)) return true;
    const relationships = (data as { relationships?: Record<string, { data?: unknown }> } | undefined)?.relationships ?? {};
    return Object.values(relationships).some((rel) => Array.isArray(rel?.data));
}

export const REST_WRITE_DIFFERENCES: WriteDifference<RestWrite>[] = [
    {
        name: 'a unique violation is a 409 (2.22.3: 400 prisma-error)',
        documented: 'docs/rest-write.md#errors, docs/migrating.md §5',
        status: (_r, ours, upstream) => ours.status === 409 && upstream.status === 400 && restCode(ours) === 'unique-violation',
    },
    {
        name: 'a record the user cannot read, at the URL or named in the body, is a 404 as a missing one, before the payload is validated (2.22.3: 403, or 400 for a missing foreign key, or the 422 of its validation, or the write where the user may update the record without reading it)',
        documented: 'docs/rest-write.md#errors, docs/migrating.md §5',
        status: (_r, ours, upstream) => ours.status === 404 && (upstream.status < 300 || [400, 403, 422].includes(upstream.status)) && restCode(ours) === 'not-found',
        // 2.22.3 wrote into (or linked) a record the user may update but not read
        rows: (_r, ours, upstream) => ours.status === 404 && upstream.status < 300 && restCode(ours) === 'not-found',
    },
    {
        name: 'links of a many-to-many relationship from a type to itself are checked under both records\' update rules (2.22.3 checks none)',
        documented: 'docs/migrating.md §3, docs/rest-write.md#relationships',
        status: (r, ours) => ours.status === 403 && SELF_MANY_TO_MANY.test(JSON.stringify(r)),
        rowsToo: true,
    },
    {
        name: 'relationships in an update, whose identifiers carry the id as a string (2.22.3 hands the string to the ORM for an Int key: 400 unknown-error)',
        documented: 'docs/migrating.md §5',
        status: (r, ours, upstream) => r.method === 'PATCH' && ours.status < 300 && upstream.status === 400 && restCode(upstream) === 'unknown-error' && /"relationships"/.test(JSON.stringify(r.body)),
        rows: (r, ours, upstream) => r.method === 'PATCH' && ours.status < 300 && upstream.status === 400 && restCode(upstream) === 'unknown-error',
    },
    {
        name: 'a relationship change (at its endpoint, or in a resource PATCH without attributes) checks only the records whose link changes: members already there (POST), records that are not members (DELETE) and unchanged members (PATCH) are left out, so a change that changes nothing is a 200 that writes nothing, also for a user who may not update the records (2.22.3 sends them all: 403 where a rule denies one)',
        documented: 'docs/rest-write.md#relationships ("A change that changes nothing"), docs/migrating.md §3',
        status: (r, ours, upstream) => changesRelationshipsOnly(r) && ours.status === 200 && (upstream.status === 403 || upstreamCrashed(upstream)),
        // the records whose link does change were written, under their rules, where 2.22.3 refused the whole request
        rows: (r, ours, upstream) => changesRelationshipsOnly(r) && ours.status === 200 && (upstream.status === 403 || upstreamCrashed(upstream)),
    },
    {
        name: "a to-many replacement leaves the members the user cannot read attached (2.22.3's `set` detaches them unchecked)",
        documented: 'docs/rest-write.md#relationships (replacing a to-many relationship), docs/migrating.md §3',
        rows: (r, ours, upstream) => r.method === 'PATCH' && ours.status === 200 && upstream.status === 200 && replacesToMany(r),
    },
    {
        name: "a one-to-one link from the side without the key detaches the current partner under the partner's update rule: 403 when it denies it (2.22.3 detaches it unchecked)",
        documented: 'docs/rest-write.md#relationships (one-to-one relationships), docs/migrating.md §3',
        status: (r, ours, upstream) => ours.status === 403 && upstream.status < 300 && r.method === 'PATCH' && ONE_TO_ONE_OTHER_SIDE.test(r.path),
        rowsToo: true,
        writesNothing: true,
    },
    {
        name: 'a one-to-one link to a record linked to another one is a 409, also where the write\'s rules are checked after it (2.22.3 detaches the other record unchecked, or answers its rules first)',
        documented: 'docs/rest-write.md#relationships (one-to-one relationships), docs/migrating.md §3',
        status: (_r, ours, upstream) => ours.status === 409 && restCode(ours) === 'unique-violation' && /is already linked to another/.test(ours.body?.errors?.[0]?.detail ?? '') && (upstream.status < 300 || upstream.status === 403),
        rows: (_r, ours, upstream) => ours.status === 409 && /is already linked to another/.test(ours.body?.errors?.[0]?.detail ?? '') && upstream.status < 300,
        writesNothing: true,
    },
    {
        name: "a to-many replacement checks the update rule of each member it detaches (2.22.3's `set` checked none, and wrote, answering 403 RESULT_NOT_READABLE where the user could not read the record after it): 403 and nothing written",
        documented: 'docs/migrating.md §3 (relationship writes check the rules ZenStack 2.x skipped), docs/rest-write.md#relationships',
        status: (r, ours, upstream) => r.method === 'PATCH' && ours.status === 403 && upstream.status < 300 && replacesToMany(r),
        rows: (r, ours, upstream) => r.method === 'PATCH' && ours.status === 403 && (upstream.status < 300 || upstream.body?.errors?.[0]?.reason === 'RESULT_NOT_READABLE') && replacesToMany(r),
        writesNothing: true,
    },
    {
        name: 'a relationship change no user could make (detaching a record whose link is required) is refused before the rules are asked (2.22.3: its 403 first)',
        documented: 'docs/migrating.md §3 (refusals that hold for any user)',
        status: (_r, ours, upstream) => upstream.status === 403 && ((ours.status === 400 && ['invalid-payload', 'orm-error'].includes(restCode(ours)) && /is required/.test(ours.body?.errors?.[0]?.detail ?? '')) || (ours.status === 409 && restCode(ours) === 'relationship-conflict')),
        writesNothing: true,
    },
    {
        name: 'a record the user may delete but not read is deleted: 204 (2.22.3 deletes it too, and answers 403 RESULT_NOT_READABLE)',
        documented: 'docs/rest-write.md#delete',
        status: (r, ours, upstream) => r.method === 'DELETE' && ours.status === 204 && upstream.status === 403 && upstream.body?.errors?.[0]?.reason === 'RESULT_NOT_READABLE',
        sameRows: true,
    },
    {
        name: 'a resource deleted is a 204 without a body, as the spec says (2.22.3: 200 with `{ "meta": {} }`)',
        documented: 'docs/rest-write.md (the table of operations), docs/migrating.md §5 (status changes on writes)',
        status: (r, ours, upstream) => r.method === 'DELETE' && !r.path.includes('/relationships/') && ours.status === 204 && upstream.status === 200,
        sameRows: true,
    },
    {
        name: "2.22.3 fails inside its own ORM call (a 400 quoting the ORM's invocation) where ours answers",
        documented: 'docs/migrating.md §5 (status changes on writes)',
        status: (_r, ours, upstream) => ours.status < 500 && upstreamCrashed(upstream),
        // ours wrote what 2.22.3 could not: its rows are not comparable
        rows: (_r, ours, upstream) => ours.status < 300 && upstreamCrashed(upstream),
    },
    {
        name: 'a to-one relationship given as `data: null` in an update (no related record) is taken (2.22.3: 400, its payload schema wants an identifier)',
        documented: 'docs/migrating.md §5',
        status: (r, ours, upstream) => r.method === 'PATCH' && upstream.status === 400 && restCode(upstream) === 'unknown-error' && /"data":null/.test(JSON.stringify(r.body)) && /Expected object, received null/.test(upstream.body?.errors?.[0]?.detail ?? ''),
        rows: (r, ours, upstream) => r.method === 'PATCH' && ours.status < 300 && upstream.status === 400 && /"data":null/.test(JSON.stringify(r.body)),
    },
    {
        name: 'a to-one relationship given as `data: null` in a create (no related record) is accepted (2.22.3: 400, its payload schema wants an identifier)',
        documented: 'docs/migrating.md §5',
        status: (r, ours, upstream) => r.method === 'POST' && ours.status !== 400 && upstream.status === 400 && /"data":null/.test(JSON.stringify(r.body)),
        rowsToo: true,
    },
];
