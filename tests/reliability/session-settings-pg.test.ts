import { PrismaPg } from '@prisma/adapter-pg';
import { Client } from 'pg';
import { RestApiHandler } from '../../src/api/rest';
import { RPCApiHandler } from '../../src/api/rpc';
import { withTransactionCleanup } from '../../src/driver/transaction-cleanup';
import type { Response } from '../../src/types';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * Conditions an operator sets on the application's PostgreSQL sessions, not faults of the request: a
 * statement cancelled by `statement_timeout` (SQLSTATE 57014) while it waits for a busy row, and a write
 * on a read-only session (25006, e.g. connected to a standby during a failover). Both answer 503 with
 * `Retry-After` in both protocols, as a busy or unavailable database does, never a 500.
 */

const SCHEMA = `
model Counter {
  id    Int @id
  value Int
  @@allow('all', true)
}
`;

let s: TestSchema | undefined;

/** A client of the test database whose sessions run with the given settings (libpq `options`). */
function clientWith(settings: string) {
    const url = new URL(s!.databaseUrl);
    url.searchParams.set('options', settings);
    return s!.createClient(withTransactionCleanup(new PrismaPg({ connectionString: url.toString() })));
}

/** One RPC and one REST update of counter 1 through `client`. */
async function updateBoth(client: unknown): Promise<Response[]> {
    const prisma = s!.enhanceClient(client);
    const common = { query: {}, prisma, modelMeta: s!.modelMeta, logger: null };
    const rpc = await RPCApiHandler()({ ...common, method: 'PUT', path: '/counter/update', requestBody: { where: { id: 1 }, data: { value: 2 } } });
    const rest = await RestApiHandler({ endpoint: 'http://localhost/api' })({
        ...common,
        method: 'PATCH',
        path: '/counter/1',
        requestBody: { data: { type: 'counter', id: '1', attributes: { value: 3 } } },
    });
    return [rpc, rest];
}

function expectUnavailable(res: Response, message: RegExp): void {
    expect(res.status).toBe(503);
    expect(res.headers?.['retry-after']).toBe('1');
    const body = res.body as { error?: { message: string }; errors?: { detail: string }[] };
    expect(body.error?.message ?? body.errors?.[0].detail).toMatch(message);
}

describePg('PostgreSQL session settings that refuse a statement', () => {
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql' });
        await s.prisma.counter.create({ data: { id: 1, value: 1 } });
    });
    afterAll(async () => {
        await s?.cleanup();
    });

    it('statement_timeout cancelling an update that waits for a locked row: 503 busy, nothing written', async () => {
        if (!s) return;
        const locker = new Client({ connectionString: s.databaseUrl });
        await locker.connect();
        const client = clientWith('-c statement_timeout=300');
        try {
            await locker.query('BEGIN');
            await locker.query('SELECT id FROM "Counter" WHERE id = 1 FOR UPDATE');
            for (const res of await updateBoth(client)) expectUnavailable(res, /busy/);
            await locker.query('ROLLBACK');
            expect((await s.prisma.counter.findUnique({ where: { id: 1 } })).value).toBe(1);
        } finally {
            await locker.end();
            await client.$disconnect();
        }
    });

    it('a write on a read-only session: 503 unavailable, nothing written', async () => {
        if (!s) return;
        const client = clientWith('-c default_transaction_read_only=on');
        try {
            for (const res of await updateBoth(client)) expectUnavailable(res, /unavailable/);
            expect((await s.prisma.counter.findUnique({ where: { id: 1 } })).value).toBe(1);
        } finally {
            await client.$disconnect();
        }
    });
});
