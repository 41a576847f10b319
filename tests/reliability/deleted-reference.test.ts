import Database from 'better-sqlite3';
import { Client } from 'pg';
import { withTransactionCleanup } from '../../src';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import type { Response } from '../../src/types';
import { driverAdapter } from '../support/generated';
import { describePg, pgAdminQuery, requirePg } from '../support/postgres';
import { loadSchema, type Provider, type TestSchema } from '../support/schema';
import { hookStatement, writesTo } from './support/statement-hook';

/**
 * A write that links a related record (JSON:API relationship or key attribute, RPC `connect`) while another session
 * deletes that record: it exists when the handler or ZenStack checks it, and is gone when the row is written. The
 * other session deletes it just before the request's INSERT or UPDATE of the comment reaches the database (a hook on
 * the driver adapter, real statements on a real database). The answer must be the one for a related record that was
 * never there: JSON:API 404 with a pointer to the relationship (v1.1: a request referencing a related resource that does
 * not exist MUST be answered 404), RPC 404 P2025 for a `connect` (and the 400 P2003 a plain key gets either way). On
 * PostgreSQL the old source answered 400 P2003 for all but one of them. On SQLite the request's transaction holds the
 * write lock from its first statement: the delete is refused, and the request succeeds as if nobody had tried.
 * A foreign-key violation of a record being deleted while others reference it stays a 400 (nothing to map).
 * PostgreSQL tells the two violations apart only in its message, which follows the server's `lc_messages`: both suites
 * also run with the messages in German.
 */

type Send = (path: string, body: unknown) => Promise<Response>;
/** A request linking comment content to a post, the status it gets for a post that is not there, and for one that is. */
type Case = [name: string, send: (rest: Send, rpc: Send, post: number) => Promise<Response>, missing: number, ok: number];

const CASES: Case[] = [
    [
        'JSON:API create with the relationship',
        (rest, _rpc, p) => rest('POST /comment', { data: { type: 'comment', attributes: { content: 'late' }, relationships: { post: { data: { type: 'post', id: String(p) } } } } }),
        404,
        201,
    ],
    ['JSON:API create with the key attribute', (rest, _rpc, p) => rest('POST /comment', { data: { type: 'comment', attributes: { content: 'late', postId: p } } }), 404, 201],
    [
        'JSON:API update of the relationship in the resource',
        (rest, _rpc, p) => rest('PATCH /comment/1', { data: { type: 'comment', id: '1', relationships: { post: { data: { type: 'post', id: String(p) } } } } }),
        404,
        200,
    ],
    ['JSON:API relationship PATCH', (rest, _rpc, p) => rest('PATCH /comment/1/relationships/post', { data: { type: 'post', id: String(p) } }), 404, 200],
    ['RPC create with connect', (_rest, rpc, p) => rpc('POST /comment/create', { data: { content: 'late', post: { connect: { id: p } } } }), 404, 201],
    ['RPC update with connect', (_rest, rpc, p) => rpc('PUT /comment/update', { where: { id: 1 }, data: { post: { connect: { id: p } } } }), 404, 200],
    [
        'RPC connect in $transaction/sequential',
        (_rest, rpc, p) => rpc('POST /$transaction/sequential', [{ model: 'comment', op: 'create', args: { data: { content: 'late', post: { connect: { id: p } } } } }]),
        404,
        200,
    ],
    // a plain key is checked by the database alone: 400 P2003 for a post that was never there, and so here
    ['RPC create with the key', (_rest, rpc, p) => rpc('POST /comment/create', { data: { content: 'late', postId: p } }), 400, 201],
];

/** The other session: deletes a post, or says why it could not. */
interface Deleter {
    remove(post: number): Promise<'deleted' | 'refused'>;
    close(): Promise<void>;
}

