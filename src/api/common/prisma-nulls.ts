import { jsonNullNameOf, type JsonNullName } from './codec';

/**
 * Prisma accepts only its own `Prisma.DbNull`/`JsonNull`/`AnyNull` objects, compared by identity
 * with the instances of the runtime copy that built the client. A generated client often carries
 * its own runtime copy (custom `output`), so `require('@prisma/client')` may give the wrong ones.
 * They are found from the client itself, once per client class:
 *  1. the loaded module that exports this client's `PrismaClient` class, and its `Prisma` namespace;
 *  2. a loaded Prisma runtime whose `MetricsClient` built the client's `$metrics`;
 *  3. `@prisma/client` as the application resolves it, then as this package resolves it.
 */

export type JsonNullObjects = Record<JsonNullName, object>;

type AnyRecord = Record<string, unknown>;

const cache = new WeakMap<object, JsonNullObjects | null>();

function asRecord(value: unknown): AnyRecord | undefined {
    return (typeof value === 'object' || typeof value === 'function') && value !== null ? (value as AnyRecord) : undefined;
}

function fromHolder(holder: unknown): JsonNullObjects | undefined {
    const h = asRecord(holder);
    if (!h) {
        return undefined;
    }
    const result: Partial<JsonNullObjects> = {};
    for (const name of ['DbNull', 'JsonNull', 'AnyNull'] as const) {
        const value = asRecord(h[name]);
        if (!value || typeof value !== 'object' || jsonNullNameOf(value) !== name) {
            return undefined;
        }
        result[name] = value;
    }
    return result as JsonNullObjects;
}

function clientClass(prisma: unknown): object | undefined {
    const client = asRecord(prisma);
    const original = asRecord(client?._originalClient) ?? client;
    const proto = original ? Object.getPrototypeOf(original) : undefined;
    const ctor = asRecord(proto)?.constructor;
    return typeof ctor === 'function' && ctor !== Object ? ctor : undefined;
}

function loadedModules(): AnyRecord[] {
    if (typeof require === 'undefined' || !require.cache) {
        return [];
    }
    const result: AnyRecord[] = [];
    for (const mod of Object.values(require.cache)) {
        const exp = asRecord(mod?.exports);
        if (exp) {
            result.push(exp);
            const def = asRecord(exp.default);
            if (def && def !== exp) {
                result.push(def);
            }
        }
    }
    return result;
}

function fromLoadedModules(prisma: unknown, ctor: object | undefined): JsonNullObjects | undefined {
    const modules = loadedModules();
    if (ctor) {
        for (const exp of modules) {
            if (exp.PrismaClient === ctor) {
                const found = fromHolder(exp.Prisma);
                if (found) {
                    return found;
                }
            }
        }
    }
    let metrics: unknown;
    try {
        metrics = asRecord(prisma)?.$metrics;
    } catch {
        metrics = undefined;
    }
    if (metrics && typeof metrics === 'object') {
        for (const exp of modules) {
            const cls = exp.MetricsClient;
            if (typeof cls === 'function' && metrics instanceof (cls as new () => unknown)) {
                const found = fromHolder(asRecord(asRecord(exp.objectEnumValues)?.instances));
                if (found) {
                    return found;
                }
            }
        }
    }
    return undefined;
}

type CreateRequire = (filename: string) => (id: string) => unknown;
interface NodeProcess {
    cwd(): string;
    getBuiltinModule?: (id: string) => { createRequire?: CreateRequire } | undefined;
}

/**
 * `require` as the application resolves modules (from the working directory), on Node only. Looked up when
 * called, never imported: an edge runtime (Vercel Edge, Cloudflare Workers) has no `node:module`, and a
 * static import of it fails the bundle or the module's loading there. `process.getBuiltinModule` (Node
 * 20.16+) or, in CommonJS, the `Module` class that `module` is an instance of.
 */
function applicationRequire(): ((id: string) => unknown) | undefined {
    const proc = (globalThis as { process?: NodeProcess }).process;
    if (typeof proc?.cwd !== 'function') {
        return undefined;
    }
    const fromModule = typeof module === 'object' && module !== null ? (module.constructor as { createRequire?: CreateRequire }).createRequire : undefined;
    const createRequire = proc.getBuiltinModule?.('node:module')?.createRequire ?? fromModule;
    return typeof createRequire === 'function' ? createRequire(`${proc.cwd().replace(/[\\/]+$/, '')}/package.json`) : undefined;
}

function fromResolution(): JsonNullObjects | undefined {
    const loaders: (() => unknown)[] = [
        () => applicationRequire()?.('@prisma/client'),
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        () => require('@prisma/client'),
    ];
    for (const load of loaders) {
        try {
            const found = fromHolder(asRecord(load())?.Prisma);
            if (found) {
                return found;
            }
        } catch {
            // not resolvable from there
        }
    }
    return undefined;
}

/** The Json null objects of the runtime behind `prisma` (cached per client class). */
export function getJsonNullObjects(prisma: unknown): JsonNullObjects {
    const ctor = clientClass(prisma);
    let found = ctor ? cache.get(ctor) : undefined;
    if (found === undefined) {
        found = fromLoadedModules(prisma, ctor) ?? fromResolution() ?? null;
        if (ctor) {
            cache.set(ctor, found);
        }
    }
    if (!found) {
        throw new Error('cannot find the Prisma runtime of the client to pass Json null values (DbNull/JsonNull/AnyNull)');
    }
    return found;
}
