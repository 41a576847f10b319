import { describePg, requirePg } from '../support/postgres';
import { loadSchema, type TestSchema } from '../support/schema';
import { BCRYPT_HASH, callers, levelLogger, SECRETS_SCHEMA } from './support/secrets-schema';

/**
 * On PostgreSQL the database's errors hold values too: a unique violation's `Key (email)=(…)` and a CHECK
 * violation's `Failing row contains (…)` (the whole row, hashed password included) in their DETAIL. None of it
 * may reach an answer or a log line.
 */

describePg('PostgreSQL: constraint violations carrying passwords and secrets', () => {
    let s: TestSchema | undefined;
    beforeAll(async () => {
        if (!(await requirePg())) return;
        s = await loadSchema(SECRETS_SCHEMA, { provider: 'postgresql' });
        await s.prisma.$executeRawUnsafe(`ALTER TABLE "Member" ADD CONSTRAINT name_not_forbidden CHECK (name <> 'forbidden')`);
        await s.prisma.member.create({ data: { id: 1, email: 'one@x.io', password: 'STORED-PW-1', token: 'STORED-TOKEN-1', secret: 'STORED-SECRET-1', name: 'one' } });
    });
    afterAll(() => s?.cleanup());

    it('a taken e-mail and a CHECK violation: RPC, RPC in a transaction and REST answer without a value, and log none', async () => {
        if (!s) return;
        const logger = levelLogger();
        const { rpc, rest } = callers(s, logger, undefined);
        const member = (id: number, extra: Record<string, unknown>) => ({ id, email: `m${id}@x.io`, password: `PLAIN-PW-${id}`, token: `PLAIN-TOKEN-${id}`, secret: `PLAIN-SECRET-${id}`, name: 'n', ...extra });
        const answers = [];
        for (const extra of [{ email: 'one@x.io' }, { name: 'forbidden' }]) {
            answers.push(await rpc('POST', '/member/create', { data: member(answers.length + 10, extra) }));
            answers.push(await rpc('POST', '/$transaction/sequential', [{ model: 'Member', op: 'create', args: { data: member(answers.length + 10, extra) } }]));
            answers.push(await rest('POST', '/member', { data: { type: 'member', attributes: member(answers.length + 10, extra) } }));
        }
        expect(answers.map((a) => a.status)).toEqual([400, 400, 409, 400, 400, 400]);
        expect(JSON.stringify(answers[3].body)).toMatch(/name_not_forbidden/);
        expect(logger.lines.filter((l) => l.level !== 'debug')).toEqual([]);
        for (const text of [...logger.lines.map((l) => l.text), ...answers.map((a) => JSON.stringify(a.body))]) {
            expect(text).not.toMatch(/PLAIN-|STORED-|Failing row|Key \(/);
            expect(text).not.toMatch(BCRYPT_HASH);
        }
        expect(await s.prisma.member.count()).toBe(1);
    });
});
