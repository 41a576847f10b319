import { RestApiHandler } from '../../src/api/rest';
import type { RequestContext } from '../../src/types';
import { rpcCaller } from '../rpc/support';
import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';

/**
 * A value longer than its `VarChar` column allows (Prisma P2000, SQLSTATE 22001) is the request's fault: a 400 in
 * both protocols that says so and names the limit, with nothing written. Through a driver adapter Prisma's own message
 * says "Column: (not available)"; the database's reason names the type and its length, never the value.
 */

const SCHEMA = `
model Item {
  id   Int    @id
  code String @db.VarChar(5) @map("item_code")
  @@allow('all', true)
}
`;

const TOO_LONG = /^a value of the request is too long for its column in the database: value too long for type character varying\(5\)$/;

describePg('a value too long for its column on PostgreSQL', () => {
    let s: TestSchema | undefined;
    afterAll(async () => {
        await s?.cleanup();
    });

    it('is a 400 naming the limit in both protocols, in a transaction too, and nothing is written', async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SCHEMA, { provider: 'postgresql' });
        const rpc = rpcCaller(s);

        const created = await rpc('POST', '/item/create', { body: { data: { id: 1, code: 'toolong-SECRET' } } });
        expect(created.status).toBe(400);
        expect(created.body.error).toMatchObject({ code: 'P2000', message: expect.stringMatching(TOO_LONG) });

        const tx = await rpc('POST', '/$transaction/sequential', {
            body: [
                { model: 'Item', op: 'create', args: { data: { id: 2, code: 'fits' } } },
                { model: 'Item', op: 'update', args: { where: { id: 2 }, data: { code: 'toolong' } } },
            ],
        });
        expect([tx.status, tx.body.error?.failedOperation, tx.body.error?.message]).toEqual([400, 1, expect.stringMatching(TOO_LONG)]);

        const rest = RestApiHandler({ endpoint: 'http://localhost/api' });
        const ctx = { method: 'POST', path: '/item', query: {}, requestBody: { data: { type: 'item', id: '3', attributes: { code: 'toolong' } } }, prisma: s.enhance(undefined), modelMeta: s.modelMeta };
        const answer = await rest(ctx as unknown as RequestContext);
        const error = (answer.body as { errors: Array<{ code: string; detail: string }> }).errors[0];
        expect([answer.status, error.code, error.detail]).toEqual([400, 'orm-error', expect.stringMatching(TOO_LONG)]);

        expect(JSON.stringify([created.body, tx.body, answer.body])).not.toMatch(/SECRET|not available|item_code/);
        expect(await s.prisma.item.count()).toBe(0);
    });
});
