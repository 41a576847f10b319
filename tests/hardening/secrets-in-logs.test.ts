import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { createFetchHandler } from '../../src/adapters/fetch';
import { RPCApiHandler } from '../../src/api/rpc';
import { loadSchema, type TestSchema } from '../support/schema';
import { BCRYPT_HASH, callers, levelLogger, SECRETS_SCHEMA } from './support/secrets-schema';

/**
 * What a client sends and what the database holds must not end up in log lines (of any level) or in error
 * answers: `@password` values (plain or hashed), `@omit` fields, fields and rows the user may not read, and
 * argument values in general. Each request below fails on purpose while carrying such values.
 */

// Prisma's `pretty` error format colours a message only where colours are on; on here, before Prisma loads
process.env.FORCE_COLOR = '1';

let s: TestSchema;
beforeAll(async () => {
    s = await loadSchema(SECRETS_SCHEMA);
    await s.prisma.member.create({ data: { id: 1, email: 'one@x.io', password: 'STORED-PW-1', token: 'STORED-TOKEN-1', secret: 'STORED-SECRET-1', name: 'one' } });
    await s.prisma.vault.create({ data: { id: 1, code: 'STORED-VAULT-1', ownerId: 1 } });
});
afterAll(() => s?.cleanup());

/** Every secret of the seed and of the requests (each request's values start with PLAIN-). */
const SECRET = /PLAIN-|STORED-/;

function expectClean(texts: string[]): void {
    for (const text of texts) {
        expect(text).not.toMatch(SECRET);
        expect(text).not.toMatch(BCRYPT_HASH);
    }
}

const signUp = (id: number, extra: Record<string, unknown> = {}) => ({
    id,
    email: `m${id}@x.io`,
    password: `PLAIN-PW-${id}`,
    token: `PLAIN-TOKEN-${id}`,
    secret: `PLAIN-SECRET-${id}`,
    name: 'n',
    ...extra,
});

describe('requests the ORM rejects as invalid arguments', () => {
    it('RPC: the debug line keeps the reason but no argument value (the ORM renders them all, the hashed password too)', async () => {
        const logger = levelLogger();
        const { rpc } = callers(s, logger, { id: 2 });
        const answers = [
            await rpc('POST', '/member/create', { data: signUp(5, { nope: 1 }) }),
            await rpc('POST', '/member/create', { data: signUp(6, { amount: 'PLAIN-AMOUNT-6' }) }),
            await rpc('GET', '/member/findMany', undefined, { where: { email: 'PLAIN-FILTER-7', amount: { gt: 'PLAIN-AMOUNT-7' } } }),
            await rpc('POST', '/$transaction/sequential', [{ model: 'Member', op: 'create', args: { data: signUp(8, { nope: 1 }) } }]),
        ];
        expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
        expect(logger.lines.map((l) => l.level)).toEqual(['debug', 'debug', 'debug', 'debug']);
        expect(logger.lines[0].text).toMatch(/Unknown argument `nope`/);
        expect(logger.lines[1].text).toMatch(/Invalid value for argument `amount`/);
        expectClean([...logger.lines.map((l) => l.text), ...answers.map((a) => JSON.stringify(a.body))]);
        expect(await s.prisma.member.count()).toBe(1);
    });

    it("RPC over a client with Prisma's `pretty` (coloured) error format: the same", async () => {
        const pretty = s.createClient(new PrismaBetterSQLite3({ url: s.databaseUrl }), { errorFormat: 'pretty' });
        try {
            const logger = levelLogger();
            const res = await RPCApiHandler()({
                method: 'POST',
                path: '/member/create',
                query: {},
                requestBody: { data: signUp(9, { nope: 1 }) },
                prisma: s.enhanceClient(pretty, { id: 2 }),
                modelMeta: s.modelMeta,
                logger,
            });
            expect(res.status).toBe(400);
            expect(logger.lines).toEqual([{ level: 'debug', text: expect.stringMatching(/Unknown argument `nope`/) }]);
            expectClean([logger.lines[0].text, JSON.stringify(res.body)]);
        } finally {
            await pretty.$disconnect();
        }
    });
});

describe('a sign-up that violates a unique constraint', () => {
    it('RPC, RPC in a transaction and REST: the answer names the field, neither it nor a log line has a value', async () => {
        const logger = levelLogger();
        const { rpc, rest } = callers(s, logger, undefined);
        const taken = { ...signUp(9), email: 'one@x.io' };
        const answers = [
            await rpc('POST', '/member/create', { data: taken }),
            await rpc('POST', '/$transaction/sequential', [{ model: 'Member', op: 'create', args: { data: taken } }]),
            await rest('POST', '/member', { data: { type: 'member', attributes: taken } }),
        ];
        expect(answers.map((a) => a.status)).toEqual([400, 400, 409]);
        expect(JSON.stringify(answers[0].body)).toMatch(/unique constraint violated on \(email\)/);
        expect(logger.lines.filter((l) => l.level !== 'debug')).toEqual([]);
        expectClean([...logger.lines.map((l) => l.text), ...answers.map((a) => JSON.stringify(a.body))]);
    });
});

describe('data rejected by validation rules', () => {
    it.each([false, true])('zodSchemas %s: a too short password is not echoed, in the answer or the log', async (zod) => {
        const logger = levelLogger();
        const { rpc, rest } = callers(s, logger, undefined, zod);
        const answers = [
            await rpc('POST', '/member/create', { data: signUp(10, { password: 'PLAIN-' }) }),
            await rpc('POST', '/member/create', { data: signUp(11, { email: 'PLAIN-not-an-email' }) }),
            await rest('POST', '/member', { data: { type: 'member', attributes: signUp(12, { password: 'PLAIN-' }) } }),
        ];
        expect(answers.map((a) => a.status)).toEqual([422, 422, 422]);
        expect(JSON.stringify(answers[0].body)).toMatch(/password/);
        expectClean([...logger.lines.map((l) => l.text), ...answers.map((a) => JSON.stringify(a.body))]);
    });
});