async function deleterFor(s: TestSchema): Promise<Deleter> {
    if (s.provider === 'sqlite') {
        // waits for nothing: a lock held by the request's transaction refuses the delete at once
        const db = new Database(s.dbFile!, { timeout: 0 });
        return {
            remove: async (post) => {
                try {
                    db.prepare('DELETE FROM "Post" WHERE id = ?').run(post);
                    return 'deleted';
                } catch (err) {
                    if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
                    return 'refused';
                }
            },
            close: async () => {
                db.close();
            },
        };
    }
    const pg = new Client({ connectionString: s.databaseUrl });
    await pg.connect();
    return {
        remove: async (post) => ((await pg.query('DELETE FROM "Post" WHERE id = $1', [post])).rowCount === 1 ? 'deleted' : 'refused'),
        close: () => pg.end(),
    };
}

const GERMAN = 'de_DE.UTF-8';

/**
 * Makes PostgreSQL answer every new session of the test's database in German (as a server whose `lc_messages` came from
 * a German system at `initdb`), and checks that it does. False, with a visible note, where the server's machine has no
 * German locale (`localedef -i de_DE -f UTF-8 de_DE.UTF-8` adds it; restart the server after). `insertNamingNothing` is an INSERT whose foreign key
 * names no row.
 */
async function speakGerman(s: TestSchema, insertNamingNothing: string): Promise<boolean> {
    const database = new URL(s.databaseUrl).pathname.slice(1);
    try {
        await pgAdminQuery(`ALTER DATABASE "${database}" SET lc_messages TO '${GERMAN}'`);
    } catch (err) {
        if ((err as { code?: unknown }).code !== '22023') throw err;
        // eslint-disable-next-line no-console
        console.warn(`SKIPPED: the PostgreSQL server has no ${GERMAN} locale; the suites with German messages did not run`);
        return false;
    }
    const probe = new Client({ connectionString: s.databaseUrl });
    await probe.connect();
    try {
        const violation = await probe.query(insertNamingNothing).then(
            () => undefined,
            (err: Error & { code?: string }) => `${err.code} ${err.message}`,
        );
        expect(violation).toMatch(/^23503 .*Fremdschlüssel/);
    } finally {
        await probe.end();
    }
    return true;
}

function suite(provider: Provider, german = false): void {
    let s: TestSchema | undefined;
    let deleter: Deleter;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let client: any;
    /** What the hook does before the request's next write to Comment (once per arming). */
    let armed: (() => Promise<void>) | undefined;

    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(undefined, { provider });
        await s.prisma.user.create({ data: { id: 1, email: 'author@deleted-reference.test' } });
        await s.prisma.post.create({ data: { id: 1, title: 'home', published: true, authorId: 1 } });
        await s.prisma.comment.create({ data: { id: 1, content: 'moved about', postId: 1 } });
        if (german && !(await speakGerman(s, `INSERT INTO "Comment" (id, content, "postId") VALUES (-1, 'x', -1)`))) {
            await s.cleanup();
            s = undefined;
            return;
        }
        deleter = await deleterFor(s);
        const comments = writesTo('Comment');
        const hooked = (factory: object): object =>
            hookStatement(factory, {
                matches: (sql) => armed !== undefined && comments(sql),
                before: () => {
                    const run = armed!;
                    armed = undefined;
                    return run();
                },
                times: Infinity,
            });
        client = s.createClient(withTransactionCleanup(hooked(await driverAdapter(provider, s.databaseUrl)) as never));
    });
    afterAll(async () => {
        await deleter?.close();
        await client?.$disconnect();
        await s?.cleanup();
    });

    const rest: Send = (route, requestBody) => {
        const [method, path] = route.split(' ');
        return RestApiHandler({ endpoint: 'http://localhost/api' })({ method, path, query: {}, requestBody, prisma: s!.enhanceClient(client, { id: 1 }), modelMeta: s!.modelMeta, logger: null });
    };
    const rpc: Send = (route, requestBody) => {
        const [method, path] = route.split(' ');
        return RPCApiHandler()({ method, path, query: {}, requestBody, prisma: s!.enhanceClient(client, { id: 1 }), modelMeta: s!.modelMeta, zodSchemas: s!.zodSchemas, logger: null });
    };
    const state = async () => JSON.stringify(await s!.prisma.comment.findMany({ orderBy: { id: 'asc' } }));

    let nextPost = 100;
    it.each(CASES)('%s', async (_name, send, status, ok) => {
        if (!s) return;
        const post = nextPost++;
        await s.prisma.post.create({ data: { id: post, title: 'doomed', published: true, authorId: 1 } });
        const before = await state();
        let deletion: 'deleted' | 'refused' | undefined;
        armed = async () => {
            deletion = await deleter.remove(post);
        };
        const raced = await send(rest, rpc, post);
        armed = undefined;
        if (provider === 'sqlite') {
            // the request's transaction took the write lock at its start: the delete waited for nothing and was refused
            expect([deletion, raced.status]).toEqual(['refused', ok]);
            expect(await s.prisma.post.count({ where: { id: post } })).toBe(1);
            await s.prisma.comment.update({ where: { id: 1 }, data: { postId: 1 } });
            return;
        }
        expect(deletion).toBe('deleted');
        // the post is gone now, as if it had never been there: the same request gets the answer for a missing post
        const missing = await send(rest, rpc, post);
        expect(missing.status).toBe(status);
        expect({ status: raced.status, body: raced.body }).toEqual({ status: missing.status, body: missing.body });
        expect(await state()).toBe(before);
    });
}

