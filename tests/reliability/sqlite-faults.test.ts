import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
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

    it('disk full (max_page_count reached): writes answer 503, reads 200; writable again once there is room', async () => {
        const probes = probesFor(author);
        const pages = Number((await s.prisma.$queryRawUnsafe('PRAGMA page_count'))[0].page_count);
        await s.prisma.$queryRawUnsafe(`PRAGMA max_page_count = ${pages}`);
        const big = 'x'.repeat(8000);
        const fill = { data: { title: 'big', authorId: author, comments: { create: [{ content: big }, { content: big }] } } };
        const full = await sendProbes(api.origin, [{ ...probes[2], request: () => ({ method: 'POST', path: '/api/rpc/post/create', body: fill, user: author }) }], 'full');
        expect(full.map(unavailableProblem).filter(Boolean)).toEqual([]);
        expect(full[0].res.body.error.code).toBe('SQLITE_FULL');

        await s.prisma.$queryRawUnsafe('PRAGMA max_page_count = 1073741823');
        expect(statuses(await sendProbes(api.origin, probes, 'room'))).toEqual(healthy(probes));
        expect(storedTitles()).toEqual(['seeded', ...titlesOf('room')]);
    });
});

describe('SQLite in rollback-journal mode (no WAL): another process reading while a transaction commits', () => {
    // SQLite's default journal mode: COMMIT needs every reader gone, and fails with SQLITE_BUSY after the busy timeout
    let s: TestSchema;
    let author: number;

    beforeEach(async () => {
        s = await loadSchema(undefined, { sqlite: { timeout: BUSY_TIMEOUT_MS } });
        author = (await s.prisma.user.create({ data: { email: 'author@journal.test' } })).id;
    });

    afterEach(() => s.cleanup());

    /**
     * Sends one write while another connection holds a read transaction (its COMMIT fails), then, with
     * the reader gone, writes one row outside any transaction through the same client.
     */
    async function commitBlocked(client: { $executeRawUnsafe(sql: string): Promise<number> }) {
        const api = await startApi(s, client);
        try {
            const reader = new Database(s.dbFile!);
            reader.exec('BEGIN');
            reader.prepare('SELECT count(*) FROM "Post"').get();
            const blocked = await sendProbes(api.origin, probesFor(author).filter((p) => p.name === 'RPC create'), 'blocked');
            reader.exec('COMMIT');
            reader.close();
            await client.$executeRawUnsafe(`INSERT INTO "User" ("email") VALUES ('after@journal.test')`);
            return { blocked, api };
        } catch (err) {
            await api.close();
            throw err;
        }
    }

    /** Whether another connection (not waiting for locks) sees the row written after the failed COMMIT. */
    function rowVisible(): boolean {
        const db = new Database(s.dbFile!, { readonly: true, timeout: 0 });
        try {
            return db.prepare(`SELECT 1 FROM "User" WHERE "email" = 'after@journal.test'`).get() !== undefined;
        } finally {
            db.close();
        }
    }

    it('with withTransactionCleanup: 503 while the reader is there, 2xx as soon as it is gone', async () => {
        const client = s.createClient(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl, timeout: BUSY_TIMEOUT_MS })));
        const { blocked, api } = await commitBlocked(client);
        try {
            expect(blocked.map(unavailableProblem).filter(Boolean)).toEqual([]);
            expect(rowVisible()).toBe(true);
            const probes = probesFor(author);
            expect(statuses(await sendProbes(api.origin, probes, 'free'))).toEqual(healthy(probes));
        } finally {
            await api.close();
            await client.$disconnect();
        }
        expect(storedTitles(s.dbFile!)).toEqual(titlesOf('free'));
    });

    it('without it (Prisma 6.19): after a failed COMMIT the connection stays inside the dead transaction and keeps the file locked', async () => {
        // why the wrapper exists: the adapter neither rolls back nor releases its transaction lock, so every later
        // transaction of the application waits for ever, later writes outside transactions are never committed,
        // and the pending lock keeps every other connection from even reading the file until the process exits
        const client = s.createClient(new PrismaBetterSQLite3({ url: s.databaseUrl, timeout: BUSY_TIMEOUT_MS }));
        const { blocked, api } = await commitBlocked(client);
        await api.close();
        expect(blocked.map(unavailableProblem).filter(Boolean)).toEqual([]);
        expect(() => rowVisible()).toThrow(/database is locked/);
        await client.$disconnect();
        expect(rowVisible()).toBe(false);
    });
});
