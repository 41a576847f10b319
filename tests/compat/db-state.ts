import type { TestSchema } from '../support/schema';

/**
 * Whole-database snapshots and resets for the differential write tests: every table (join tables of
 * many-to-many relations and `@@delegate` tables included), read with the raw client in SQL, so that a
 * write applied in part on either side shows as a difference of rows.
 */

async function tables(s: TestSchema): Promise<string[]> {
    const rows: { name: string }[] =
        s.provider === 'sqlite'
            ? await s.prisma.$queryRawUnsafe(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
            : await s.prisma.$queryRawUnsafe(`SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    return rows.map((r) => r.name);
}

const tableCache = new WeakMap<TestSchema, Promise<string[]>>();
const tablesOf = (s: TestSchema) => {
    if (!tableCache.has(s)) tableCache.set(s, tables(s));
    return tableCache.get(s) as Promise<string[]>;
};

async function emptyTables(s: TestSchema, names: string[]): Promise<void> {
    if (s.provider === 'sqlite') {
        await s.prisma.$executeRawUnsafe('PRAGMA foreign_keys = OFF');
        for (const t of names) await s.prisma.$executeRawUnsafe(`DELETE FROM "${t}"`);
        await s.prisma.$executeRawUnsafe(`DELETE FROM sqlite_sequence`).catch(() => undefined);
    } else {
        await s.prisma.$executeRawUnsafe(`TRUNCATE ${names.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`);
    }
}

/** A value read by a raw query, as a raw statement takes it back. */
function asParameter(value: unknown): unknown {
    if (value !== null && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
        return typeof (value as { toFixed?: unknown }).toFixed === 'function' ? String(value) : JSON.stringify(value);
    }
    return value;
}

type Rows = Record<string, Record<string, unknown>[]>;
const seeded = new WeakMap<TestSchema, Rows>();

/**
 * Empties every table (and restarts the id sequences), then puts back the rows `seed` wrote: `seed` runs once per
 * database, its rows are kept and inserted again by raw statements on later resets (much faster than the seed's
 * client calls, and the same rows: checked on the first reset). SQLite: foreign keys are off while the rows go in.
 */
export async function resetDatabase(s: TestSchema, seed: (s: TestSchema) => Promise<void>): Promise<void> {
    const names = await tablesOf(s);
    await emptyTables(s, names);
    const rows = seeded.get(s);
    if (!rows) {
        if (s.provider === 'sqlite') await s.prisma.$executeRawUnsafe('PRAGMA foreign_keys = ON');
        await seed(s);
        const captured: Rows = {};
        for (const t of names) captured[t] = await s.prisma.$queryRawUnsafe(`SELECT * FROM "${t}"`);
        seeded.set(s, captured);
        const expected = JSON.stringify(await databaseState(s));
        await resetDatabase(s, seed);
        if (JSON.stringify(await databaseState(s)) !== expected) throw new Error('resetDatabase: the rows put back differ from the seed\'s');
        return;
    }
    const insertAll = async (db: TestSchema['prisma']) => {
        for (const t of names) {
            if (rows[t].length === 0) continue;
            // one statement per table (the seeds are small): the cost of a reset is in the number of statements
            const columns = Object.keys(rows[t][0]);
            let n = 0;
            const mark = () => (s.provider === 'sqlite' ? '?' : `$${++n}`);
            const values = rows[t].map(() => `(${columns.map(mark).join(', ')})`).join(', ');
            const parameters = rows[t].flatMap((row) => columns.map((c) => asParameter(row[c])));
            await db.$executeRawUnsafe(`INSERT INTO "${t}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${values}`, ...parameters);
        }
    };
    if (s.provider === 'sqlite') {
        await insertAll(s.prisma);
        await s.prisma.$executeRawUnsafe('PRAGMA foreign_keys = ON');
    } else {
        // the tables go in by name, not in the order of their foreign keys, so these are not checked while the
        // seed's own rows go back (in one transaction: the setting holds on its one connection of the pool)
        await s.prisma.$transaction(async (tx: TestSchema['prisma']) => {
            await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
            await insertAll(tx);
        });
        // the sequences go on after the ids put back, as after the seed's inserts
        for (const t of names) {
            const serials: { column: string }[] = await s.prisma.$queryRawUnsafe(`SELECT column_name::text AS column FROM information_schema.columns WHERE table_name = $1 AND column_default LIKE 'nextval%'`, t);
            for (const { column } of serials) await s.prisma.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"${t}"', '${column}'), COALESCE((SELECT MAX("${column}") FROM "${t}"), 0) + 1, false)`);
        }
    }
}

/** A value as a snapshot holds it: typed values as text, so that both sides' rows compare as JSON. */
function plain(value: unknown): unknown {
    if (typeof value === 'bigint') return `${value}n`;
    if (value instanceof Date) return value.toISOString();
    if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString('base64')}`;
    if (value !== null && typeof value === 'object' && typeof (value as { toFixed?: unknown }).toFixed === 'function') return `decimal:${String(value)}`;
    return value;
}

/** Every row of every table, each table's rows sorted, as `{ table: [row, …] }`. */
export async function databaseState(s: TestSchema): Promise<Record<string, Record<string, unknown>[]>> {
    const state: Record<string, Record<string, unknown>[]> = {};
    for (const t of await tablesOf(s)) {
        const rows: Record<string, unknown>[] = await s.prisma.$queryRawUnsafe(`SELECT * FROM "${t}"`);
        state[t] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]))).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    }
    return state;
}
