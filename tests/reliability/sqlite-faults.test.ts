import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSchema, type TestSchema } from '../support/schema';
import { healthy, probesFor, sendProbes, statuses, titlesOf, unavailableProblem, type ProbeResult } from './support/probes';
import { startApi, type RunningApi } from './support/server';

/**
 * SQLite that cannot be written (locked by another connection, read-only) or opened: reads and writes
 * of both protocols answer a clean 503 (reads keep working where SQLite allows it), nothing is written,
 * and the same running application answers 2xx again as soon as the database is usable.
 */

// a short busy timeout keeps the test fast: a write waits this long for a lock before giving up (the demo waits 5 s)
const BUSY_TIMEOUT_MS = 250;

let s: TestSchema;
let api: RunningApi;
let author: number;

beforeEach(async () => {
    s = await loadSchema(undefined, { sqlite: { wal: true, timeout: BUSY_TIMEOUT_MS } });
    author = (await s.prisma.user.create({ data: { email: 'author@faults.test' } })).id;
    await s.prisma.post.create({ data: { title: 'seeded', published: true, authorId: author } });
    api = await startApi(s);
});

afterEach(async () => {
    await api.close();
    await s.cleanup();
});

/** Titles of all posts, read through a connection of its own (what another process sees). */
function storedTitles(file = s.dbFile!): string[] {
    const db = new Database(file, { readonly: true });
    try {
        return (db.prepare('SELECT title FROM "Post" ORDER BY id').all() as { title: string }[]).map((r) => r.title);
    } finally {
        db.close();
    }
}

function expectWritesUnavailable(results: ProbeResult[]): void {
    const writes = results.filter((r) => r.probe.write);
    expect(writes.map(unavailableProblem).filter(Boolean)).toEqual([]);
    const reads = results.filter((r) => !r.probe.write);
    expect(statuses(reads)).toEqual(healthy(reads.map((r) => r.probe)));
}

describe('SQLite faults through the Express adapter', () => {
    it('locked by another connection (BEGIN EXCLUSIVE): writes answer 503 after the busy timeout, reads go on (WAL), writes work again once it is released', async () => {
        const probes = probesFor(author);
        const locker = new Database(s.dbFile!);
        locker.exec('BEGIN EXCLUSIVE');
        let down: ProbeResult[];
        try {
            down = await sendProbes(api.origin, probes, 'while locked');
        } finally {
            locker.exec('ROLLBACK');
            locker.close();
        }
        expectWritesUnavailable(down);
        expect(down.find((r) => r.probe.name === 'RPC create')!.res.body.error).toMatchObject({ code: 'P1008', orm: true });

        const back = await sendProbes(api.origin, probes, 'after release');
        expect(statuses(back)).toEqual(healthy(probes));
        // committed for everyone (the application's connection is not left inside a transaction)
        expect(storedTitles()).toEqual(['seeded', ...titlesOf('after release')]);
        expect(api.logs.some((l) => l.startsWith('db-unavailable') || l.startsWith('service-unavailable'))).toBe(true);
    });

    it('a failing write inside a transaction does not poison later ones: a lock in the middle of a write burst', async () => {
        const probes = probesFor(author).filter((p) => p.write);
        const locker = new Database(s.dbFile!);
        for (let round = 0; round < 3; round++) {
            locker.exec('BEGIN EXCLUSIVE');
            const down = await sendProbes(api.origin, probes, `locked ${round}`);
            locker.exec('ROLLBACK');
            expect(down.map(unavailableProblem).filter(Boolean)).toEqual([]);
            expect(statuses(await sendProbes(api.origin, probes, `free ${round}`))).toEqual(healthy(probes));
        }
        locker.close();
        expect(storedTitles()).toEqual(['seeded', ...titlesOf('free 0'), ...titlesOf('free 1'), ...titlesOf('free 2')]);
    });

    it('read-only (PRAGMA query_only on the application connection): writes answer 503, reads 200; writable again without a restart', async () => {
        const probes = probesFor(author);
        // the test client is the application's client: one connection, so the pragma applies to it
        await s.prisma.$executeRawUnsafe('PRAGMA query_only = ON');
        const down = await sendProbes(api.origin, probes, 'read-only');
        expectWritesUnavailable(down);
        expect(down.find((r) => r.probe.name === 'REST create')!.res.body.errors[0]).toMatchObject({ status: 503, code: 'service-unavailable', ormCode: 'SQLITE_READONLY' });

        await s.prisma.$executeRawUnsafe('PRAGMA query_only = OFF');
        const back = await sendProbes(api.origin, probes, 'writable');
        expect(statuses(back)).toEqual(healthy(probes));
        expect(storedTitles()).toEqual(['seeded', ...titlesOf('writable')]);
    });

    it('opened read-only (better-sqlite3 readonly: true): writes answer 503, reads 200', async () => {
        const readonlyClient = s.createClient(new PrismaBetterSQLite3({ url: s.databaseUrl, readonly: true }));
        const readonlyApi = await startApi(s, readonlyClient);
        try {
            expectWritesUnavailable(await sendProbes(readonlyApi.origin, probesFor(author), 'readonly'));
        } finally {
            await readonlyApi.close();
            await readonlyClient.$disconnect();
        }
        expect(storedTitles()).toEqual(['seeded']);
    });

    it('the database file cannot be opened (its folder is missing): every request answers 503; served as soon as the file is there', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zsapi-missing-'));
        const file = path.join(dir, 'later', 'app.db');
        const client = s.createClient(new PrismaBetterSQLite3({ url: `file:${file}`, timeout: BUSY_TIMEOUT_MS }));
        const missingApi = await startApi(s, client);
        const probes = probesFor(author);
        try {
            const down = await sendProbes(missingApi.origin, probes, 'missing');
            expect(down.map(unavailableProblem).filter(Boolean)).toEqual([]);

            // the database is restored (e.g. a volume mounted late): copy the test database there
            fs.mkdirSync(path.dirname(file));
            await s.prisma.$executeRawUnsafe('PRAGMA wal_checkpoint(TRUNCATE)');
            fs.copyFileSync(s.dbFile!, file);
            const back = await sendProbes(missingApi.origin, probes, 'restored');
            expect(statuses(back)).toEqual(healthy(probes));
        } finally {
            await missingApi.close();
            await client.$disconnect();
        }
        expect(storedTitles(file)).toEqual(['seeded', ...titlesOf('restored')]);
        fs.rmSync(dir, { recursive: true, force: true });
    });
});
