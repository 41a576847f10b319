import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/generate';
import { describePg, pgAdminQuery, PG_URL_BASE, requirePg, withPgDatabase } from '../support/postgres';
import { expectReadmeAnswers } from './readme-requests';
import { q } from '../reliability/support/http';
import { call, setupDemoDb, startDemo, type RunningDemo } from './support';

/**
 * The demo behind `npm start`, on SQLite (the default) and on PostgreSQL (DEMO_DATABASE_URL): its database
 * set-up and the README's requests, against the running server.
 */

async function titlesOf(base: string, user: number): Promise<string[]> {
    const res = await call(`${base}/api/rpc/post/findMany${q({ where: { authorId: user }, orderBy: { id: 'asc' } })}`, { user });
    expect(res.status).toBe(200);
    return res.body.data.map((p: { title: string }) => p.title);
}

describe('demo on SQLite (npm start)', () => {
    const dbFile = path.join(PROJECT_ROOT, '.zenstack-test', 'db', `demo-${randomBytes(6).toString('hex')}.db`);
    const env = { DEMO_DB: dbFile };
    let demo: RunningDemo | undefined;

    beforeAll(() => fs.mkdirSync(path.dirname(dbFile), { recursive: true }));
    afterAll(async () => {
        await demo?.stop();
        for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
    });

    it('creates and seeds its database, then answers what the README shows', async () => {
        const setup = await setupDemoDb(env);
        expect(setup).toEqual({ status: 0, output: expect.stringContaining(`created and seeded ${path.relative(PROJECT_ROOT, dbFile)}`) });
        demo = await startDemo(env);
        expect(demo.banner).toContain(`with SQLite`);
        await expectReadmeAnswers(demo.url);
        const home = await call(`${demo.url}/`);
        expect(home.body.rest).toBe(`${demo.url}/api/rest/post`);
    });

    it('keeps its database on the next start, and DEMO_RESET=1 recreates it', async () => {
        expect(await titlesOf(demo!.url, 1)).toEqual(["Alice's first post", "Alice's draft", 'Hello from curl', 'Hello JSON:API']);
        expect(await demo!.stop()).toBe(0);
        demo = undefined;

        expect(await setupDemoDb(env)).toEqual({ status: 0, output: expect.stringContaining('using existing') });
        demo = await startDemo(env);
        expect(await titlesOf(demo.url, 1)).toContain('Hello JSON:API');
        await demo.stop();
        demo = undefined;

        expect(await setupDemoDb({ ...env, DEMO_RESET: '1' })).toEqual({ status: 0, output: expect.stringContaining('created and seeded') });
        demo = await startDemo(env);
        expect(await titlesOf(demo.url, 1)).toEqual(["Alice's first post", "Alice's draft"]);
    });
});

