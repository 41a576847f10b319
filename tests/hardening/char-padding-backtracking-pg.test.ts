import { describePg, requirePg } from '../support/postgres';
import { NATIVE_TYPES_OPTIONS, NATIVE_TYPES_SCHEMA } from '../support/pg-native-types';
import { loadSchema, type TestSchema } from '../support/schema';
import { startWorkerServer, stillAnswers, type OrdinaryRead, type WorkerServer } from './support/server-worker';

/**
 * The handlers compare `@db.Char(n)` ids as PostgreSQL does, without trailing spaces. Dropping them with the pattern
 * `/ +$/` tried every run of spaces up to the end of the text: an id of many spaces followed by anything else kept
 * the event loop busy for minutes (400,000 spaces: about three) and the server answered nobody. The server runs
 * in a worker thread, so that the test sees whether it still answers (the test's timeout fails it; no duration is
 * asserted).
 */

const HOSTILE = `ab${' '.repeat(400_000)}x`;
const TIMEOUT = 30_000;
const ORDINARY: OrdinaryRead = {
    path: `/rpc/box/findMany?q=${encodeURIComponent('{"select":{"code":true}}')}`,
    answer: { status: 200, body: { data: [{ code: 'ab  ' }] } },
};

describePg('a Char id of many spaces followed by another character', () => {
    let s: TestSchema | undefined;
    let server: WorkerServer | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        const { provider, ...options } = NATIVE_TYPES_OPTIONS;
        s = await loadSchema(NATIVE_TYPES_SCHEMA, { ...options, provider });
        await s.prisma.box.create({ data: { code: 'ab' } });
        server = await startWorkerServer(s, NATIVE_TYPES_SCHEMA);
    });
    afterAll(async () => {
        await server?.stop();
        await s?.cleanup();
    });

    async function send(method: string, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
        const res = await fetch(`${server!.origin}${path}`, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }

    it(
        'REST: the id of a PATCH body is a 409 (it names another record), and the server answers meanwhile',
        async () => {
            if (!server) return;
            const res = await stillAnswers(server, () => send('PATCH', '/rest/box/ab', { data: { type: 'box', id: HOSTILE } }), ORDINARY);
            expect(res.status).toBe(409);
        },
        TIMEOUT,
    );

    it(
        'RPC: a member of a relation set is answered (no such item), and the server answers meanwhile',
        async () => {
            if (!server) return;
            const res = await stillAnswers(server, () => send('PUT', '/rpc/box/update', { where: { code: 'ab' }, data: { items: { set: [{ code: HOSTILE }] } } }), ORDINARY);
            expect(res.status).toBeGreaterThanOrEqual(400);
            expect(res.status).toBeLessThan(500);
            expect(await s!.prisma.item.count()).toBe(0);
        },
        TIMEOUT,
    );
});
