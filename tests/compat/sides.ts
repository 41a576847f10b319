import type { HandleRequestFn } from '../../src/types';
import { requirePg } from '../support/postgres';
import { BLOG_SCHEMA, loadSchema, type LoadOptions, type TestSchema } from '../support/schema';

/** Shared set-up of the differential tests against `@zenstackhq/server` 2.22.3. */

export type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Side {
    name: 'ours' | 'upstream';
    s?: TestSchema;
    handler: HandleRequestFn;
}

/**
 * Ours and 2.22.3's handler, each on its own identically seeded database for the enclosing `describe`
 * (the blog schema on SQLite unless `zmodel` and `options` say otherwise).
 */
export function twoSides(ours: HandleRequestFn, upstream: unknown, seed: (s: TestSchema) => Promise<void>, zmodel = BLOG_SCHEMA, options: LoadOptions = {}): Side[] {
    const sides: Side[] = [
        { name: 'ours', handler: ours },
        { name: 'upstream', handler: upstream as HandleRequestFn },
    ];
    beforeAll(async () => {
        // without a server outside CI (describePg reported it), the sides stay empty and the tests return
        if (options.provider === 'postgresql' && !(await requirePg())) return;
        for (const side of sides) {
            side.s = await loadSchema(zmodel, options);
            await seed(side.s);
        }
    });
    afterAll(async () => {
        for (const side of sides) await side.s?.cleanup();
    });
    return sides;
}

export const SILENT_LOGGER = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

/**
 * One intended difference of both handlers: Bytes. Ours answers Base64 tagged `["custom","Bytes"]`,
 * as the spec says (and as 2.x did while Prisma returned Buffers); 2.22.3 with Prisma 6's
 * Uint8Array answers superjson's `["typed-array","Uint8Array"]` with an array of numbers. Rewrites
 * upstream's answer to the spec's form; `root` is what the serialization paths start from (RPC:
 * `data`; JSON:API: the whole document).
 */
export function bytesAsSpec(body: Body, root: 'data' | 'document'): Body {
    const values = body?.meta?.serialization?.values as Record<string, unknown[]> | undefined;
    if (!values) return body;
    for (const [path, tags] of Object.entries(values)) {
        if (JSON.stringify(tags) !== JSON.stringify([['typed-array', 'Uint8Array']])) continue;
        const keys = path.split('.');
        const last = keys.pop() as string;
        const holder = keys.reduce((o, k) => o[k], root === 'data' ? body.data : body);
        holder[last] = Buffer.from(holder[last] as number[]).toString('base64');
        values[path] = [['custom', 'Bytes']];
    }
    return body;
}
