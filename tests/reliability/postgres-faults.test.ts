import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool } from 'pg';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import { describePg, pgAdminQuery, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { send } from './support/http';
import { healthy, probesFor, sendProbes, statuses, titlesOf, unavailableProblem } from './support/probes';
import { startApi, type RunningApi } from './support/server';
import { TcpProxy } from './support/tcp-proxy';
import { until } from './support/until';

/**
 * PostgreSQL that refuses connections, goes away under a running application and comes back, cuts
 * the application's connections (also mid-query), disappears (renamed), or stops answering: every
 * request answers a clean 503 in both protocols, nothing half-written remains, and the same running
 * application (same client, same handlers) answers 2xx again once the database is back.
 */

let s: TestSchema;
let author: number;
let dbName: string;

async function titles(): Promise<string[]> {
    return (await s.prisma.post.findMany({ orderBy: { id: 'asc' }, select: { title: true } })).map((p: { title: string }) => p.title);
}

/** Ends every session of the test database except the given ones (as an operator or a failover would). */
async function terminateSessions(keep: number[] = []): Promise<void> {
    const except = keep.length ? `AND pid NOT IN (${keep.join(',')})` : '';
    await pgAdminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}' AND pid <> pg_backend_pid() ${except}`);
}

describePg('PostgreSQL faults through the Express adapter', () => {
    let pgUrl: URL;
    let proxy: TcpProxy;
    let client: { $disconnect(): Promise<void> } | undefined;
    let api: RunningApi | undefined;

    /**
     * The application: its own client and connection pool, connecting through the proxy, with the
     * recommended `withTransactionCleanup` unless `bare`.
     */
    async function startApp(poolOptions: Record<string, unknown> = {}, bare = false): Promise<RunningApi & { pool: Pool }> {
        const url = new URL(s.databaseUrl);
        url.host = `127.0.0.1:${proxy.port}`;
        const pool = new Pool({ connectionString: url.toString(), ...poolOptions });
        const factory = new PrismaPg(pool, { disposeExternalPool: true });
        client = s.createClient(bare ? factory : withTransactionCleanup(factory));
        api = await startApi(s, client);
        return { ...api, pool };
    }

    /**
     * Makes one RPC increment wait inside its transaction (another session holds the row), then ends
     * every application session; answers what the increment got.
     */
    async function cutMidTransaction(origin: string, postId: number) {
        const locker = new Client({ connectionString: s.databaseUrl });
        // watches outside any transaction: inside one, pg_stat_activity is a snapshot taken at first use
        const watcher = new Client({ connectionString: s.databaseUrl });
        await Promise.all([locker.connect(), watcher.connect()]);
        try {
            await locker.query('BEGIN');
            await locker.query('SELECT id FROM "Post" WHERE id = $1 FOR UPDATE', [postId]);
            const body = { where: { id: postId }, data: { viewCount: { increment: 1 } } };
            const pending = send(origin, { method: 'PATCH', path: '/api/rpc/post/update', body, user: author });
            let answered: unknown;
            void pending.then((r) => (answered = r), (e) => (answered = e));
            await until('the increment waits for the row lock', async () => {
                if (answered) throw new Error(`the increment did not wait: ${JSON.stringify(answered)}`);
                const r = await watcher.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [dbName]);
                return r.rows[0].n > 0;
            }, 20);
            await terminateSessions([locker, watcher].map((c) => (c as unknown as { processID: number }).processID));
            const res = await pending;
            await locker.query('ROLLBACK');
            return res;
        } finally {
            await Promise.all([locker.end(), watcher.end()]);
        }
    }

    /** Pool connections checked out although no request is running: leaked. */
    const checkedOut = (pool: Pool) => pool.totalCount - pool.idleCount;

    beforeEach(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        pgUrl = new URL(s.databaseUrl);
        dbName = pgUrl.pathname.slice(1);
        author = (await s.prisma.user.create({ data: { email: 'author@faults.test' } })).id;
        await s.prisma.post.create({ data: { title: 'seeded', published: true, authorId: author } });
        proxy = new TcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) }, await TcpProxy.freePort());
    });

    afterEach(async () => {
        if (!s) return;
        await api?.close();
        await proxy.stop();
        await client?.$disconnect().catch(() => undefined);
        api = client = undefined;
        await s.cleanup();
    });

    it('connection refused (nothing listening), then the server comes up: 503 in both protocols, then 2xx', async () => {
        if (!(await requirePg())) return;
        const { origin } = await startApp();
        const probes = probesFor(author);
        const down = await sendProbes(origin, probes, 'refused');
        expect(down.map(unavailableProblem).filter(Boolean)).toEqual([]);
        expect(down.find((r) => r.probe.name === 'RPC read')!.res.body.error).toMatchObject({ code: 'P1001' });

        await proxy.start();
        expect(statuses(await sendProbes(origin, probes, 'up'))).toEqual(healthy(probes));
        expect(await titles()).toEqual(['seeded', ...titlesOf('up')]);
    });

    it('the server goes away under a running application (open connections cut) and comes back, twice', async () => {
        if (!(await requirePg())) return;
        await proxy.start();
        const { origin } = await startApp();
        const probes = probesFor(author);
        const expected = ['seeded'];
        for (let round = 0; round < 2; round++) {
            expect(statuses(await sendProbes(origin, probes, `before ${round}`))).toEqual(healthy(probes));
            expected.push(...titlesOf(`before ${round}`));
            await proxy.stop();
            const down = await sendProbes(origin, probes, `down ${round}`);
            expect(down.map(unavailableProblem).filter(Boolean)).toEqual([]);
            await proxy.start();
        }
        expect(statuses(await sendProbes(origin, probes, 'after'))).toEqual(healthy(probes));
        expected.push(...titlesOf('after'));
        expect(await titles()).toEqual(expected);
    });

    it('sessions terminated (pg_terminate_backend) in the middle of write transactions, more times than the pool has connections: 503 for those writes, nothing of them kept, 2xx after each', async () => {
        if (!(await requirePg())) return;
        await proxy.start();
        const { origin, pool } = await startApp({ max: 2 });
        const counter = await s.prisma.post.create({ data: { title: 'counter', published: true, authorId: author } });
        const probes = probesFor(author);
        const expected = ['seeded', 'counter'];
        for (let round = 0; round < 3; round++) {
            const res = await cutMidTransaction(origin, counter.id);
            expect(unavailableProblem({ probe: probes[2], res })).toBeUndefined();
            // the pool drops the dead connections: a request may still meet one (503), the next ones do not
            const first = await sendProbes(origin, probes, `first ${round}`);
            expect(first.map((r) => (r.res.status === 503 ? unavailableProblem(r) : undefined)).filter(Boolean)).toEqual([]);
            expected.push(...first.filter((r) => r.res.status < 300).flatMap((r) => r.probe.titles(`first ${round}`)));
            expect(statuses(await sendProbes(origin, probes, `next ${round}`))).toEqual(healthy(probes));
            expected.push(...titlesOf(`next ${round}`));
            expect(checkedOut(pool)).toBe(0);
        }
        // exactly the acknowledged writes are stored; the cut increments left nothing behind
        expect(await titles()).toEqual(expected);
        expect((await s.prisma.post.findUnique({ where: { id: counter.id } })).viewCount).toBe(0);
    });

    it('without withTransactionCleanup (Prisma 6.19): each transaction cut mid-way keeps its pool connection for ever', async () => {
        // why the wrapper exists: once `max` connections have leaked, every request waits for a connection that never comes
        if (!(await requirePg())) return;
        await proxy.start();
        const { origin, pool } = await startApp({ max: 3 }, true);
        const counter = await s.prisma.post.create({ data: { title: 'counter', published: true, authorId: author } });
        for (let round = 1; round <= 2; round++) {
            expect((await cutMidTransaction(origin, counter.id)).status).toBe(503);
            expect(checkedOut(pool)).toBe(round);
        }
        // the leaked connections are never given back: disconnecting would wait for them for ever
        client = undefined;
    });

    it('the database disappears (renamed away) and comes back: 503, then 2xx', async () => {
        if (!(await requirePg())) return;
        await proxy.start();
        const { origin } = await startApp();
        const probes = probesFor(author);
        expect(statuses(await sendProbes(origin, probes, 'present'))).toEqual(healthy(probes));

        await terminateSessions();
        await pgAdminQuery(`ALTER DATABASE "${dbName}" RENAME TO "${dbName}_away"`);
        try {
            const down = await sendProbes(origin, probes, 'away');
            expect(down.map(unavailableProblem).filter(Boolean)).toEqual([]);
            expect(down.find((r) => r.probe.name === 'REST create')!.res.body.errors[0]).toMatchObject({ ormCode: 'P1003' });
        } finally {
            await terminateSessions();
            await pgAdminQuery(`ALTER DATABASE "${dbName}_away" RENAME TO "${dbName}"`);
        }
        expect(statuses(await sendProbes(origin, probes, 'back'))).toEqual(healthy(probes));
        expect(await titles()).toEqual(['seeded', ...titlesOf('present'), ...titlesOf('back')]);
    });

    it('the server accepts connections but never answers: with a pool connection timeout, 503; 2xx once it answers again', async () => {
        if (!(await requirePg())) return;
        proxy.mode = 'blackhole';
        await proxy.start();
        // without connectionTimeoutMillis, node-postgres waits for ever: set it in production
        const { origin } = await startApp({ connectionTimeoutMillis: 500 });
        const probes = probesFor(author);
        const down = await sendProbes(origin, probes, 'silent');
        expect(down.map(unavailableProblem).filter(Boolean)).toEqual([]);

        await proxy.stop();
        proxy.mode = 'forward';
        await proxy.start();
        expect(statuses(await sendProbes(origin, probes, 'answering'))).toEqual(healthy(probes));
        expect(await titles()).toEqual(['seeded', ...titlesOf('answering')]);
    });
});
