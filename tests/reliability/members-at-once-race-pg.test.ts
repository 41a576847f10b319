import { Client } from 'pg';
import { withTransactionCleanup } from '../../src';
import { RestApiHandler } from '../../src/api/rest';
import { driverAdapter } from '../support/generated';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { hookStatement, writesTo } from './support/statement-hook';

/**
 * Members of a one-to-many relationship are linked at once by an `updateMany` whose filter holds the update rule
 * (src/api/rest/operations/write/members-at-once.ts). On PostgreSQL, a row another transaction changes while the
 * `updateMany` waits for it is checked again against its new version: a comment moved meanwhile by its post's
 * author is left out (the rule's join reads the post it was under), where ZenStack's nested connect, having checked
 * the row it read, waits and writes. A short count is therefore answered by the nested writes, made again: the
 * author's move is a 200, not a 403. Deterministic: the other session holds its move uncommitted until the
 * request's UPDATE reaches the database, then commits.
 */

describePg('moving a member at once while another request moves it', () => {
    let s: TestSchema | undefined;
    let other: Client;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let client: any;
    let armed: (() => Promise<void>) | undefined;

    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(undefined, { provider: 'postgresql' });
        await s.prisma.user.create({ data: { id: 1, email: 'author@members-race.test' } });
        for (const id of [1, 2, 3]) await s.prisma.post.create({ data: { id, title: `post ${id}`, published: true, authorId: 1 } });
        await s.prisma.comment.create({ data: { id: 1, content: 'moved about', postId: 1 } });
        other = new Client({ connectionString: s.databaseUrl });
        await other.connect();
        const comments = writesTo('Comment');
        const hooked = hookStatement(await driverAdapter('postgresql', s.databaseUrl), {
            matches: (sql) => armed !== undefined && comments(sql),
            before: () => {
                const run = armed!;
                armed = undefined;
                return run();
            },
        });
        client = s.createClient(withTransactionCleanup(hooked as never));
    });
    afterAll(async () => {
        await other?.end();
        await client?.$disconnect();
        await s?.cleanup();
    });

    it('the author moving a comment to a third post wins after the other move commits (200), and the comment ends there', async () => {
        if (!s) return;
        let committed: Promise<unknown> | undefined;
        armed = async () => {
            await other.query('BEGIN');
            await other.query('UPDATE "Comment" SET "postId" = 2 WHERE id = 1');
            // committed once the request's UPDATE waits for the row (it is sent as this returns)
            committed = new Promise((resolve) => setTimeout(resolve, 300)).then(() => other.query('COMMIT'));
        };
        const res = await RestApiHandler({ endpoint: 'http://localhost/api' })({
            method: 'POST',
            path: '/post/3/relationships/comments',
            query: {},
            requestBody: { data: [{ type: 'comment', id: '1' }] },
            prisma: s.enhanceClient(client, { id: 1 }),
            modelMeta: s.modelMeta,
            logger: null,
        });
        await committed;
        expect(committed).toBeDefined(); // the hook ran: the race happened
        expect([res.status, JSON.stringify(res.body).slice(0, 200)]).toEqual([200, expect.stringContaining('"id":1')]);
        expect((await s.prisma.comment.findUnique({ where: { id: 1 } })).postId).toBe(3);
    });
});