describe('a related record deleted while a write links it [sqlite]', () => suite('sqlite'));
describePg('a related record deleted while a write links it', () => suite('postgresql'));
describePg('a related record deleted while a write links it, messages in German', () => suite('postgresql', true));

/**
 * The other foreign-key violation: a record deleted while rows still reference it (a required relation, Prisma's
 * default `onDelete: Restrict`). That is no missing reference of the request: both protocols answer 400 as before,
 * also for a record the user may delete but not read (taken for a missing reference, JSON:API would look it up,
 * not see it, and answer 404).
 */
const OWNERS = `
model Owner {
  id     Int   @id
  hidden Boolean @default(false)
  pets   Pet[]
  @@allow('create,update,delete', true)
  @@allow('read', !hidden)
}
model Pet {
  id      Int   @id
  owner   Owner @relation(fields: [ownerId], references: [id])
  ownerId Int
  @@allow('all', true)
}
`;

function referencedSuite(provider: Provider, german = false): void {
    let s: TestSchema | undefined;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let client: any;
    beforeAll(async () => {
        if (provider === 'postgresql' && !(await requirePg())) return;
        s = await loadSchema(OWNERS, { provider });
        await s.prisma.owner.create({ data: { id: 1, pets: { create: { id: 1 } } } });
        await s.prisma.owner.create({ data: { id: 2, hidden: true, pets: { create: { id: 2 } } } });
        if (german && !(await speakGerman(s, 'INSERT INTO "Pet" (id, "ownerId") VALUES (-1, -1)'))) {
            await s.cleanup();
            s = undefined;
            return;
        }
        // sessions opened from here on, so in the language just set
        client = s.createClient(withTransactionCleanup(await driverAdapter(provider, s.databaseUrl)));
    });
    afterAll(async () => {
        await client?.$disconnect();
        await s?.cleanup();
    });

    it.each([
        ['readable', 1, 'delete'],
        ['hidden', 2, 'deleteMany'],
    ])('JSON:API and RPC deletes of a referenced %s record answer 400, and delete nothing', async (_kind, id, op) => {
        if (!s) return;
        const prisma = s.enhanceClient(client);
        const rest = await RestApiHandler({ endpoint: 'http://localhost/api' })({ method: 'DELETE', path: `/owner/${id}`, query: {}, prisma, modelMeta: s.modelMeta, logger: null });
        const rpc = await RPCApiHandler()({ method: 'DELETE', path: `/owner/${op}`, query: { q: JSON.stringify({ where: { id } }) }, prisma, modelMeta: s.modelMeta, logger: null });
        expect([rest.status, (rest.body as { errors: { ormCode?: string }[] }).errors[0].ormCode]).toEqual([400, 'P2003']);
        expect([rpc.status, (rpc.body as { error: { code?: string } }).error.code]).toEqual([400, 'P2003']);
        expect(await s.prisma.owner.count()).toBe(2);
    });
}

describe('a delete of a record others reference [sqlite]', () => referencedSuite('sqlite'));
describePg('a delete of a record others reference', () => referencedSuite('postgresql'));
describePg('a delete of a record others reference, messages in German', () => referencedSuite('postgresql', true));
