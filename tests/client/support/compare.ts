import type { ClientServer } from './servers';
import type { Outcome } from './seed';
import { outcome } from './seed';

/**
 * Running the same client code against our server and 2.22.3's, and what of the two outcomes must agree.
 *
 * Bytes: ours answers Base64 tagged `["custom","Bytes"]` (the spec's form), which the hooks' runtime decodes
 * to a `Buffer`; 2.22.3 with Prisma 6 answers superjson's typed-array form, decoded to a `Uint8Array`. Both are
 * Uint8Arrays of the same bytes to an app; the comparison sees them as plain Uint8Arrays (and a bigint as `5n`).
 */

function plainBytes(value: unknown): unknown {
    if (value instanceof Uint8Array) return new Uint8Array(value);
    // as text: jest's workers cannot send a failure holding a bigint to the main process
    if (typeof value === 'bigint') return `${value}n`;
    if (Array.isArray(value)) return value.map(plainBytes);
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainBytes(v)]));
    }
    return value;
}

/**
 * What an app acts on: the data, or for a thrown error its status and the flags of `info` (the runtime's own
 * read-back check tests `prisma`, `code` and `reason`; apps branch on `status`, `rejectedByPolicy`, `code`,
 * `reason`). Messages differ on purpose (docs/migrating.md).
 */
export function appView(o: Outcome): unknown {
    if ('data' in o) return { data: plainBytes(o.data) };
    const info = (o.error.info ?? {}) as Record<string, unknown>;
    const flags = Object.fromEntries(
        ['prisma', 'rejectedByPolicy', 'rejectedByValidation', 'code', 'reason'].filter((k) => info[k] !== undefined).map((k) => [k, info[k]]),
    );
    return { thrown: o.error.message, status: o.error.status, ...flags };
}

/** Runs `call` against each server (each with its own database), ours first. */
export async function onBoth(
    servers: { ours: () => ClientServer; upstream: () => ClientServer },
    call: (server: ClientServer) => Promise<unknown>,
): Promise<{ ours: Outcome; upstream: Outcome }> {
    const ours = await outcome(() => call(servers.ours()));
    const upstream = await outcome(() => call(servers.upstream()));
    return { ours, upstream };
}