describePg('demo on PostgreSQL (DEMO_DATABASE_URL=… npm start)', () => {
    const id = randomBytes(6).toString('hex');
    const dbName = `zsapi_demo_${id}`;
    const env = { DEMO_DATABASE_URL: `${PG_URL_BASE}/${dbName}`, DEMO_PUBLIC_URL: 'https://api.example.test' };
    const running: RunningDemo[] = [];

    /** Starts instances together; every one that started is stopped in afterAll, also when another failed. */
    async function startAll(count: number): Promise<RunningDemo[]> {
        const settled = await Promise.allSettled(Array.from({ length: count }, () => startDemo(env)));
        for (const s of settled) if (s.status === 'fulfilled') running.push(s.value);
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        if (failed) throw failed.reason;
        return settled.map((s) => (s as PromiseFulfilledResult<RunningDemo>).value);
    }

    const query = (database: string, sql: string): Promise<unknown[]> => withPgDatabase(database, async (client) => (await client.query(sql)).rows);

    afterAll(async () => {
        await Promise.all(running.map((d) => d.stop()));
        if (await requirePg()) await pgAdminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    });

    it('creates and seeds its own database once when two instances start together, and both serve it as one API', async () => {
        if (!(await requirePg())) return;
        const setups = await Promise.all([setupDemoDb(env), setupDemoDb(env)]);
        expect(setups.map((s) => s.status)).toEqual([0, 0]);
        const said = setups.map((s) => s.output).join('\n');
        expect(said.match(/created and seeded database/g)).toHaveLength(1);
        expect(said).toContain(`using existing database "${dbName}"`);

        const [a, b] = await startAll(2);
        expect(a.banner).toContain(`with PostgreSQL database "${dbName}"`);
        await expectReadmeAnswers(a.url, 'https://api.example.test/api/rest');

        // what one instance writes, the other serves: the handlers keep no state of their own
        const created = await call(`${b.url}/api/rest/post`, {
            method: 'POST',
            user: 2,
            body: { data: { type: 'post', attributes: { title: 'Written through instance B' }, relationships: { author: { data: { type: 'user', id: 2 } } } } },
        });
        expect(created.status).toBe(201);
        // links use the public URL the instances sit behind, not their own ports
        expect(created.body.data.links.self).toBe(`https://api.example.test/api/rest/post/${created.body.data.id}`);
        expect(await titlesOf(a.url, 2)).toEqual(["Bob's first post", "Bob's draft", 'Written through instance B']);
        expect(await titlesOf(a.url, 1)).toContain('Hello from curl');
    });

    it('keeps its database on the next set-up, refuses one whose set-up did not finish, and DEMO_RESET=1 recreates it', async () => {
        if (!(await requirePg())) return;
        expect(await setupDemoDb(env)).toEqual({ status: 0, output: expect.stringContaining('using existing database') });
        await Promise.all(running.splice(0).map((d) => d.stop()));

        // as if the set-up had been killed while seeding
        await query(dbName, "UPDATE _zenstack_api_demo SET state = 'seeding'");
        const interrupted = await setupDemoDb(env);
        expect(interrupted.status).toBe(1);
        expect(interrupted.output).toContain(`the demo's set-up of database "${dbName}" did not finish: DEMO_RESET=1 recreates it`);

        expect(await setupDemoDb({ ...env, DEMO_RESET: '1' })).toEqual({ status: 0, output: expect.stringContaining(`recreated and seeded database "${dbName}"`) });
        expect(await query(dbName, 'SELECT state FROM _zenstack_api_demo')).toEqual([{ state: 'ready' }]);
        const [demo] = await startAll(1);
        expect(await titlesOf(demo.url, 2)).toEqual(["Bob's first post", "Bob's draft"]);
    });

    it('fills an empty database it is named, marks it, and refuses a server it cannot reach in one line', async () => {
        if (!(await requirePg())) return;
        const empty = `zsapi_demo_empty_${randomBytes(6).toString('hex')}`;
        await pgAdminQuery(`CREATE DATABASE "${empty}"`);
        try {
            expect(await setupDemoDb({ DEMO_DATABASE_URL: `${PG_URL_BASE}/${empty}` })).toEqual({ status: 0, output: expect.stringContaining(`created and seeded database "${empty}"`) });
            expect(await query(empty, 'SELECT state FROM _zenstack_api_demo')).toEqual([{ state: 'ready' }]);
            expect(await query(empty, 'SELECT count(*)::int AS n FROM "Post"')).toEqual([{ n: 6 }]);
        } finally {
            await pgAdminQuery(`DROP DATABASE IF EXISTS "${empty}" WITH (FORCE)`);
        }
        // nothing listens on port 1
        const unreachable = await setupDemoDb({ DEMO_DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/zsapi_demo_nowhere' });
        expect(unreachable.status).toBe(1);
        expect(unreachable.output).toContain('cannot connect to PostgreSQL at 127.0.0.1:1');
        expect(unreachable.output).not.toMatch(/\n\s+at /);
    });

    it.each([
        ['a table of its own', 'CREATE TABLE accounts (id int PRIMARY KEY); INSERT INTO accounts VALUES (7)', 'public.accounts', 'SELECT id FROM accounts'],
        ['a table named like one of the demo\'s', 'CREATE TABLE "User" (id int); INSERT INTO "User" VALUES (7)', 'public."User"', 'SELECT id FROM "User"'],
        ['the demo\'s tables in another schema', 'CREATE SCHEMA other; CREATE TABLE other."Post" (id int); INSERT INTO other."Post" VALUES (7)', 'other."Post"', 'SELECT id FROM other."Post"'],
    ])('leaves a database holding %s alone, also with DEMO_RESET=1', async (_what, create, named, read) => {
        if (!(await requirePg())) return;
        const foreign = `zsapi_demo_foreign_${randomBytes(6).toString('hex')}`;
        await pgAdminQuery(`CREATE DATABASE "${foreign}"`);
        try {
            await query(foreign, create);
            for (const reset of ['0', '1']) {
                const setup = await setupDemoDb({ DEMO_DATABASE_URL: `${PG_URL_BASE}/${foreign}`, DEMO_RESET: reset });
                expect(setup.status).toBe(1);
                expect(setup.output).toContain(`database "${foreign}" holds what the demo did not create (${named}`);
                expect(setup.output).not.toMatch(/\n\s+at /); // told in one line, no stack
            }
            expect(await query(foreign, read)).toEqual([{ id: 7 }]);
            expect(await query(foreign, "SELECT to_regclass('public._zenstack_api_demo') AS marked")).toEqual([{ marked: null }]);
        } finally {
            await pgAdminQuery(`DROP DATABASE IF EXISTS "${foreign}" WITH (FORCE)`);
        }
    });

    it.each([
        ['mysql://root@127.0.0.1:3306/demo', 'must be a postgresql:// URL'],
        [`${PG_URL_BASE}/postgres`, 'a database of its own, not in "postgres"'],
        [`${PG_URL_BASE}/`, 'must name a database'],
        [`${PG_URL_BASE}/bad-name`, 'must name a database'],
        [`${PG_URL_BASE}/zs%ZZ`, 'must name a database'],
    ])('refuses DEMO_DATABASE_URL %s', async (url, message) => {
        const setup = await setupDemoDb({ DEMO_DATABASE_URL: url });
        expect(setup.status).toBe(1);
        expect(setup.output).toContain(message);
        expect(setup.output).not.toMatch(/\n\s+at /);
    });
});
