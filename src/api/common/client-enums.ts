/**
 * The values of the schema's enums as the Prisma client knows them, for requests that come without
 * zod schemas (the REST handler checks enum values in filters and payloads against them, so that a
 * wrong value is a 400 naming its parameter or pointer rather than an error of the ORM).
 *
 * Prisma 6 leaves the enums out of the client's runtime data model, but the client keeps the Prisma
 * schema it was generated from (`_engineConfig.inlineSchema`; ZenStack's enhanced client passes the
 * property through). Enum blocks there list one value per line, each optionally followed by
 * attributes (`ADMIN @map("admin")`); block attributes (`@@map`) and comments are not values. The
 * client is always called with the value's name, never its mapped name. Read once per client
 * configuration; a client without the schema text (another engine, a proxy that hides it) yields
 * undefined for every enum, and the values stay unchecked as before.
 */

const parsed = new WeakMap<object, ReadonlyMap<string, readonly string[]>>();

const ENUM_START = /^enum\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{$/;
const VALUE_LINE = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+@.*)?$/;

/**
 * The enums declared in a Prisma schema's text, by name. An enum with a line of any other shape
 * than a value, a block attribute, a comment or a blank is left out (unknown rather than wrong).
 */
export function enumsInPrismaSchema(text: string): Map<string, readonly string[]> {
    const enums = new Map<string, readonly string[]>();
    let name: string | undefined;
    let values: string[] | undefined = [];
    for (const raw of text.split('\n')) {
        const line = raw.trim();
        if (name === undefined) {
            name = ENUM_START.exec(line)?.[1];
            values = [];
            continue;
        }
        if (line === '}') {
            if (values) enums.set(name, values);
            name = undefined;
        } else if (line !== '' && !line.startsWith('//') && !line.startsWith('@@')) {
            const value = VALUE_LINE.exec(line)?.[1];
            if (value && values) values.push(value);
            else values = undefined;
        }
    }
    return enums;
}

function schemaOf(prisma: unknown): { config: object; text: string } | undefined {
    try {
        const config = (prisma as { _engineConfig?: { inlineSchema?: unknown } } | null)?._engineConfig;
        const text = config?.inlineSchema;
        return config && typeof text === 'string' ? { config, text } : undefined;
    } catch {
        return undefined;
    }
}

/** The values of enum `name` in the schema the client was generated from; undefined when unknown. */
export function clientEnumValues(prisma: unknown, name: string): readonly string[] | undefined {
    const schema = schemaOf(prisma);
    if (!schema) return undefined;
    let enums = parsed.get(schema.config);
    if (!enums) {
        enums = enumsInPrismaSchema(schema.text);
        parsed.set(schema.config, enums);
    }
    return enums.get(name);
}
