import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type LoadOptions, type TestSchema } from '../support/schema';
import { AFTER_CLIENT_GONE, REPORT_REACHED } from './support/abort-protocol';
import { connectAndWrite, postHead, startAbortServer, wholePost, type AbortServer } from './support/abort-server';

/**
 * Clients that go away mid-request, over real sockets, against every Node-served adapter in a server process of its
 * own (`abort-server-child.ts`): while the body is still being sent, before the adapter got to read it (an async
 * step in front of it ran first), while the handler runs the write, and while a 1,000-row answer is being written.
 * After each, the server must have ended every request it received (none left waiting for a body that will not
 * come), logged nothing, thrown nothing (no uncaught exception, no unhandled rejection, no write after end), written
 * nothing of a body it did not get whole, written a write it ran whole, and given back SQLite's connection or the
 * PostgreSQL connections: each adapter then answers a new write.
 */

const ADAPTERS = ['node', 'express', 'express.json', 'fastify', 'next', 'h3'];
/** The adapters that read the body themselves, after the application's own async step (or `getPrisma`, for h3) ran. */
const READ_AFTER_AWAIT = ['node', 'express', 'next', 'h3'];
const PAGE = 1000;

function abortSuite(load: LoadOptions, ready: () => Promise<boolean>) {
    let s: TestSchema | undefined;
    let server: AbortServer | undefined;
    beforeAll(async () => {
        if (!(await ready())) return;
        s = await loadSchema(undefined, load);
        await s.prisma.user.create({ data: { id: 1, email: 'u1@x' } });
        await s.prisma.post.createMany({ data: Array.from({ length: PAGE }, (_, i) => ({ title: `seeded ${i} ${'x'.repeat(100)}`, published: true, authorId: 1 })) });
        server = await startAbortServer(s);
    });
    afterAll(async () => {
        await server?.stop();
        await s?.cleanup();
    });

    const url = (adapter: string, path: string) => `http://127.0.0.1:${server!.ports[adapter]}${path}`;

    /** Every request answered, nothing logged or thrown; then each adapter still takes a write (the database is free). */
    async function expectHealthy(label: string): Promise<void> {
        const stats = await server!.settled();
        expect({ unanswered: stats.unanswered, problems: stats.problems, logs: stats.logs }).toEqual({ unanswered: [], problems: [], logs: [] });
        for (const adapter of ADAPTERS) {
            const res = await fetch(url(adapter, '/api/post/create'), {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ data: { title: `${label}: then ${adapter}`, authorId: 1 } }),
            });
            expect({ adapter, status: res.status }).toEqual({ adapter, status: 201 });
        }
    }

    const titled = (prefix: string) => s!.prisma.post.count({ where: { title: { startsWith: prefix } } });

    it('a body cut off mid-way (partial JSON; whole JSON but not the end of its chunked encoding or of its Content-Length) writes nothing', async () => {
        if (!s || !server) return;
        for (const adapter of ADAPTERS) {
            const port = server.ports[adapter];
            const json = JSON.stringify({ data: { title: `cut ${adapter}`, authorId: 1 } });
            const cuts = [
                postHead('/api/post/create', {}, json.length) + json.slice(0, json.length >> 1),
                `${postHead('/api/post/create', {})}${json.length.toString(16)}\r\n${json}\r\n`,
                postHead('/api/post/create', {}, json.length + 10) + json,
            ];
            for (const text of cuts) (await connectAndWrite(port, text)).destroy();
        }
        await expectHealthy('cut');
        expect(await titled('cut ')).toBe(0);
    });

    it('clients gone while their writes run, more of them than the pool has connections: each write is whole, the database is given back', async () => {
        if (!s || !server) return;
        const held = server.next('held');
        server.command({ type: 'hold' });
        await held;
        const sockets = [];
        for (const round of [1, 2]) {
            for (const adapter of ADAPTERS) {
                const body = { data: { title: `midway ${adapter} ${round}`, authorId: 1, comments: { create: [{ content: 'a' }, { content: 'b' }, { content: 'c' }] } } };
                const reached = server.next('reached');
                sockets.push(await connectAndWrite(server.ports[adapter], wholePost('/api/post/create', body, { [REPORT_REACHED]: '1' })));
                await reached;
            }
        }
        for (const socket of sockets) socket.destroy();
        const released = server.next('released');
        server.command({ type: 'release' });
        await released;
        await expectHealthy('midway');
        const written = await s.prisma.post.findMany({ where: { title: { startsWith: 'midway ' } }, select: { title: true, _count: { select: { comments: true } } } });
        // all or nothing: a post without its three comments would be half a write
        expect(written.filter((p: { _count: { comments: number } }) => p._count.comments !== 3)).toEqual([]);
    });

    it(`clients gone while a ${PAGE}-row answer is being written: no write after end, nothing stuck`, async () => {
        if (!s || !server) return;
        const path = `/api/post/findMany?q=${encodeURIComponent(JSON.stringify({ take: PAGE }))}`;
        for (const adapter of ADAPTERS) {
            for (let i = 0; i < 3; i++) {
                const socket = await connectAndWrite(server.ports[adapter], `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
                await new Promise<void>((resolve) => socket.once('data', () => resolve()));
                socket.destroy();
            }
            // the same page, read whole
            const res = await fetch(url(adapter, path));
            expect({ adapter, status: res.status, rows: ((await res.json()) as { data: unknown[] }).data.length }).toEqual({ adapter, status: 200, rows: PAGE });
        }
        await expectHealthy('page');
    });

    // last: a request it leaves stuck stays unanswered for the rest of the server's life
    it('a client gone before the adapter got to read its body: the request ends (nothing waits for the body for ever), nothing is written', async () => {
        if (!s || !server) return;
        for (const adapter of READ_AFTER_AWAIT) {
            const waiting = server.next('waiting');
            const socket = await connectAndWrite(server.ports[adapter], wholePost('/api/post/create', { data: { title: `gone ${adapter}`, authorId: 1 } }, { [AFTER_CLIENT_GONE]: '1' }));
            await waiting;
            socket.destroy();
        }
        await expectHealthy('gone');
        expect(await titled('gone ')).toBe(0);
    });
}

describe('clients that go away mid-request [sqlite]', () => {
    abortSuite({}, async () => true);
});

describePg('clients that go away mid-request', () => {
    abortSuite({ provider: 'postgresql' }, requirePg);
});