describe('writes the access policy refuses or hides', () => {
    it('a created row the user may not read, and updates of rows of another user, reveal no value', async () => {
        const logger = levelLogger();
        const { rpc, rest } = callers(s, logger, { id: 2 });
        const answers = [
            await rpc('POST', '/vault/create', { data: { id: 20, code: 'PLAIN-VAULT-20', ownerId: 1 } }),
            await rest('POST', '/vault', { data: { type: 'vault', attributes: { id: 21, code: 'PLAIN-VAULT-21' }, relationships: { owner: { data: { type: 'member', id: '1' } } } } }),
            await rpc('PUT', '/member/update', { where: { id: 1 }, data: { password: 'PLAIN-PW-22', secret: 'PLAIN-SECRET-22' } }),
            await rpc('PUT', '/vault/update', { where: { id: 1 }, data: { code: 'PLAIN-VAULT-23' } }),
            await rest('PATCH', '/member/1', { data: { type: 'member', id: '1', attributes: { password: 'PLAIN-PW-24' } } }),
        ];
        expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 404, 403]);
        expect(JSON.stringify(answers[0].body)).toMatch(/RESULT_NOT_READABLE/);
        expectClean([...logger.lines.map((l) => l.text), ...answers.map((a) => JSON.stringify(a.body))]);
        await s.prisma.vault.deleteMany({ where: { id: { in: [20, 21] } } });
    });
});

describe('a database that cannot take the write', () => {
    it('RPC, RPC in a transaction and REST: the error line says why, without the request values', async () => {
        const readonly = s.createClient(new PrismaBetterSQLite3({ url: s.databaseUrl, readonly: true }));
        try {
            const logger = levelLogger();
            const prisma = s.enhanceClient(readonly, { id: 2 });
            const { RestApiHandler } = await import('../../src/api/rest');
            const common = { prisma, modelMeta: s.modelMeta, logger, query: {} };
            const answers = [
                await RPCApiHandler()({ ...common, method: 'POST', path: '/member/create', requestBody: { data: signUp(30) } }),
                await RPCApiHandler()({ ...common, method: 'POST', path: '/$transaction/sequential', requestBody: [{ model: 'Member', op: 'create', args: { data: signUp(31) } }] }),
                await RestApiHandler({ endpoint: 'http://localhost/api' })({ ...common, method: 'POST', path: '/member', requestBody: { data: { type: 'member', attributes: signUp(32) } } }),
            ];
            expect(answers.map((a) => a.status)).toEqual([503, 503, 503]);
            expect(logger.lines.map((l) => l.level)).toEqual(['error', 'error', 'error']);
            expect(logger.lines.every((l) => /readonly database/.test(l.text))).toBe(true);
            expectClean([...logger.lines.map((l) => l.text), ...answers.map((a) => JSON.stringify(a.body))]);
        } finally {
            await readonly.$disconnect();
        }
    });
});

describe("an application's getPrisma that fails", () => {
    it('the error line keeps the reason but not the arguments of a failed session lookup (the session token)', async () => {
        const logger = levelLogger();
        const handler = createFetchHandler({
            modelMeta: s.modelMeta,
            logger,
            // a session lookup with an argument SQLite does not take: the ORM renders the token into its message
            getPrisma: async (request) => {
                const token = request.headers.get('x-session') ?? '';
                const member = await s.prisma.member.findFirst({ where: { token: { equals: token, mode: 'insensitive' } } });
                return s.enhance(member ?? undefined);
            },
        });
        const res = await handler(new Request('http://localhost/member/findMany', { headers: { 'x-session': 'PLAIN-SESSION-40' } }));
        expect(res.status).toBe(500);
        expect(logger.lines.map((l) => l.level)).toEqual(['error']);
        expect(logger.lines[0].text).toMatch(/getPrisma failed: PrismaClientValidationError: .*Unknown argument `mode`/);
        expect(logger.lines[0].text).toMatch(/\n\s+at /); // the stack frames stay
        expectClean([...logger.lines.map((l) => l.text), await res.text()]);
    });

    it('a getPrisma that returns the session token by mistake: the error line names its type, not its value', async () => {
        const logger = levelLogger();
        const handler = createFetchHandler({ modelMeta: s.modelMeta, logger, getPrisma: (request) => request.headers.get('x-session') });
        const res = await handler(new Request('http://localhost/member/findMany', { headers: { 'x-session': 'PLAIN-SESSION-41' } }));
        expect(res.status).toBe(500);
        expect(logger.lines).toEqual([{ level: 'error', text: expect.stringMatching(/^no-prisma: .*getPrisma returned a string$/) }]);
        expectClean([...logger.lines.map((l) => l.text), await res.text()]);
    });

    it('a body that is not JSON: the 400 gives the parser\'s reason without quoting the body', async () => {
        const logger = levelLogger();
        const handler = createFetchHandler({ modelMeta: s.modelMeta, logger, getPrisma: () => s.enhance() });
        for (const text of ['{"email":"m50@x.io","password":PLAIN-PW-50}', 'password=PLAIN-PW-51&email=m51%40x.io']) {
            const res = await handler(new Request('http://localhost/member/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }));
            const body = await res.text();
            expect([res.status, body]).toEqual([400, expect.stringMatching(/invalid JSON in request body: Unexpected token/)]);
            expectClean([...logger.lines.map((l) => l.text), body]);
        }
    });
});
